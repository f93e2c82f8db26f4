package omnigibson

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/predicates"
)

// TestTemplateOnlyTasks: a task folder holding only its templates takes
// the robot's start pose from the sampled_task folder's
// available_tasks.yaml, so no :init literal is left unknown for want of
// the agent.
func TestTemplateOnlyTasks(t *testing.T) {
	base := corpusKB(t)
	n := 0
	for _, dir := range taskDirs(t) {
		task, err := FindTask(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(task.Instances) > 0 {
			continue
		}
		n++
		t.Run(filepath.Base(dir), func(t *testing.T) {
			if task.Definition == "" {
				t.Fatalf("no definition found around %s", dir)
			}
			tmpl, err := ReadTask(task)
			if err != nil {
				t.Fatal(err)
			}
			if len(tmpl.Robots) == 0 {
				t.Fatalf("no robot pose for %s (available_tasks.yaml)", task.Name)
			}
			prob := readProblem(t, task.Definition)
			c, err := NewConverter(tmpl, prob, task.Definition, base, Options{})
			if err != nil {
				t.Fatal(err)
			}
			h, _, err := c.ConvertTemplate()
			if errors.Is(err, ErrOtherDefinition) {
				t.Logf("not judged: %v", err) // an error record, tested in TestUnboundInitObject
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			lits, err := NewInitEvaluator(prob, base).Eval(h)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range lits {
				if l.Value == predicates.Unknown && strings.Contains(l.Detail, "agent.n.01") {
					t.Errorf("%s unknown for want of the agent: %s", l.Literal, l.Detail)
				}
			}
		})
	}
	if n == 0 {
		t.Skip("no template-only task in the shared sample")
	}
}

// TestAvailableTasks reads available_tasks.yaml as the simulator writes
// it, and refuses what it cannot use.
func TestAvailableTasks(t *testing.T) {
	const good = `cook_x:
  0:
    robot_start_orientation: [0, 0, 0.7071, 0.7071]
    robot_start_position: [1.5, -2, 0.005]
    scene_model: house
`
	for _, tc := range []struct {
		name, yaml, scene, want, wantErr string
	}{
		{name: "pose", yaml: good, scene: "house", want: "[1.5 -2 0.005] [0 0 0.7071 0.7071]"},
		{name: "task absent", yaml: "other:\n  0:\n    scene_model: house\n", scene: "house"},
		{name: "scene differs", yaml: good, scene: "villa", wantErr: "scene_model is house, the template's scene is villa"},
		{name: "short position", yaml: strings.Replace(good, "[1.5, -2, 0.005]", "[1.5, -2]", 1), scene: "house", wantErr: "robot_start_position of 3 numbers"},
		{name: "not a number", yaml: strings.Replace(good, "1.5", ".nan", 1), scene: "house", wantErr: "start pose holds NaN"},
		{name: "not YAML", yaml: "cook_x: [", scene: "house", wantErr: AvailableTasksFile},
		{name: "wrong shape", yaml: "cook_x: 3\n", scene: "house", wantErr: AvailableTasksFile},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			tmpl := filepath.Join(root, "cook_x", "house_task_cook_x_0_0_template.json")
			if err := os.MkdirAll(filepath.Dir(tmpl), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, AvailableTasksFile), []byte(tc.yaml), 0o644); err != nil {
				t.Fatal(err)
			}
			task := &Task{Template: tmpl}
			task.Name, task.DefIndex = taskName(tmpl)
			rs, err := availableRobotPose(task, tc.scene)
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("availableRobotPose: %v, want an error with %q", err, tc.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case tc.want == "":
				if len(rs) != 0 {
					t.Fatalf("got %v, want no pose", rs)
				}
			default:
				if len(rs) != 1 || fmt.Sprint(rs[0].Pos, rs[0].Quat) != tc.want {
					t.Fatalf("got %v, want %s", rs, tc.want)
				}
			}
		})
	}
}
