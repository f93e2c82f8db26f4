package robolab

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/h5util"
	"github.com/scigolib/hdf5"
)

// layouts are one run written by h5py in other file layouts
// (testdata/make_layouts.py): superblock 3 and version 2 object headers,
// dense links and attributes, a userblock, creation order tracked.
var layouts = []string{"latest_demos.hdf5", "chunked_latest.hdf5", "dense.hdf5", "userblock.hdf5", "userblock_latest.hdf5", "track_order.hdf5"}

// checkLayout checks the demos of testdata/layouts/name, copied into a
// folder of its own as run_0.hdf5, as JSON lines naming the file RUN.
func checkLayout(t *testing.T, name string) string {
	t.Helper()
	dir := t.TempDir()
	data, err := os.ReadFile(filepath.Join("testdata/layouts", name))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "run_0.hdf5")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	for _, r := range checkFile(t, p, episode.CheckOptions{}) {
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(bytes.ReplaceAll(line, []byte(p), []byte("RUN")))
		out.WriteByte('\n')
	}
	return out.String()
}

// TestLayouts: each layout gives the demos and verdicts of the default
// layout's file.
func TestLayouts(t *testing.T) {
	want := checkLayout(t, "default.hdf5")
	if c := bytes.Count([]byte(want), []byte(`"success":true`)); c != 1 || bytes.Count([]byte(want), []byte("\n")) != 2 {
		t.Fatalf("default layout: want demo_0 a success and demo_1 a failure, got\n%s", want)
	}
	for _, name := range layouts {
		t.Run(name, func(t *testing.T) {
			if d := cmp.Diff(want, checkLayout(t, name)); d != "" {
				t.Errorf("results differ from the default layout's (-default +%s):\n%s", name, d)
			}
		})
	}
}

// TestChunkIndexes reads a dataset of each chunk index of the version 4
// layout (testdata/layouts/chunk_indexes.hdf5), version 2 B-trees
// included: whole and by slices, as
// h5py wrote them (0, 1, 2, …; earray_sparse: 7 at 50–54, else 0).
func TestChunkIndexes(t *testing.T) {
	f, err := hdf5.Open("testdata/layouts/chunk_indexes.hdf5")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := func(name string, i int) float64 {
		switch name {
		case "earray_sparse":
			if i >= 50 && i < 55 {
				return 7
			}
			return 0
		case "farray_paged":
			return float64(i % 256)
		}
		return float64(i)
	}
	for _, tc := range []struct {
		name string
		n    int
	}{
		{"earray", 300}, {"earray_gzip", 300}, {"farray", 40}, {"farray_gzip", 40}, {"farray_paged", 1100},
		{"single", 40}, {"single_gzip", 40}, {"earray_2d", 60}, {"earray_sparse", 100}, {"implicit", 40},
		{"btree2", 16}, {"btree2_gzip", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ds, ok := h5util.Child(f.Root(), tc.name).(*hdf5.Dataset)
			if !ok {
				t.Fatal("not found")
			}
			got, err := ds.Read()
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.n {
				t.Fatalf("%d values, want %d", len(got), tc.n)
			}
			for i, v := range got {
				if v != want(tc.name, i) {
					t.Fatalf("value %d is %v, want %v", i, v, want(tc.name, i))
				}
			}
			if tc.name == "btree2_gzip" {
				s, err := ds.ReadSlice([]uint64{7, 5}, []uint64{3, 4})
				if err != nil {
					t.Fatal(err)
				}
				if v := s.([]float64); len(v) != 12 || v[0] != 145 || v[11] != 188 {
					t.Errorf("rows 7–9, columns 5–8: %v", v)
				}
				return
			}
			if tc.name == "btree2" {
				return
			}
			if tc.name == "earray_2d" {
				s, err := ds.ReadSlice([]uint64{7, 1}, []uint64{5, 2})
				if err != nil {
					t.Fatal(err)
				}
				if v := s.([]float64); len(v) != 10 || v[0] != 22 || v[9] != 35 {
					t.Errorf("rows 7–11, columns 1–2: %v", v)
				}
				return
			}
			s, err := ds.ReadSlice([]uint64{uint64(tc.n) - 13}, []uint64{11})
			if err != nil {
				t.Fatal(err)
			}
			if v := s.([]float64); len(v) != 11 || v[0] != want(tc.name, tc.n-13) || v[10] != want(tc.name, tc.n-3) {
				t.Errorf("slice: %v", v)
			}
		})
	}
}

