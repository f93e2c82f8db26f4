package oopsie

// Tests of the patched HDF5 writer (third_party/hdf5, see its PATCHES.md):
// they live here because `go test ./...` does not enter the nested module.

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/scigolib/hdf5"

	"github.com/openbddl/bddl/internal/h5util"
)

// writeGroupAttrs writes a file whose group /g has the attributes, in order.
func writeGroupAttrs(t *testing.T, attrs [][2]any) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "a.h5")
	fw, err := hdf5.CreateForWrite(p, hdf5.CreateTruncate)
	if err != nil {
		t.Fatal(err)
	}
	g, err := fw.CreateGroup("/g")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range attrs {
		if err := g.WriteAttribute(kv[0].(string), kv[1]); err != nil {
			t.Fatalf("attribute %s: %v", kv[0], err)
		}
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	return p
}

// readGroupAttrs reads /g's attributes back through the reader.
func readGroupAttrs(t *testing.T, p string) map[string]any {
	t.Helper()
	f, err := hdf5.Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	g, ok := h5util.Lookup(f.Root(), "g").(*hdf5.Group)
	if !ok {
		t.Fatal("/g is missing")
	}
	got, err := attrsOf(g)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// attrMessage finds the version 3 attribute message named name in a file's
// bytes and returns it whole (header, name, datatype, dataspace, n bytes
// of value).
func attrMessage(t *testing.T, file []byte, name string, n int) []byte {
	t.Helper()
	at := bytes.Index(file, append([]byte(name), 0))
	if at < 9 || file[at-9] != 3 {
		t.Fatalf("no version 3 attribute message named %s", name)
	}
	start := at - 9
	dt := int(binary.LittleEndian.Uint16(file[start+4:]))
	ds := int(binary.LittleEndian.Uint16(file[start+6:]))
	end := at + len(name) + 1 + dt + ds + n
	return file[start:end]
}

// TestAttrMessagesMatchLibhdf5 compares the attribute messages the writer
// makes for scalar numbers with libhdf5's (h5py's) for the same values,
// byte for byte (testdata/golden/h5py_attrs, from make_attr_golden.py):
// the IEEE float bit field (mantissa normalisation, sign position) and a
// rank-0 dataspace were both wrong before the fork's patch.
func TestAttrMessagesMatchLibhdf5(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		value any
		size  int
	}{
		{"success", 1.0, 8},
		{"severity", 0.25, 8},
		{"ratio", float32(0.5), 4},
		{"count", int64(3), 8},
	}
	var attrs [][2]any
	for _, c := range cases {
		attrs = append(attrs, [2]any{c.name, c.value})
	}
	p := writeGroupAttrs(t, attrs)
	file, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	got := readGroupAttrs(t, p)
	// a string: a scalar variable-length UTF-8 string, compared up to its
	// value (a reference into the file's global heap)
	want, err := os.ReadFile(filepath.Join("testdata", "golden", "h5py_attrs", "source_str.bin"))
	if err != nil {
		t.Fatal(err)
	}
	p2 := writeGroupAttrs(t, [][2]any{{"source", "human"}})
	file2, err := os.ReadFile(p2)
	if err != nil {
		t.Fatal(err)
	}
	if msg := attrMessage(t, file2, "source", 0); !bytes.Equal(msg, want) {
		t.Errorf("source: the writer's attribute message\n% x\nlibhdf5's\n% x", msg, want)
	}
	if s := readGroupAttrs(t, p2)["source"]; s != "human" {
		t.Errorf("source reads back %#v", s)
	}
	for _, c := range cases {
		want, err := os.ReadFile(filepath.Join("testdata", "golden", "h5py_attrs", c.name+".bin"))
		if err != nil {
			t.Fatal(err)
		}
		if msg := attrMessage(t, file, c.name, c.size); !bytes.Equal(msg, want) {
			t.Errorf("%s: the writer's attribute message\n% x\nlibhdf5's\n% x", c.name, msg, want)
		}
		if fmt.Sprintf("%#v", got[c.name]) != fmt.Sprintf("%#v", c.value) {
			t.Errorf("%s reads back %#v, want %#v", c.name, got[c.name], c.value)
		}
	}
}

