package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The RoboLab fixtures of episode/robolab: a run file of four demos (see
// make_fixtures.py there), its map, activity and RoboLab's results.
const roboLabData = "../../episode/robolab/testdata"

func roboLabPath(name string) string { return filepath.Join(roboLabData, name) }

func TestCheckRoboLab(t *testing.T) {
	run, names := roboLabPath("run_0.hdf5"), roboLabPath("names.yaml")
	tests := []struct {
		name  string
		args  []string
		code  int
		agree []string // agreement of each demo, in order
	}{
		{"verdicts", []string{"check", "--format", "json", "--episode", run, "--map", names}, 1,
			[]string{"both_succeed", "both_fail", "both_succeed", "only_bddl"}},
		{"at end", []string{"check", "--format", "json", "--at-end", "--episode", run, "--map", names}, 1,
			[]string{"both_succeed", "both_fail", "only_robolab", "only_bddl"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runBDDL(t, tc.args...)
			r.wantCode(t, tc.args, tc.code)
			lines := jsonResults(t, r.stdout)
			if len(lines) != 4 {
				t.Fatalf("%d result lines, want one per demo:\n%s", len(lines), r.stdout)
			}
			for i, l := range lines {
				if l["episode"] != run+"#demo_"+string(rune('0'+i)) || l["agreement"] != tc.agree[i] || l["env_id"] != float64(i) ||
					l["env_name"] != "AppleInBowlTask" || l["run"] != float64(0) || l["dt"] == nil {
					t.Errorf("line %d: %v", i, l)
				}
				if _, ok := l["robolab_success"]; !ok {
					t.Errorf("line %d lacks RoboLab's verdict", i)
				}
			}
			if lines[0]["first_success_step"] != float64(22) || lines[0]["robolab_success_step"] != float64(25) {
				t.Errorf("success steps: ours %v, RoboLab's %v", lines[0]["first_success_step"], lines[0]["robolab_success_step"])
			}
			if w, ok := lines[0]["warnings"]; ok {
				t.Errorf("warnings on a clean demo: %v", w)
			}
		})
	}
}

func TestCheckRoboLabSummary(t *testing.T) {
	args := []string{"check", "--episode", roboLabPath("run_0.hdf5"), "--map", roboLabPath("names.yaml")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 1)
	for _, want := range []string{
		"SUCCESS " + roboLabPath("run_0.hdf5") + "#demo_0: goal satisfied at step 22",
		"RoboLab agreement over 4 episodes: 2 both succeed, 1 both fail, 0 only RoboLab, 1 only BDDL",
		"#demo_3  success at step 22  failure             only BDDL",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	// An explicit results file that lacks these episodes: no verdicts.
	empty := filepath.Join(t.TempDir(), "episode_results.jsonl")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	args = append(args, "--robolab-results", empty)
	r = runBDDL(t, args...)
	r.wantCode(t, args, 1)
	if !strings.Contains(r.stderr, "no RoboLab verdict") || strings.Contains(r.stdout, "agreement") {
		t.Errorf("no verdicts: stdout %q stderr %q", r.stdout, r.stderr)
	}
}

func TestCheckRoboLabErrors(t *testing.T) {
	run := roboLabPath("run_0.hdf5")
	act := roboLabPath("putting_the_apple_in_the_bowl.bddl")
	cut := filepath.Join(t.TempDir(), "run_0.hdf5")
	data, err := os.ReadFile(run)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cut, data[:len(data)-8000], 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
		code int
		want string // in stdout, else stderr
	}{
		{"no map", []string{"check", "--activity", act, "--episode", run}, 1,
			"data/demo_0/states: apple, bowl, cabinet, mug, robot are not instances of putting_the_apple_in_the_bowl: give a --map file"},
		{"no activity", []string{"check", "--episode", run}, 2, "RoboLab run files name no BDDL activity"},
		{"map without run files", []string{"check", "--map", roboLabPath("names.yaml"), "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}, 2,
			"--map and --robolab-results are for RoboLab run files"},
		{"bad map", []string{"check", "--map", act, "--episode", run}, 2, "--map"},
		{"bad results", []string{"check", "--map", roboLabPath("names.yaml"), "--robolab-results", act, "--episode", run}, 2, "--robolab-results"},
		{"bad data", []string{"check", "--map", roboLabPath("names.yaml"), "--episode", roboLabPath("bad.hdf5")}, 1,
			"ERROR   " + roboLabPath("bad.hdf5") + "#demo_1: " + roboLabPath("bad.hdf5") + ": data/demo_1/bbox/bbox_mm/bowl: step 9: corner 5 z is NaN"},
		{"truncated", []string{"check", "--map", roboLabPath("names.yaml"), "--episode", cut}, 1, "truncated: the file has"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := runBDDL(t, tc.args...)
			r.wantCode(t, tc.args, tc.code)
			if !strings.Contains(r.stdout+r.stderr, tc.want) {
				t.Errorf("output lacks %q:\nstdout:\n%s\nstderr:\n%s", tc.want, r.stdout, r.stderr)
			}
			if tc.name == "truncated" && (strings.HasPrefix(r.stdout, "SUCCESS ") || strings.Contains(r.stdout, "\nSUCCESS ")) {
				t.Errorf("a truncated file succeeded:\n%s", r.stdout)
			}
		})
	}
}

func TestEpisodeConvert(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	args := []string{"episode", "convert", roboLabPath("run_0.hdf5"), "--map", roboLabPath("names.yaml"), "-o", dir}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 0)
	for k := range 4 {
		if _, err := os.Stat(filepath.Join(dir, "run_0_demo_"+string(rune('0'+k))+".jsonl")); err != nil {
			t.Error(err)
		}
	}
	// The episodes written check as the run file does.
	args = []string{"check", "--format", "json", "--activity", roboLabPath("putting_the_apple_in_the_bowl.bddl"), "--episode", dir}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 1)
	lines := jsonResults(t, r.stdout)
	if len(lines) != 4 || lines[0]["first_success_step"] != float64(22) || lines[1]["success"] != false || lines[3]["success"] != true {
		t.Errorf("converted episodes: %v", lines)
	}
	// Without --activity: the definition written beside them is found,
	// and the activity carries its canonical name.
	args = []string{"check", "--format", "json", "--episode", dir}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 1)
	lines = jsonResults(t, r.stdout)
	if len(lines) != 4 || lines[0]["first_success_step"] != float64(22) || lines[0]["activity"] != "putting_the_apple_in_the_bowl" {
		t.Errorf("converted episodes checked without --activity: %v\n%s", lines, r.stderr)
	}
	args = []string{"episode", "convert", roboLabPath("bad.hdf5"), "--map", roboLabPath("names.yaml"), "-o", dir}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 1)
	if !strings.Contains(r.stderr, "data/demo_0/states/rigid_object/apple/root_pose: step 7: position y is NaN") {
		t.Errorf("stderr %q", r.stderr)
	}
	for _, args := range [][]string{
		{"episode", "convert", roboLabPath("run_0.hdf5"), "--map", roboLabPath("names.yaml")},
		{"episode", "convert", roboLabPath("run_0.hdf5"), "-o", dir},
	} {
		runBDDL(t, args...).wantCode(t, args, 2)
	}
}

