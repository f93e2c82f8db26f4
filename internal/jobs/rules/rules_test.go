package rules

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
)

var embedded = KB{Load: func() (*kb.Base, error) { return kb.Default(), nil }, Source: func() string { return "the embedded knowledge base" }}

func TestList(t *testing.T) {
	t.Parallel()
	var out, errw bytes.Buffer
	if err := List(embedded, "single_toggleable_machine", "", false, &out, &errw); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "strawberry_smoothie") {
		t.Errorf("List(single_toggleable_machine):\n%s", out.String())
	}
	var u *batch.UsageError
	if err := List(embedded, "baking", "", false, &out, &errw); !errors.As(err, &u) {
		t.Errorf("List(--family baking) error %v, want a usage error", err)
	}
	if err := List(embedded, "", "no_such.n.01", false, &out, &errw); !errors.As(err, &u) {
		t.Errorf("List(--synset no_such.n.01) error %v, want a usage error", err)
	}
}

func TestExplainAndFind(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := Explain(embedded, "strawberry_smoothie", "", true, &out); err != nil || !strings.HasPrefix(out.String(), "{") {
		t.Errorf("Explain(strawberry_smoothie) = %v:\n%s", err, out.String())
	}
	var u *batch.UsageError
	err := Explain(embedded, "strawberry_smoothi", "", false, &out)
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "did you mean strawberry_smoothie?") {
		t.Errorf("Explain(strawberry_smoothi) error %v, want a usage error with a did-you-mean", err)
	}
}

// TestSampleFiles: a sample written to a directory is a definition and
// an episode; a bad variant is misuse.
func TestSampleFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var errw bytes.Buffer
	if err := Sample(embedded, SampleRequest{Rule: "strawberry_smoothie", Variant: "positive", Seed: 1, OutDir: dir, Stderr: &errw}); err != nil {
		t.Fatalf("Sample: %v\n%s", err, errw.String())
	}
	for _, f := range []string{"problem0.bddl", "sample.jsonl"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	var u *batch.UsageError
	if err := Sample(embedded, SampleRequest{Rule: "strawberry_smoothie", Variant: "sideways"}); !errors.As(err, &u) {
		t.Errorf("Sample(--variant sideways) error %v, want a usage error", err)
	}
}