// layoutAttrs are an annotator group's attributes, the layout's six plus
// two, so the group holds eight (libhdf5's compact limit).
func layoutAttrs() [][2]any {
	return [][2]any{
		{"source", "human"}, {"timestamp", "2026-01-02T03:04:05Z"}, {"success", 1.0},
		{"failure_description", "the apple is still in the basket, not on the table at all"},
		{"taxonomy", `{"failure_category": "goal-not-reached", "severity": 0.5}`},
		{"additional_notes", ""}, {"extra_one", 0.75}, {"extra_two", int64(-2)},
	}
}

// TestManyAttrsStayInHeader: a group of up to eight attributes keeps them
// in its header (continuation blocks as needed) with an attribute info
// message of undefined addresses, as libhdf5 does; they used to move to a
// dense storage libhdf5 could not see once a sixth overflowed the header.
func TestManyAttrsStayInHeader(t *testing.T) {
	t.Parallel()
	for n := 1; n <= 8; n++ {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel()
			attrs := layoutAttrs()[:n]
			p := writeGroupAttrs(t, attrs)
			got := readGroupAttrs(t, p)
			if len(got) != n {
				t.Fatalf("%d attributes read back, want %d: %v", len(got), n, got)
			}
			for _, kv := range attrs {
				if fmt.Sprintf("%#v", got[kv[0].(string)]) != fmt.Sprintf("%#v", kv[1]) {
					t.Errorf("%s reads back %#v, want %#v", kv[0], got[kv[0].(string)], kv[1])
				}
			}
			file, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			// The attribute info message (type 0x15, 18 bytes: version 0,
			// no flags, two undefined addresses), as the format
			// specification spells it.
			ainfo := append([]byte{0x15, 18, 0, 0, 0, 0}, bytes.Repeat([]byte{0xff}, 16)...)
			if !bytes.Contains(file, ainfo) {
				t.Errorf("no compact attribute info message in the file")
			}
		})
	}
}

// TestWrittenAttrsReadByH5py reads groups of one to eight attributes with
// h5py (libhdf5): values, scalar shapes and counts.
func TestWrittenAttrsReadByH5py(t *testing.T) {
	t.Parallel()
	py := h5pyPython()
	if py == "" {
		t.Skip("no python3 with h5py")
	}
	script := `
import h5py, json, sys
g = h5py.File(sys.argv[1], "r")["g"]
out = {"_n": h5py.h5a.get_num_attrs(g.id)}
for k in g.attrs:
    v = g.attrs[k]
    out[k] = [v if isinstance(v, str) else "bytes" if isinstance(v, bytes) else v.item(), list(getattr(v, "shape", ()))]
print(json.dumps(out))
`
	for _, n := range []int{1, 5, 6, 8} {
		attrs := layoutAttrs()[:n]
		p := writeGroupAttrs(t, attrs)
		b, err := exec.Command(py, "-c", script, p).CombinedOutput()
		if err != nil {
			t.Fatalf("%d attributes: h5py: %v\n%s", n, err, b)
		}
		var got map[string]any
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatalf("%v: %s", err, b)
		}
		if got["_n"] != float64(n) || len(got) != n+1 {
			t.Errorf("%d attributes: h5py reads %v", n, got)
		}
		for _, kv := range attrs {
			want := kv[1]
			if i, ok := want.(int64); ok {
				want = float64(i)
			}
			v, _ := got[kv[0].(string)].([]any)
			if len(v) != 2 || v[0] != want || len(v[1].([]any)) != 0 {
				t.Errorf("%d attributes: h5py reads %s = %v, want the scalar %v", n, kv[0], got[kv[0].(string)], kv[1])
			}
		}
	}
}

