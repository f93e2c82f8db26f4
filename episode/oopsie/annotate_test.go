package oopsie

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scigolib/hdf5"

	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/internal/h5util"
)

// copyFixture copies a session episode into a temporary directory.
func copyFixture(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(session, name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o640); err != nil {
		t.Fatal(err)
	}
	return p
}

var verdict = recording.Annotation{Annotator: "bddl", Source: "bddl", Timestamp: "2026-01-02T03:04:05Z", Success: 0,
	FailureDescription: "apple 1 is not on top of table 1", Taxonomy: `{"failure_category":"goal-not-reached","severity":0.5}`}

func TestAnnotateRoundTrip(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"ep_single.h5", "ep_noannot.h5", "ep_biarm.h5"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p := copyFixture(t, name)
			before, err := takeSnapshot(p)
			if err != nil {
				t.Fatal(err)
			}
			prev := open(t, name).Annotations
			a := verdict
			if err := Annotate(p, &a, false); err != nil {
				t.Fatal(err)
			}
			after, err := takeSnapshot(p)
			if err != nil {
				t.Fatal(err)
			}
			for k, v := range before {
				if !strings.HasPrefix(k, "/episode_annotations") && after[k] != v {
					t.Errorf("%s changed", k)
				}
			}
			e, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer e.Close()
			got := e.Annotation("bddl")
			if got == nil || *got != a {
				t.Fatalf("bddl group reads %+v, want %+v", got, a)
			}
			if len(e.Annotations) != len(prev)+1 {
				t.Fatalf("%d annotator groups, want %d", len(e.Annotations), len(prev)+1)
			}
			for _, h := range prev {
				if g := e.Annotation(h.Annotator); g == nil || *g != *h {
					t.Errorf("%s reads %+v, was %+v", h.Annotator, g, h)
				}
			}
			info, _ := os.Stat(p)
			if info.Mode().Perm() != 0o640 {
				t.Errorf("mode %v, want 0640", info.Mode().Perm())
			}
			// refused a second time, replaced with force
			a2 := a
			a2.Success = 1
			if err := Annotate(p, &a2, false); err == nil || !errors.Is(err, err) || !strings.Contains(err.Error(), "already annotated by bddl") {
				t.Fatalf("a second annotation: %v", err)
			}
			if err := Annotate(p, &a2, true); err != nil {
				t.Fatalf("--force: %v", err)
			}
			e2, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			defer e2.Close()
			if g := e2.Annotation("bddl"); g == nil || g.Success != 1 || len(e2.Annotations) != len(prev)+1 {
				t.Fatalf("after --force: %+v", e2.Annotations)
			}
			ents, _ := os.ReadDir(filepath.Dir(p))
			if len(ents) != 1 {
				t.Errorf("files left beside the episode: %v", ents)
			}
		})
	}
}

func TestAnnotateFailureLeavesOriginal(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "ep_single.h5")
	orig, _ := os.ReadFile(p)
	for _, name := range []string{"", "a/b"} {
		a := verdict
		a.Annotator = name
		if err := Annotate(p, &a, false); err == nil {
			t.Fatalf("annotator %q accepted", name)
		}
	}
	// a directory that cannot take the temporary file
	dir := filepath.Dir(p)
	if err := os.Chmod(dir, 0o500); err != nil {
		t.Fatal(err)
	}
	defer os.Chmod(dir, 0o755)
	if os.Geteuid() != 0 {
		a := verdict
		if err := Annotate(p, &a, false); err == nil {
			t.Fatal("annotated in a read-only directory")
		}
	}
	now, _ := os.ReadFile(p)
	if string(now) != string(orig) {
		t.Fatal("the original changed")
	}
	if err := Annotate("testdata/bad/truncated.h5", &verdict, false); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Fatalf("truncated: %v", err)
	}
}

