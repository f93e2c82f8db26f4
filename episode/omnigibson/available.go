package omnigibson

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gopkg.in/yaml.v3"

	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/yamlguard"
)

// AvailableTasksFile is the file in the simulator's sampled_task folder
// that gives each task's scene and the robot's start pose in its
// template. A task folder with no instances has the pose only there.
const AvailableTasksFile = "available_tasks.yaml"

// maxAvailableTasks bounds its read: the full file of the challenge's 50
// tasks is about 20 KB.
const maxAvailableTasks = 16 << 20

// availableTask is one entry: task → definition number → this.
type availableTask struct {
	Orientation []float64 `yaml:"robot_start_orientation"`
	Position    []float64 `yaml:"robot_start_position"`
	Scene       string    `yaml:"scene_model"`
}

// availableTasksPath finds the available_tasks.yaml of the sampled_task
// folder a template lies in (its folder or the one above), "" if none.
func availableTasksPath(template string) string {
	dir := filepath.Dir(template)
	for _, d := range []string{dir, filepath.Dir(dir)} {
		p := filepath.Join(d, AvailableTasksFile)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// readAvailableTasks parses an available_tasks.yaml.
func readAvailableTasks(path string) (map[string]map[string]availableTask, error) {
	src, err := fsutil.ReadFile(path, maxAvailableTasks)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(src, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := yamlguard.Check(path, &doc, yamlguard.DefaultLimit); err != nil {
		return nil, err
	}
	var out map[string]map[string]availableTask
	if err := doc.Decode(&out); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}

// availableRobotPose is the robot's start pose that available_tasks.yaml
// gives for the task's definition, when the file is there and names the
// task in the template's scene. The robot model is not recorded there:
// the pose's Robot is "".
func availableRobotPose(t *Task, scene string) ([]RobotPose, error) {
	path := availableTasksPath(t.Template)
	if path == "" {
		return nil, nil
	}
	all, err := readAvailableTasks(path)
	if err != nil {
		return nil, err
	}
	e, ok := all[t.Name][strconv.Itoa(t.DefIndex)]
	if !ok {
		return nil, nil
	}
	if scene != "" && e.Scene != "" && e.Scene != scene {
		return nil, fmt.Errorf("%s: %s.%d.scene_model is %s, the template's scene is %s", path, t.Name, t.DefIndex, e.Scene, scene)
	}
	if len(e.Position) != 3 || len(e.Orientation) != 4 {
		return nil, fmt.Errorf("%s: %s.%d: want robot_start_position of 3 numbers and robot_start_orientation of 4 (x, y, z, w), found %d and %d",
			path, t.Name, t.DefIndex, len(e.Position), len(e.Orientation))
	}
	for _, v := range append(e.Position, e.Orientation...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%s: %s.%d: the robot's start pose holds %v", path, t.Name, t.DefIndex, v)
		}
	}
	var p RobotPose
	copy(p.Pos[:], e.Position)
	copy(p.Quat[:], e.Orientation)
	return []RobotPose{p}, nil
}