// TestAddToExistingGroup creates groups under a group of an h5py-written
// file (writer defect 4: only the root or the library's own groups could be
// added to): enough of them, with long names, to grow the group's name heap
// and split its symbol nodes. Every new and old group must read back, here
// and through h5py when present.
func TestAddToExistingGroup(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "ep_single.h5")
	fw, err := hdf5.OpenForWrite(p, hdf5.OpenReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := range 12 {
		n := fmt.Sprintf("tool_%02d_with_a_rather_long_annotator_name_to_fill_the_heap", 11-i)
		names = append(names, n)
		g, err := fw.CreateGroup("/" + AnnotationsGroup + "/" + n)
		if err != nil {
			t.Fatalf("group %d: %v", i, err)
		}
		if err := g.WriteAttribute("success", float64(i%2)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := fw.CreateGroup("/" + AnnotationsGroup + "/missing/child"); err == nil {
		t.Error("a group under a missing group was created")
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	e, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if len(e.Annotations) != 12+2 {
		t.Fatalf("%d annotator groups read back, want 14", len(e.Annotations))
	}
	for i, n := range names {
		if a := e.Annotation(n); a == nil || a.Success != float64(i%2) {
			t.Errorf("%s reads %+v", n, a)
		}
	}
	py := h5pyPython()
	if py == "" {
		return
	}
	script := `
import h5py, json, sys
f = h5py.File(sys.argv[1], "r")
g = f["episode_annotations"]
print(json.dumps({k: float(g[k].attrs["success"]) for k in g}))
`
	b, err := exec.Command(py, "-c", script, p).CombinedOutput()
	if err != nil {
		t.Fatalf("h5py: %v\n%s", err, b)
	}
	var got map[string]float64
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	if len(got) != 14 {
		t.Errorf("h5py reads %v", got)
	}
	for i, n := range names {
		if v, ok := got[n]; !ok || v != float64(i%2) {
			t.Errorf("h5py reads %s = %v", n, got[n])
		}
	}
}

// TestEmptyDatasetWritten creates empty datasets ([0, 1], [0, 7]) beside
// non-empty ones in an h5py-written episode (writer defect 6: "dimension 0
// cannot be 0"): they read back as empty action entries, here and, when
// present, through h5py with their shapes.
func TestEmptyDatasetWritten(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "ep_single.h5")
	fw, err := hdf5.OpenForWrite(p, hdf5.OpenReadWrite)
	if err != nil {
		t.Fatal(err)
	}
	shapes := map[string][]uint64{"empty_one": {0, 1}, "empty_seven": {0, 7}, "full": {3, 2}}
	for _, n := range []string{"empty_one", "empty_seven", "full"} {
		dw, err := fw.CreateDataset("/"+ActionsGroup+"/"+n, hdf5.Float64, shapes[n])
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		data := make([]float64, shapes[n][0]*shapes[n][1])
		for i := range data {
			data[i] = float64(i) + 0.5
		}
		if err := dw.Write(data); err != nil {
			t.Fatalf("%s: write: %v", n, err)
		}
	}
	if _, err := fw.CreateDataset("/"+ActionsGroup+"/chunked_empty", hdf5.Float64, []uint64{0, 1}, hdf5.WithChunkDims([]uint64{1, 1})); err == nil {
		t.Error("an empty chunked dataset was accepted")
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	e, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	found := map[string]Dataset{}
	for _, d := range e.Actions {
		found[d.Name] = d
	}
	for n, s := range shapes {
		d, ok := found[n]
		if !ok || d.Rows != int(s[0]) || d.Width != int(s[1]) || d.Empty != (s[0] == 0) {
			t.Errorf("%s reads %+v, want shape %v", n, d, s)
		}
	}
	py := h5pyPython()
	if py == "" {
		return
	}
	script := `
import h5py, json, sys
a = h5py.File(sys.argv[1], "r")["actions"]
print(json.dumps({k: [list(a[k].shape), a[k].dtype.str, a[k][:].ravel().tolist()] for k in ("empty_one", "empty_seven", "full")}))
`
	b, err := exec.Command(py, "-c", script, p).CombinedOutput()
	if err != nil {
		t.Fatalf("h5py: %v\n%s", err, b)
	}
	want := `{"empty_one": [[0, 1], "<f8", []], "empty_seven": [[0, 7], "<f8", []], "full": [[3, 2], "<f8", [0.5, 1.5, 2.5, 3.5, 4.5, 5.5]]}`
	if got := string(bytes.TrimSpace(b)); got != want {
		t.Errorf("h5py reads\n%s\nwant\n%s", got, want)
	}
}
