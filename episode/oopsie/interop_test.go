package oopsie

import (
	"encoding/json"
	"fmt"
	"os/exec"
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
out = {"_root": {"timestamp": [float(f.attrs["timestamp"]), []],
                 "gripper_20": [float(f["observations/robot_states/gripper_position"][20][0]), []]}}
for name, g in f["episode_annotations"].items():
    out[name] = {}
    for k in g.attrs:
        v = g.attrs[k]
        shape = list(getattr(v, "shape", ()))
        v = v.decode() if isinstance(v, bytes) else (v if isinstance(v, str) else v.item())
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
