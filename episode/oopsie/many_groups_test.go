package oopsie

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// TestAnnotate200Groups annotates a file to which h5py added 198 annotator
// groups (testdata/variants/ep_200_groups.h5): their group's B-tree has
// internal nodes and its name heap's data lies away from its header. The
// library cannot add to such a group in place, so the rebuild path runs;
// it took the group for empty, freed its heap as if the data followed the
// header and reused that space, overwriting observations/robot_states
// (verification caught it: "cartesian_position changed"). Both ways are
// tried; with h5py the result is read back: every group listed, every
// dataset's stored bytes where they were, unchanged.
func TestAnnotate200Groups(t *testing.T) {
	src := "testdata/variants/ep_200_groups.h5"
	orig, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, rebuild := range []bool{false, true} {
		t.Run(fmt.Sprintf("rebuild=%v", rebuild), func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "ep.h5")
			if err := os.WriteFile(p, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			if rebuild {
				inPlace = func(string, bool, bool, *recording.Annotation) error { return errors.New("not in place") }
				defer func() { inPlace = writeAnnotation }()
			}
			a := verdict
			if err := Annotate(p, &a, false); err != nil {
				t.Fatal(err)
			}
			e, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			if len(e.Annotations) != 201 || e.Annotation("bddl") == nil || e.Annotation("human_bob") == nil || e.Annotation("tool_197") == nil {
				t.Fatalf("%d annotations, want the 200 and bddl's", len(e.Annotations))
			}
			py := h5pyPython()
			if py == "" {
				return
			}
			// h5py: the groups listed, and each dataset's storage
			// (offset, size) in the original, compared byte for byte
			const script = `
import h5py, json, sys
out = {"groups": 0, "datasets": {}}
with h5py.File(sys.argv[1], "r") as f:
    out["groups"] = len(f["episode_annotations"])
    def visit(name, o):
        if isinstance(o, h5py.Dataset):
            out["datasets"][name] = [o.id.get_offset() or 0, o.id.get_storage_size()]
    f.visititems(visit)
print(json.dumps(out))
`
			read := func(path string) (groups int, ds map[string][2]int64) {
				b, err := exec.Command(py, "-c", script, path).Output()
				if err != nil {
					t.Fatalf("h5py %s: %v", path, err)
				}
				var v struct {
					Groups   int                 `json:"groups"`
					Datasets map[string][2]int64 `json:"datasets"`
				}
				if err := json.Unmarshal(b, &v); err != nil {
					t.Fatal(err)
				}
				return v.Groups, v.Datasets
			}
			n, before := read(src)
			if n != 200 {
				t.Fatalf("h5py lists %d groups in the fixture", n)
			}
			n, after := read(p)
			if n != 201 {
				t.Errorf("h5py lists %d annotator groups, want 201", n)
			}
			got, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			for name, at := range before {
				if after[name] != at {
					t.Errorf("%s: storage %v, was %v", name, after[name], at)
					continue
				}
				if off, n := at[0], at[1]; n > 0 && !bytes.Equal(got[off:off+n], orig[off:off+n]) {
					t.Errorf("%s: its %d stored bytes at %d changed", name, n, off)
				}
			}
		})
	}
}
