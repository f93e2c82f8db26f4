package oopsie

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"testing"
)

// h5pyPython finds a Python with h5py (Debian's python3-h5py); "" when
// there is none (CI: the test is skipped).
func h5pyPython() string {
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(p, "-c", "import h5py").Run() == nil {
			return p
		}
	}
	return ""
}

// h5pyGroups reads every episode_annotations group with h5py: per group,
// per attribute, [value (text for strings), shape].
func h5pyGroups(t *testing.T, py, p string) map[string]map[string][2]any {
	t.Helper()
	script := `
import h5py, json, sys
f = h5py.File(sys.argv[1], "r")
out = {"_root": {"timestamp": [float(f.attrs["timestamp"]), []]}}
for name, d in f["observations/robot_states"].items():
    out["_root"][name] = [d[:].tolist(), list(d.shape)]
for name, g in f["episode_annotations"].items():
    out[name] = {}
    for k in g.attrs:
        v = g.attrs[k]
        shape = list(getattr(v, "shape", ()))
        v = "bytes" if isinstance(v, bytes) else (v if isinstance(v, str) else v.item())
        out[name][k] = [v, shape]
print(json.dumps(out))
`
	b, err := exec.Command(py, "-c", script, p).CombinedOutput()
	if err != nil {
		t.Fatalf("h5py: %v\n%s", err, b)
	}
	var got map[string]map[string][2]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return got
}

// TestAnnotationReadByH5py reads the groups Annotate wrote with h5py
// (libhdf5), the annotation tools' view: every attribute of the layout,
// success a float scalar, and the people's groups re-created with every
// attribute as h5py read it before.
func TestAnnotationReadByH5py(t *testing.T) {
	t.Parallel()
	py := h5pyPython()
	if py == "" {
		t.Skip("no python3 with h5py")
	}
	for _, success := range []float64{1, 0} {
		p := copyFixture(t, "ep_single.h5")
		before := h5pyGroups(t, py, p)
		a := verdict
		a.Success = success
		a.AdditionalNotes = "a note"
		if err := Annotate(p, &a, false); err != nil {
			t.Fatal(err)
		}
		got := h5pyGroups(t, py, p)
		want := map[string][2]any{"source": {"bddl", []any{}}, "timestamp": {a.Timestamp, []any{}},
			"success": {success, []any{}}, "failure_description": {a.FailureDescription, []any{}},
			"taxonomy": {a.Taxonomy, []any{}}, "additional_notes": {"a note", []any{}}}
		if fmt.Sprint(got["bddl"]) != fmt.Sprint(want) {
			t.Errorf("h5py reads the bddl group as\n%v\nwant\n%v", got["bddl"], want)
		}
		if len(before) < 3 {
			t.Fatalf("the fixture has no people's groups: %v", before)
		}
		for name, attrs := range before {
			if fmt.Sprint(got[name]) != fmt.Sprint(attrs) {
				t.Errorf("h5py reads %s as\n%v\nwas\n%v", name, got[name], attrs)
			}
		}
		if len(got) != len(before)+1 {
			t.Errorf("h5py reads groups %v", got)
		}
	}
}