// TestCheckRoboLabDirectory walks RoboLab's output directory: every run
// file's demos are episodes, RoboLab's results file is not.
func TestCheckRoboLabDirectory(t *testing.T) {
	args := []string{"check", "--format", "json", "--map", roboLabPath("names.yaml"), "--episode", roboLabData}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 1)
	lines := jsonResults(t, r.stdout)
	demos := map[string]int{}
	for _, l := range lines {
		name := l["episode"].(string)
		if strings.Contains(name, "episode_results") {
			t.Errorf("RoboLab's results file checked as an episode: %v", l)
		}
		demos[filepath.Base(strings.SplitN(name, "#", 2)[0])]++
	}
	want := map[string]int{"run_0.hdf5": 4, "bad.hdf5": 7, "crashed.hdf5": 2, "direct.hdf5": 2, "latest.hdf5": 1}
	for f, n := range want {
		if demos[f] != n {
			t.Errorf("%s: %d results, want %d (%v)", f, demos[f], n, demos)
		}
	}
	if !strings.Contains(r.stderr, "episode_results.jsonl is RoboLab's results file, not an episode") {
		t.Errorf("stderr %q", r.stderr)
	}
}

// TestCheckRoboLabActivityTree: with --activity a tree of activities, the
// map's activity: names which one the run files are checked against.
func TestCheckRoboLabActivityTree(t *testing.T) {
	tree := t.TempDir()
	for name, src := range map[string]string{
		"putting_the_apple_in_the_bowl": roboLabPath("putting_the_apple_in_the_bowl.bddl"),
		"cleaning_shoes":                filepath.Join(examples, "cleaning_shoes", "problem0.bddl"),
	} {
		if err := os.MkdirAll(filepath.Join(tree, name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tree, name, "problem0.bddl"), readFile(t, src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	text := strings.Replace(string(readFile(t, roboLabPath("names.yaml"))), "activity: putting_the_apple_in_the_bowl.bddl", "activity: putting_the_apple_in_the_bowl", 1)
	m := filepath.Join(t.TempDir(), "names.yaml")
	if err := os.WriteFile(m, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "--format", "json", "--activity", tree, "--map", m, "--episode", roboLabPath("run_0.hdf5")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 1)
	lines := jsonResults(t, r.stdout)
	if len(lines) != 4 || lines[0]["success"] != true || lines[0]["activity"] != "putting_the_apple_in_the_bowl" {
		t.Errorf("lines %v\nstderr %s", lines, r.stderr)
	}
}
