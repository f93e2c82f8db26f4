package oopsie

import (
	"errors"
	"fmt"
	"testing"

	"github.com/openbddl/bddl/episode/recording"
)

// TestAnnotateRebuildManyGroups: with 200 annotator groups, the rebuild
// path (a fresh episode_annotations with every group re-created) keeps
// every group and the rest of the file (the verification compares it).
func TestAnnotateRebuildManyGroups(t *testing.T) {
	p := copyFixture(t, "ep_noannot.h5")
	// 199 groups written in one session (annotating 199 times took two
	// minutes), then the 200th through the rebuild path.
	kept := map[string]map[string]any{}
	for k := range 198 {
		attrs := map[string]any{}
		for _, kv := range annotationAttrs(&verdict) {
			attrs[kv[0].(string)] = kv[1]
		}
		kept[fmt.Sprintf("annotator%03d", k)] = attrs
	}
	first := verdict
	first.Annotator = "annotator198"
	if err := writeAnnotations(p, false, kept, &first); err != nil {
		t.Fatalf("writing 199 groups: %v", err)
	}
	inPlace = func(string, bool, bool, *recording.Annotation) error { return errors.New("not in place") }
	defer func() { inPlace = writeAnnotation }()
	a := verdict
	a.Annotator = "last"
	if err := Annotate(p, &a, false); err != nil {
		t.Fatalf("the 200th, rebuilt: %v", err)
	}
	e, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if len(e.Annotations) != 200 {
		t.Fatalf("%d annotations after the rebuild, want 200", len(e.Annotations))
	}
}
