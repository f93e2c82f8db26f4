package dora

import (
	"os"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode/dora/doratest"
	"github.com/openbddl/bddl/episode/recording"
)

func TestAnnotate(t *testing.T) {
	t.Parallel()
	dir := writeEpisode(t, doratest.Spec{Start: 1, Duration: 0.1})
	human := `{"source": "human", "timestamp": "2026-01-01T00:00:00Z", "success": 1.0, "failure_description": "", "taxonomy": "{\"failure_category\": \"none\", \"severity\": 0}"}`
	if err := os.WriteFile(AnnotationPath(dir, "human"), []byte(human), 0o644); err != nil {
		t.Fatal(err)
	}
	a := recording.Annotation{Annotator: "bddl", Source: "bddl", Timestamp: "2026-01-02T03:04:05Z", Success: 0, FailureDescription: "x", Taxonomy: `{"failure_category":"goal-not-reached","severity":1}`}
	if err := Annotate(dir, &a, false); err != nil {
		t.Fatal(err)
	}
	if err := Annotate(dir, &a, false); err == nil || !strings.Contains(err.Error(), "already annotated by bddl") {
		t.Fatalf("second annotation: %v", err)
	}
	a.Success = 1
	if err := Annotate(dir, &a, true); err != nil {
		t.Fatal(err)
	}
	got, err := Annotations(dir)
	if err != nil || len(got) != 2 || got[0].Annotator != "bddl" || *got[0] != a || got[1].Annotator != "human" || got[1].Success != 1 {
		t.Fatalf("Annotations = %+v, %v", got, err)
	}
	if err := Annotate(t.TempDir(), &a, false); err == nil {
		t.Fatal("annotated a folder without metadata.json")
	}
}
