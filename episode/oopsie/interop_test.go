package oopsie

import (
	"encoding/json"
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

// TestAnnotationReadByH5py reads the group Annotate wrote with h5py
// (libhdf5): the annotation tools' view.
func TestAnnotationReadByH5py(t *testing.T) {
	t.Parallel()
	py := h5pyPython()
	if py == "" {
		t.Skip("no python3 with h5py")
	}
	p := copyFixture(t, "ep_single.h5")
	a := verdict
	a.Success = 1 // 0.0 reads right even when floats are written wrong
	if err := Annotate(p, &a, false); err != nil {
		t.Fatal(err)
	}
	script := `
import h5py, json, sys
f = h5py.File(sys.argv[1], "r")
g = f["episode_annotations/bddl"]
out = {}
for k in g.attrs:
    v = g.attrs[k]
    v = v[0] if getattr(v, "shape", ()) == (1,) else v
    out[k] = v.decode() if isinstance(v, bytes) else float(v)
out["_root_timestamp"] = float(f.attrs["timestamp"])
out["_gripper_20"] = float(f["observations/robot_states/gripper_position"][20][0])
print(json.dumps(out))
`
	b, err := exec.Command(py, "-c", script, p).CombinedOutput()
	if err != nil {
		t.Fatalf("h5py: %v\n%s", err, b)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	want := map[string]any{"source": "bddl", "timestamp": a.Timestamp, "success": 1.0, "failure_description": a.FailureDescription,
		"taxonomy": a.Taxonomy, "_root_timestamp": 1.7e9, "_gripper_20": 0.9}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("h5py reads %s = %v, want %v", k, got[k], v)
		}
	}
	if len(got) != len(want) {
		t.Errorf("h5py reads %v", got)
	}
}