// TestTinyLayouts: FuzzRunFile's seeds of each layout read: one demo of
// two steps.
func TestTinyLayouts(t *testing.T) {
	for _, l := range []string{"latest", "userblock", "track_order", "dense", "dense_many"} {
		rs := checkFile(t, "testdata/layouts/tiny_"+l+".hdf5", episode.CheckOptions{})
		if len(rs) != 1 || rs[0].Steps != 2 || rs[0].Error != "" {
			t.Errorf("tiny_%s: %d results, first %+v", l, len(rs), rs[0].Result)
		}
	}
}

// TestLayoutsMatchH5py reads every dataset of the chunked layouts as
// h5py does (skipped without Debian's python3-h5py).
func TestLayoutsMatchH5py(t *testing.T) {
	py := ""
	for _, p := range []string{"/usr/bin/python3", "python3"} {
		if exec.Command(p, "-c", "import h5py").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		t.Skip("no python3 with h5py")
	}
	const script = `
import h5py, json, sys
out = {}
def visit(name, obj):
    # float16 (bbox/centroid) is a type the library does not convert
    if isinstance(obj, h5py.Dataset) and obj.dtype != "f2":
        out[obj.name] = obj[()].astype("f8").ravel().tolist()
h5py.File(sys.argv[1], "r").visititems(visit)
print(json.dumps(out))
`
	for _, name := range []string{"chunk_indexes.hdf5", "chunked_latest.hdf5", "tiny_latest.hdf5", "userblock_latest.hdf5", "dense_many.hdf5"} {
		p := filepath.Join("testdata/layouts", name)
		b, err := exec.Command(py, "-c", script, p).Output()
		if err != nil {
			t.Fatalf("%s: h5py: %v", name, err)
		}
		var want map[string][]float64
		if err := json.Unmarshal(b, &want); err != nil {
			t.Fatal(err)
		}
		f, err := hdf5.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		f.Walk(func(path string, o hdf5.Object) {
			ds, ok := o.(*hdf5.Dataset)
			if _, listed := want[path]; !ok || !listed {
				return
			}
			n++
			got, err := ds.Read()
			if err != nil {
				t.Errorf("%s %s: %v", name, path, err)
				return
			}
			if d := cmp.Diff(want[path], got); d != "" {
				t.Errorf("%s %s differs from h5py's (-h5py +ours):\n%s", name, path, d)
			}
		})
		f.Close()
		if n != len(want) {
			t.Errorf("%s: %d datasets read, h5py lists %d", name, n, len(want))
		}
	}
}

// TestDenseMany: 301 links in data/ and 202 attributes on demo_0, dense
// (testdata/layouts/dense_many.hdf5): name indexes with internal nodes,
// heaps whose root is an indirect block. The fork's dense reader took
// only a leaf and a direct block (about 20 entries): data/ failed to load
// and was dropped, "missing group".
func TestDenseMany(t *testing.T) {
	const p = "testdata/layouts/dense_many.hdf5"
	f, err := hdf5.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	data, ok := h5util.Child(f.Root(), "data").(*hdf5.Group)
	if !ok {
		t.Fatal("data/ not read")
	}
	names := map[string]bool{}
	for _, c := range data.Children() {
		names[c.Name()] = true
	}
	if len(names) != 301 || !names["demo_0"] || !names["extra_0"] || !names["extra_299"] {
		t.Errorf("%d children of data/, want demo_0 and extra_0 … extra_299", len(names))
	}
	demo := h5util.Child(data, "demo_0").(*hdf5.Group)
	attrs, err := demo.Attributes()
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]any{}
	for _, a := range attrs {
		v, err := a.ReadValue()
		if err != nil && a.Name != "success" { // an enum (numpy bool): not converted
			t.Fatalf("%s: %v", a.Name, err)
		}
		vals[a.Name] = v
	}
	if len(vals) != 202 || fmt.Sprint(vals["note_199"]) != "199" || fmt.Sprint(vals["num_samples"]) != "2" {
		t.Errorf("%d attributes (note_199 %v, num_samples %v), want 202", len(vals), vals["note_199"], vals["num_samples"])
	}
	rs := checkFile(t, p, episode.CheckOptions{})
	if len(rs) != 1 || rs[0].Steps != 2 || rs[0].Error != "" {
		t.Errorf("%d results, first %+v", len(rs), rs[0].Result)
	}
}