// manyAttrsFixture is ep_noannot.h5 given an annotator group "many" of
// nine attributes (beyond what the library can re-create readably).
func manyAttrsFixture(t *testing.T) string {
	t.Helper()
	p := copyFixture(t, "ep_noannot.h5")
	fw, err := hdf5.OpenForWrite(p, hdf5.OpenReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fw.CreateGroup("/" + AnnotationsGroup); err != nil {
		t.Fatal(err)
	}
	g, err := fw.CreateGroup("/" + AnnotationsGroup + "/many")
	if err != nil {
		t.Fatal(err)
	}
	for i, kv := range append(layoutAttrs(), [2]any{"extra_three", "x"}) {
		if err := g.WriteAttribute(kv[0].(string), kv[1]); err != nil {
			t.Fatalf("attribute %d: %v", i, err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAnnotateInPlaceLeavesOthers: written in place, the annotation leaves
// the other annotator groups as they are, even one of nine attributes.
func TestAnnotateInPlaceLeavesOthers(t *testing.T) {
	t.Parallel()
	p := manyAttrsFixture(t)
	a := verdict
	if err := Annotate(p, &a, false); err != nil {
		t.Fatal(err)
	}
	f, err := hdf5.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, ok := h5util.Lookup(f.Root(), AnnotationsGroup+"/many").(*hdf5.Group)
	if !ok {
		t.Fatal("the group many is gone")
	}
	if got, err := attrsOf(g); err != nil || len(got) != 9 {
		t.Fatalf("many reads %v, %v", got, err)
	}
}

// TestAnnotateRebuilt takes the other way, as for a group the library
// cannot add to: episode_annotations made again with the other groups
// re-created; one of nine attributes cannot be, and the file is left as it
// was. Not parallel: it replaces inPlace.
func TestAnnotateRebuilt(t *testing.T) {
	inPlace = func(string, bool, bool, *recording.Annotation) error { return errors.New("not in place") }
	defer func() { inPlace = writeAnnotation }()
	p := copyFixture(t, "ep_single.h5")
	prev := open(t, "ep_single.h5").Annotations
	a := verdict
	if err := Annotate(p, &a, false); err != nil {
		t.Fatal(err)
	}
	e, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if got := e.Annotation("bddl"); got == nil || *got != a || len(e.Annotations) != len(prev)+1 {
		t.Fatalf("after a rebuild: %+v", e.Annotations)
	}
	for _, h := range prev {
		if g := e.Annotation(h.Annotator); g == nil || *g != *h {
			t.Errorf("%s reads %+v, was %+v", h.Annotator, g, h)
		}
	}

	p = manyAttrsFixture(t)
	orig, _ := os.ReadFile(p)
	err = Annotate(p, &a, false)
	if err == nil || !strings.Contains(err.Error(), "an annotator group of 9 attributes") {
		t.Fatalf("Annotate: %v", err)
	}
	if now, _ := os.ReadFile(p); !bytes.Equal(now, orig) {
		t.Fatal("the file changed")
	}
}

// TestAnnotateNullDataset: an action entry stored as h5py.Empty (a null
// dataspace with no storage, which the HDF5 library describes as a
// scalar at an undefined address) is an empty dataset: it is read as
// empty and annotate's comparison of the copy does not read its data.
func TestAnnotateNullDataset(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/variants/ep_null.h5")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "ep_null.h5")
	if err := os.WriteFile(p, data, 0o640); err != nil {
		t.Fatal(err)
	}
	e, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := e.Dataset(ActionsGroup + "/cartesian_velocity")
	e.Close()
	if !ok || !d.Empty || d.Rows != 0 {
		t.Fatalf("cartesian_velocity %+v (found %v), want empty", d, ok)
	}
	a := verdict
	if err := Annotate(p, &a, false); err != nil {
		t.Fatal(err)
	}
	e, err = Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if got := e.Annotation("bddl"); got == nil || *got != a {
		t.Fatalf("annotation read back %+v, want %+v", got, a)
	}
}
