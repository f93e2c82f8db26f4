package libero

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestRecorderOutputChecks runs the Python recorder on its test's fake
// LIBERO environment and checks what it wrote with the Go reader and
// evaluator: the two sides agree on the format. Skipped without python3.
func TestRecorderOutputChecks(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 not found")
	}
	out := filepath.Join(t.TempDir(), "ep.jsonl")
	def, _ := filepath.Abs(filepath.Join("testdata", "recorder_fake.bddl"))
	script := `
import sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[1] + "/tests")
from openbddl.libero_recorder import LiberoRecorder
from test_libero_recorder import FakeControlEnv
with LiberoRecorder(FakeControlEnv(), sys.argv[2], definition=sys.argv[3]) as r:
    r.reset()
    r.step([0] * 7)
`
	cmd := exec.Command(py, "-c", script, filepath.Join("..", "python"), out, def)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("recorder: %v\n%s", err, b)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h, steps, err := ReadEpisode(f, out)
	if err != nil {
		t.Fatal(err)
	}
	if h.Definition != def || len(steps) != 2 {
		t.Fatalf("header %+v, %d steps", h, len(steps))
	}
	task := Resolve(parseStrict(t, def))
	r := Check(task, steps)
	// The fake's knob is at 0.62 (on), its moka pot is on the table, not
	// on the stove's cook region; it stands in its init region.
	if r.Success || len(r.Unsatisfied) != 1 || r.Unsatisfied[0].Literal != "(On moka_pot_1 flat_stove_1_cook_region)" {
		t.Errorf("report %+v", r)
	}
	if got := NewEvaluator(task).EvalAtoms(task.GoalAtoms()[:1], &steps[0])[0]; got.Truth != True {
		t.Errorf("(Turnon flat_stove_1) on the recorded step = %s (%s)", got.Truth, got.Reason)
	}
	if got := NewEvaluator(task).EvalAtoms(task.InitAtoms()[1:], &steps[0])[0]; got.Truth != True {
		t.Errorf("(On moka_pot_1 kitchen_table_moka_pot_init_region) on the recorded step = %s (%s)", got.Truth, got.Reason)
	}
}