// TestBrokenChildIsAnError: a child of a link-message group whose header
// cannot be read makes the file an error naming it; the fork left such a
// child out silently (which hid its misreading of version 2 header gaps
// as a missing demo_1).
func TestBrokenChildIsAnError(t *testing.T) {
	data, err := os.ReadFile("testdata/layouts/latest_demos.hdf5")
	if err != nil {
		t.Fatal(err)
	}
	const demo1 = 34993 // data/demo_1's object header (h5py.h5o.get_info(...).addr)
	if string(data[demo1:demo1+4]) != "OHDR" {
		t.Fatalf("no object header at %d: was the fixture written again?", demo1)
	}
	data[demo1+3] = 'X'
	_, err = hdf5.OpenReaderAt(bytes.NewReader(data), int64(len(data)))
	if err == nil || !strings.Contains(err.Error(), "child demo_1 load failed") {
		t.Fatalf("error %v, want one naming demo_1", err)
	}
	_, err = openFrom("run_0.hdf5", bytes.NewReader(data), int64(len(data)))
	if err == nil || !strings.Contains(err.Error(), "cannot read it as HDF5") {
		t.Errorf("robolab: %v", err)
	}
}

// TestChunkIndexBitFlips reads every group and dataset of
// chunk_indexes.hdf5 (which CheckRun would leave at its missing data/) and
// of tiny_dense_many.hdf5 with bits flipped: errors, never a panic or an
// allocation past the bounds. FLIPTRIES explores further (by hand: 20,000
// of each under ulimit -v 4000000, after a paged extensible array data
// block without a super block was found to panic).
func TestChunkIndexBitFlips(t *testing.T) {
	for _, name := range []string{"chunk_indexes.hdf5", "tiny_dense_many.hdf5"} {
		t.Run(name, func(t *testing.T) { walkFlipped(t, "testdata/layouts/"+name) })
	}
}

func walkFlipped(t *testing.T, file string) {
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tries := 150
	if n, err := strconv.Atoi(os.Getenv("FLIPTRIES")); err == nil {
		tries = n
	}
	rng := rand.New(rand.NewPCG(37, 1))
	var st runtimeStats
	for i := range tries {
		data := slices.Clone(src)
		for range 1 + rng.IntN(8) {
			k := rng.IntN(len(data) * 8)
			data[k/8] ^= 1 << (k % 8)
		}
		st.read()
		before := st.total
		f, err := hdf5.OpenReaderAt(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			continue
		}
		f.Walk(func(_ string, o hdf5.Object) {
			switch o := o.(type) {
			case *hdf5.Dataset:
				_, _ = o.Read()
			case *hdf5.Group:
				if attrs, err := o.Attributes(); err == nil {
					for _, a := range attrs {
						_, _ = a.ReadValue()
					}
				}
			}
		})
		f.Close()
		st.read()
		// Read() takes a dataset whole: up to 256 MiB stored (the fork's
		// bound, utils.MaxReadBytes), 8 × that as float64 for one-byte
		// values; the run file reader never reads whole (column.go)
		if got := st.total - before; got > 2560<<20 {
			t.Errorf("try %d: allocated %d MiB", i, got>>20)
		}
	}
}