// TestAnnotateManyTimes annotates one file again and again (new
// annotators, then --force): each rewrite grows the root group's name
// heap, which the library could do once at most in an h5py file before
// the fork's patch. Every annotation must read back here and, when h5py
// is present, through libhdf5 with the people's groups intact.
func TestAnnotateManyTimes(t *testing.T) {
	t.Parallel()
	py := h5pyPython()
	for _, name := range []string{"ep_single.h5", "ep_noannot.h5", "ep_biarm.h5"} {
		p := copyFixture(t, name)
		var before map[string]map[string][2]any
		if py != "" {
			before = h5pyGroups0(t, py, p)
		}
		prev := open(t, name).Annotations
		names := []string{"bddl", "bddl_b", "bddl_c", "bddl_d", "bddl_e", "bddl_f", "bddl", "bddl_c"}
		for i, ann := range names {
			a := verdict
			a.Annotator = ann
			a.Success = float64(i % 2)
			a.AdditionalNotes = fmt.Sprint("rewrite ", i)
			if err := Annotate(p, &a, i >= 6); err != nil {
				t.Fatalf("%s: rewrite %d (%s): %v", name, i, ann, err)
			}
			e, err := Open(p)
			if err != nil {
				t.Fatal(err)
			}
			if g := e.Annotation(ann); g == nil || *g != a {
				t.Fatalf("%s: rewrite %d: %s reads %+v, want %+v", name, i, ann, g, a)
			}
			e.Close()
			checkRootSymbolTable(t, p)
		}
		e, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if len(e.Annotations) != len(prev)+6 {
			t.Errorf("%s: %d annotator groups, want %d", name, len(e.Annotations), len(prev)+6)
		}
		e.Close()
		if py == "" {
			continue
		}
		got := h5pyGroups0(t, py, p)
		for g, attrs := range before {
			if fmt.Sprint(got[g]) != fmt.Sprint(attrs) {
				t.Errorf("%s: h5py reads %s as\n%v\nwas\n%v", name, g, got[g], attrs)
			}
		}
		if len(got) != len(before)+6 {
			t.Errorf("%s: h5py reads %d groups, want %d", name, len(got), len(before)+6)
		}
		if got["bddl_c"]["additional_notes"][0] != "rewrite 7" || got["bddl_c"]["success"][0] != 1.0 {
			t.Errorf("%s: h5py reads bddl_c as %v", name, got["bddl_c"])
		}
	}
}

// h5pyGroups0 is h5pyGroups for a file that may have no
// episode_annotations group yet.
func h5pyGroups0(t *testing.T, py, p string) map[string]map[string][2]any {
	t.Helper()
	b, err := exec.Command(py, "-c", `import h5py, sys; print("episode_annotations" in h5py.File(sys.argv[1], "r"))`, p).CombinedOutput()
	if err != nil {
		t.Fatalf("h5py: %v\n%s", err, b)
	}
	if string(b) == "True\n" {
		return h5pyGroups(t, py, p)
	}
	// a copy given an empty episode_annotations by h5py: its other objects
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	probe := p + ".probe.h5"
	if err := os.WriteFile(probe, data, 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(probe)
	if b, err := exec.Command(py, "-c", `import h5py, sys; h5py.File(sys.argv[1], "a").create_group("episode_annotations")`, probe).CombinedOutput(); err != nil {
		t.Fatalf("h5py: %v\n%s", err, b)
	}
	return h5pyGroups(t, py, probe)
}

// checkRootSymbolTable checks, from the bytes and the format
// specification alone (independent of the library), that an h5py-written
// file's root group (version 0 superblock, 8-byte addresses) has its
// symbol table in order: each symbol node's entries sorted by name, the
// B-tree's keys bounding them. libhdf5 finds a child by binary search and
// misses it otherwise (this reader scans, so it would not notice).
func checkRootSymbolTable(t *testing.T, p string) {
	t.Helper()
	d, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	u64 := func(at uint64) uint64 { return le.Uint64(d[at:]) }
	btree, heap := u64(80), u64(88)
	if string(d[heap:heap+4]) != "HEAP" || string(d[btree:btree+4]) != "TREE" {
		t.Fatalf("%s: no root heap and B-tree at the superblock's cached addresses", p)
	}
	data := u64(heap + 24)
	name := func(off uint64) string {
		s := d[data+off:]
		return string(s[:bytes.IndexByte(s, 0)])
	}
	used := uint64(le.Uint16(d[btree+6:]))
	at := btree + 24
	var keys []string
	var nodes []uint64
	for i := uint64(0); i < used; i++ {
		keys = append(keys, name(u64(at)))
		nodes = append(nodes, u64(at+8))
		at += 16
	}
	keys = append(keys, name(u64(at)))
	for i, n := range nodes {
		if string(d[n:n+4]) != "SNOD" {
			t.Fatalf("%s: no symbol node at %#x", p, n)
		}
		count := uint64(le.Uint16(d[n+6:]))
		var names []string
		for j := uint64(0); j < count; j++ {
			names = append(names, name(u64(n+8+40*j)))
		}
		if !slices.IsSorted(names) || len(names) == 0 || names[0] <= keys[i] || names[len(names)-1] != keys[i+1] {
			t.Errorf("%s: root symbol node %d holds %v between keys %q and %q: out of order", p, i, names, keys[i], keys[i+1])
		}
	}
}
