package oopsie

import (
	"io"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/predicates"
)

const session = "testdata/session"

func open(t *testing.T, name string) *Episode {
	t.Helper()
	e, err := Open(filepath.Join(session, name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { e.Close() })
	return e
}

func TestReaderFields(t *testing.T) {
	t.Parallel()
	e := open(t, "ep_single.h5")
	if e.Schema != Schema || e.LanguageInstruction != "put the apple on the table" || e.EpisodeID != "ep_single" ||
		e.LabID != "test_lab" || e.OperatorName != "operator one" || !e.HasOperator || e.Timestamp != 1_700_000_000 || !e.HasTimestamp || e.ControlFrequency != 15 {
		t.Fatalf("root attributes: %+v", e)
	}
	if !strings.Contains(e.RobotProfile, `"robot_id": "test_arm"`) {
		t.Fatalf("robot_profile %q", e.RobotProfile)
	}
	shapes := map[string][2]int{}
	for _, d := range append(append([]Dataset(nil), e.RobotStates...), e.Actions...) {
		shapes[d.Path] = [2]int{d.Rows, d.Width}
		if d.Empty != (d.Rows == 0) {
			t.Errorf("%s: empty %v with %d rows", d.Path, d.Empty, d.Rows)
		}
	}
	want := map[string][2]int{
		"observations/robot_states/gripper_position": {40, 1}, "observations/robot_states/cartesian_position": {40, 7},
		"observations/robot_states/joint_position": {40, 7}, "actions/cartesian_position": {40, 7}, "actions/cartesian_velocity": {0, 6},
		"actions/base_position": {0, 3}, "actions/base_velocity": {0, 3}, "actions/gripper_binary": {0, 1}, "actions/gripper_position": {0, 1},
		"actions/gripper_velocity": {0, 1}, "actions/joint_position": {0, 7}, "actions/joint_velocity": {0, 7},
	}
	for p, s := range want {
		if shapes[p] != s {
			t.Errorf("%s: shape %v, want %v", p, shapes[p], s)
		}
	}
	if len(shapes) != len(want) {
		t.Errorf("datasets %v", shapes)
	}
	if e.VideoPaths["wrist"] != "videos/wrist.mp4" || e.VideoPaths["ext1"] != "videos/ext1.mp4" {
		t.Errorf("video paths %v", e.VideoPaths)
	}
	if len(e.Annotations) != 2 {
		t.Fatalf("annotations %+v", e.Annotations)
	}
	a, b := e.Annotation("human_alice"), e.Annotation("human_bob")
	if a == nil || b == nil || a.Source != "human" || a.Success != 1 || a.Timestamp != "2026-01-02T03:04:05Z" || b.Success != 0 ||
		b.FailureDescription != "the apple slipped" || recording.ParseTaxonomy(b.Taxonomy) != (recording.Taxonomy{FailureCategory: "grasp", Severity: 2}) ||
		b.AdditionalNotes != "notes of human_bob" {
		t.Fatalf("annotations %+v %+v", a, b)
	}
	g, _ := e.Dataset(GripperPath)
	r := newRowReader(e.Path, g)
	if v, err := r.row(19); err != nil || v[0] != 0 {
		t.Fatalf("gripper row 19 = %v, %v", v, err)
	}
	if v, err := r.row(20); err != nil || v[0] != 0.9 {
		t.Fatalf("gripper row 20 = %v, %v", v, err)
	}
	if _, err := r.row(40); err != io.EOF {
		t.Fatalf("row 40: %v", err)
	}
}

func TestReaderBiArm(t *testing.T) {
	t.Parallel()
	e := open(t, "ep_biarm.h5")
	for p, w := range map[string]int{"actions/cartesian_position": 14, "actions/cartesian_velocity": 12, "observations/robot_states/cartesian_position": 14, "actions/base_position": 3} {
		d, ok := e.Dataset(p)
		if !ok || d.Width != w || d.Rows != 40 {
			t.Errorf("%s: %+v, want width %d", p, d, w)
		}
	}
}

func TestReaderBad(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ file, want string }{
		{"testdata/bad/truncated.h5", "truncated: the file has"},
		{"testdata/bad/not_oopsie.h5", "not an Oopsie episode"},
		{"testdata/session/ep_single.objects.jsonl", "cannot read it as HDF5"},
		{"testdata/session", "not a regular file"},
	} {
		if _, err := Open(tc.file); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Open(%s) = %v, want an error with %q", tc.file, err, tc.want)
		}
	}
	// a truncated episode is still one (its schema is among its first
	// bytes), so check reports it truncated, not as a RoboLab run file
	if IsOopsie("testdata/bad/not_oopsie.h5") || !IsOopsie("testdata/session/ep_noannot.h5") || !IsOopsie("testdata/bad/truncated.h5") {
		t.Error("IsOopsie")
	}
}

func join(t *testing.T, name string, o recording.Options) (*episode.Header, []*episode.Step, error) {
	t.Helper()
	e := open(t, name)
	s, err := e.Join(o)
	if err != nil {
		return nil, nil, err
	}
	h, steps, err := episode.ReadAll(s, name)
	if err != nil {
		t.Fatal(err)
	}
	return h, steps, s.Err()
}

func TestJoin(t *testing.T) {
	t.Parallel()
	// single arm: fixed base at the origin, gripper closing at row 20,
	// track every 3 rows (2.6 s): the join runs at the track's 5 Hz
	h, steps, err := join(t, "ep_single.h5", recording.Options{Activity: "a"})
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 14 || math.Abs(h.DT-0.2) > 1e-6 {
		t.Fatalf("%d steps of %v s, want 14 of 0.2", len(steps), h.DT)
	}
	ag := steps[0].Objects[recording.DefaultAgent]
	if ag == nil || ag.Pos != [3]float64{0, 0, 0.6} || !ag.Has(predicates.FieldGraspedBy) || ag.GraspedBy != "" {
		t.Fatalf("agent at step 0: %+v", ag)
	}
	// row 21 (step 7, t 1.4 s) is the first step after the gripper closed
	if o := steps[7].Objects[recording.DefaultAgent]; o == nil || o.Null&predicates.FieldGraspedBy == 0 {
		t.Fatalf("step 7: the gripper closed but grasped_by was not forgotten: %+v", o)
	}
	if a := steps[10].Objects["apple"]; a == nil || a.AABB.Min[2] != 0.8 {
		t.Fatalf("step 10 apple %+v", a)
	}
	// bi-arm: the base moves
	_, steps, err = join(t, "ep_biarm.h5", recording.Options{Activity: "a", Rate: 15})
	if err != nil {
		t.Fatal(err)
	}
	if len(steps) != 40 || steps[10].Objects[recording.DefaultAgent].Pos[0] != 0.5+0.05*10 {
		t.Fatalf("bi-arm: %d steps, agent at step 10 %+v", len(steps), steps[10].Objects[recording.DefaultAgent])
	}
	// no gripper, empty actions: the track alone
	_, steps, err = join(t, "ep_noannot.h5", recording.Options{Activity: "a"})
	if err != nil || len(steps) != 14 {
		t.Fatalf("no gripper: %d steps, %v", len(steps), err)
	}
}

func TestReaderVariants(t *testing.T) {
	t.Parallel()
	e, err := Open("testdata/variants/ep_variants.h5")
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.LanguageInstruction != "open the drawer" || e.ControlFrequency != 10 || !e.HasTimestamp || e.Timestamp != 1_700_000_000 || e.HasOperator {
		t.Fatalf("root: %+v", e)
	}
	// the numpy bool cannot be read: that annotator is left out, noted
	if len(e.Annotations) != 1 || e.Annotations[0].Annotator != "tool_str" || e.Annotations[0].Success != 0 || e.Annotations[0].Timestamp != "1700000000.5" {
		t.Fatalf("annotations %+v", e.Annotations)
	}
	if len(e.Warnings) != 1 || !strings.Contains(e.Warnings[0], "tool_bool/success") {
		t.Fatalf("warnings %v", e.Warnings)
	}
	g, _ := e.Dataset(GripperPath)
	r := newRowReader(e.Path, g)
	for _, k := range []int{0, 63, 64, 499} {
		if v, err := r.row(k); err != nil || math.Abs(v[0]-float64(k)/499) > 1e-12 {
			t.Fatalf("chunked row %d = %v, %v", k, v, err)
		}
	}
	_, steps, err := join(t, "../variants/ep_variants.h5", recording.Options{Activity: "a"})
	if err != nil || len(steps) != 500 {
		t.Fatalf("join: %d steps, %v", len(steps), err)
	}
}
