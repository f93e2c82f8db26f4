package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/episode"
)

var updateCheck = flag.Bool("update-check", false, "rewrite testdata/check/*.golden")

// examples is the tree of the committed example episodes.
const examples = "../../activities/examples"

func examplePath(activity, file string) string {
	return filepath.Join(examples, activity, "episodes", file)
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "check", name+".golden")
	if *updateCheck {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update-check)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", path, diff)
	}
}

// jsonResults parses JSON Lines of results.
func jsonResults(t *testing.T, text string) []map[string]any {
	t.Helper()
	var out []map[string]any
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var m map[string]any
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("not a JSON line: %v\n%s", err, sc.Text())
		}
		out = append(out, m)
	}
	return out
}

// TestCheckExamples checks every committed example episode and pins
// what each is an example of.
func TestCheckExamples(t *testing.T) {
	args := []string{"check", "--format", "json", "--episode", examples}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	type outcome struct {
		success bool
		goal    string
		init    string
	}
	want := map[string]outcome{
		"baking_a_tray_of_cookies/episodes/success.jsonl":            {true, "true", "true"},
		"cleaning_shoes/episodes/success.jsonl":                      {true, "true", "true"},
		"storing_groceries_and_leftovers/episodes/symbolic.jsonl.gz": {true, "true", "true"},
		"tidying_the_living_room/episodes/poses.jsonl":               {true, "true", "unknown"},
		"slicing_apples_for_a_snack/episodes/unfinished.jsonl":       {false, "false", "true"},
		"doing_the_laundry/episodes/missing-data.jsonl":              {false, "unknown", "true"},
		"cleaning_the_kitchen_counter/episodes/from-init.jsonl":      {false, "false", "true"},
		// Recorded with transition rules off: it succeeds only with --transitions.
		"making_a_smoothie/episodes/rules-off.jsonl": {false, "false", "true"},
	}
	got := map[string]outcome{}
	for _, m := range jsonResults(t, r.stdout) {
		rel, _ := filepath.Rel(examples, m["episode"].(string))
		got[filepath.ToSlash(rel)] = outcome{m["success"].(bool), m["goal_at_end"].(string), m["init"].(string)}
		if m["error"] != nil {
			t.Errorf("%s: error %v", rel, m["error"])
		}
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(outcome{})); diff != "" {
		t.Errorf("example outcomes (-want +got):\n%s", diff)
	}
}

// TestCheckReports pins the text and JSON reports.
func TestCheckReports(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		code int
	}{
		{"success", []string{"--activity", "baking_a_tray_of_cookies", "--episode", examplePath("baking_a_tray_of_cookies", "success.jsonl")}, exitOK},
		{"unfinished", []string{"--episode", examplePath("slicing_apples_for_a_snack", "unfinished.jsonl")}, exitFindings},
		{"undetermined-per-step", []string{"--per-step", "--episode", examplePath("doing_the_laundry", "missing-data.jsonl")}, exitFindings},
		{"poses-json", []string{"--format", "json", "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}, exitOK},
		{"per-step-json", []string{"--format", "json", "--per-step", "--episode", examplePath("slicing_apples_for_a_snack", "unfinished.jsonl")}, exitFindings},
		{"hold-3", []string{"--hold", "3", "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}, exitFindings},
		{"hold-2", []string{"--hold", "2", "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}, exitOK},
		{"strict-negation", []string{"--negation", "strict", "--episode", examplePath("baking_a_tray_of_cookies", "success.jsonl")}, exitOK},
		{"batch", []string{"--episode", examples}, exitFindings},
		{"bad-step", []string{"--episode", "testdata/check/bad-step.jsonl"}, exitFindings},
		{"bad-step-lenient", []string{"--lenient", "--episode", "testdata/check/bad-step.jsonl"}, exitFindings},
		{"wrong-activity", []string{"--activity", "tidying_the_living_room", "--episode", examplePath("slicing_apples_for_a_snack", "unfinished.jsonl")}, exitFindings},
	} {
		t.Run(c.name, func(t *testing.T) {
			args := append([]string{"check"}, c.args...)
			r := runBDDL(t, args...)
			r.wantCode(t, args, c.code)
			checkGolden(t, c.name, "$ bddl "+strings.Join(args, " ")+"\n"+r.stdout+"-- stderr --\n"+r.stderr)
		})
	}
}

// TestCheckHold pins --hold: the goal of the poses example holds at its
// last two steps, 6 and 7.
func TestCheckHold(t *testing.T) {
	for _, c := range []struct {
		hold    string
		success bool
		first   any
	}{{"1", true, 6.0}, {"2", true, 7.0}, {"3", false, nil}} {
		args := []string{"check", "--format", "json", "--hold", c.hold, "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}
		r := runBDDL(t, args...)
		res := jsonResults(t, r.stdout)
		if len(res) != 1 || res[0]["success"] != c.success || res[0]["first_success_step"] != c.first {
			t.Errorf("--hold %s: %v", c.hold, res)
		}
	}
}

// TestCheckResultFields checks the RoboLab-compatible names and ours.
func TestCheckResultFields(t *testing.T) {
	args := []string{"check", "--format", "json", "--episode", examplePath("baking_a_tray_of_cookies", "success.jsonl")}
	res := jsonResults(t, runBDDL(t, args...).stdout)
	for _, k := range []string{"activity", "episode", "success", "score", "reason", "episode_step", "duration",
		"challenge_score", "first_success_step", "init_ok", "unknown_count", "approximate_count", "holds_at_end"} {
		if _, ok := res[0][k]; !ok {
			t.Errorf("result has no %q field: %v", k, res[0])
		}
	}
	if res[0]["duration"] != 5.0 || res[0]["episode_step"] != 10.0 {
		t.Errorf("duration %v, episode_step %v; want 5 and 10", res[0]["duration"], res[0]["episode_step"])
	}
}

// copyEpisodes copies the example episodes into a temporary directory.
func copyEpisodes(t *testing.T) (string, []string) {
	t.Helper()
	dir := t.TempDir()
	files, _ := filepath.Glob(filepath.Join(examples, "*", "episodes", "*"))
	var out []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.Base(filepath.Dir(filepath.Dir(f)))+"-"+filepath.Base(f))
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, dst)
	}
	return dir, out
}

func resultLines(t *testing.T, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		t.Fatalf("%s does not end with a complete line", path)
	}
	return jsonResults(t, string(data))
}

// TestCheckResume runs a batch in two parts: the second run skips what
// the first recorded and appends the rest.
func TestCheckResume(t *testing.T) {
	dir, files := copyEpisodes(t)
	out := filepath.Join(dir, "results.jsonl")
	first := []string{"check", "--out", out, "--episode", files[0], "--episode", files[1]}
	runBDDL(t, first...)
	if n := len(resultLines(t, out)); n != 2 {
		t.Fatalf("after the first run: %d lines, want 2", n)
	}
	second := []string{"check", "--out", out, "--episode", filepath.Join(dir, "*.jsonl*")}
	r := runBDDL(t, second...)
	if !strings.Contains(r.stderr, "skipping 2 episodes already in") {
		t.Errorf("stderr does not say what was skipped:\n%s", r.stderr)
	}
	lines := resultLines(t, out)
	if len(lines) != len(files) {
		t.Fatalf("after resuming: %d lines, want %d", len(lines), len(files))
	}
	seen := map[string]bool{}
	for _, l := range lines {
		ep := l["episode"].(string)
		if seen[ep] {
			t.Errorf("%s recorded twice", ep)
		}
		seen[ep] = true
	}
	if !strings.Contains(r.stdout, "all ") || !strings.Contains(r.stdout, fmt.Sprintf("(2 of the %d episodes from earlier runs)", len(files))) {
		t.Errorf("the summary does not cover both runs:\n%s", r.stdout)
	}
}

// TestCheckPartialLine resumes from a file whose last line a killed run
// left half-written: the partial line is dropped, the file stays valid.
func TestCheckPartialLine(t *testing.T) {
	dir, files := copyEpisodes(t)
	out := filepath.Join(dir, "results.jsonl")
	runBDDL(t, "check", "--out", out, "--episode", files[0])
	data, _ := os.ReadFile(out)
	partial := append(data, []byte(`{"activity":"x","episode":"`+files[1]+`","succ`)...)
	if err := os.WriteFile(out, partial, 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBDDL(t, "check", "--out", out, "--episode", files[0], "--episode", files[1])
	if !strings.Contains(r.stderr, "dropped a partial last line") {
		t.Errorf("stderr does not mention the partial line:\n%s", r.stderr)
	}
	if lines := resultLines(t, out); len(lines) != 2 {
		t.Errorf("%d result lines, want 2", len(lines))
	}
}

// TestCheckInterrupt sends SIGINT during a batch: the run stops with
// exit 130, the results file holds only complete lines, and running the
// same command again completes it without duplicates.
func TestCheckInterrupt(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := range 6 {
		path := filepath.Join(dir, "ep"+string(rune('a'+i))+".jsonl")
		r := runBDDL(t, "episode", "synth", "tidying_the_living_room", "--kind", "poses", "--steps", "40000", "--seed", string(rune('1'+i)), "-o", path)
		if r.code != 0 {
			t.Fatalf("synth: %s", r.stderr)
		}
		files = append(files, path)
	}
	out := filepath.Join(dir, "results.jsonl")
	args := []string{"check", "--jobs", "1", "--out", out, "--episode", dir}
	testAfterResult = func(n int) {
		if n == 1 {
			_ = signalSelf(syscall.SIGINT)
		}
	}
	r := runBDDL(t, args...)
	testAfterResult = nil
	r.wantCode(t, args, exitInterrupted)
	if !strings.Contains(r.stderr, "interrupted") {
		t.Errorf("stderr does not report the interruption:\n%s", r.stderr)
	}
	lines := resultLines(t, out)
	if len(lines) < 1 || len(lines) >= len(files) {
		t.Fatalf("after the interrupt: %d lines, want between 1 and %d", len(lines), len(files)-1)
	}
	r = runBDDL(t, args...)
	if r.code == exitInterrupted || r.code == exitMisuse {
		t.Fatalf("resumed run exited %d: %s", r.code, r.stderr)
	}
	lines = resultLines(t, out)
	if len(lines) != len(files) {
		t.Errorf("after resuming: %d lines, want %d", len(lines), len(files))
	}
}

// TestCheckPlot draws the timeline as SVG and PNG.
func TestCheckPlot(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ file, magic string }{{"t.svg", "<?xml"}, {"t.png", "\x89PNG"}} {
		path := filepath.Join(dir, c.file)
		args := []string{"check", "--plot", path, "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}
		runBDDL(t, args...).wantCode(t, args, exitOK)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(data, []byte(c.magic)) {
			t.Errorf("%s does not start with %q", c.file, c.magic)
		}
	}
	args := []string{"check", "--plot", filepath.Join(dir, "t.gif"), "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}
	runBDDL(t, args...).wantCode(t, args, exitMisuse)
}

// TestCheckStats reports decoding and evaluation time.
func TestCheckStats(t *testing.T) {
	args := []string{"check", "--stats", "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if !strings.Contains(r.stdout, "decoding") || !strings.Contains(r.stderr, "steps/s") {
		t.Errorf("no stats:\n%s\n%s", r.stdout, r.stderr)
	}
}

// TestCheckLibrary finds an activity by name in an --activities tree.
func TestCheckLibrary(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(examples, "tidying_the_living_room", "problem0.bddl"))
	if err != nil {
		t.Fatal(err)
	}
	src = bytes.Replace(src, []byte("tidying_the_living_room-0"), []byte("tidy_up-0"), 1)
	if err := os.MkdirAll(filepath.Join(dir, "defs", "tidy_up"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "defs", "tidy_up", "problem0.bddl"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	ep, err := os.ReadFile(examplePath("tidying_the_living_room", "poses.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ep = bytes.Replace(ep, []byte(`"activity":"tidying_the_living_room"`), []byte(`"activity":"tidy_up"`), 1)
	path := filepath.Join(dir, "ep.jsonl")
	if err := os.WriteFile(path, ep, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "--activities", filepath.Join(dir, "defs"), "--episode", path}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	args = []string{"check", "--episode", path}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if !strings.Contains(r.stdout, `activity "tidy_up" not found`) {
		t.Errorf("missing activity not reported:\n%s", r.stdout)
	}
}

// TestCheckMisuse: usage problems exit 2.
func TestCheckMisuse(t *testing.T) {
	ep := examplePath("tidying_the_living_room", "poses.jsonl")
	for _, args := range [][]string{
		{"check"},
		{"check", "--episode", "no/such/file.jsonl"},
		{"check", "--episode", "no/such/*.jsonl"},
		{"check", "--hold", "0", "--episode", ep},
		{"check", "--negation", "sloppy", "--episode", ep},
		{"check", "--touch-tolerance", "-1", "--episode", ep},
		{"check", "--format", "yaml", "--episode", ep},
		{"check", "--activity", "no_such_activity", "--episode", ep},
		{"check", "--activities", "no/such/dir", "--episode", ep},
	} {
		runBDDL(t, args...).wantCode(t, args, exitMisuse)
	}
}

// TestEpisodeFromInit writes the :init episode of an example and checks
// it: :init holds at its one step.
func TestEpisodeFromInit(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"init.jsonl", "init.jsonl.gz"} {
		path := filepath.Join(dir, name)
		args := []string{"episode", "from-init", "storing_groceries_and_leftovers", "-o", path}
		runBDDL(t, args...).wantCode(t, args, exitOK)
		args = []string{"check", "--format", "json", "--episode", path}
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitFindings)
		res := jsonResults(t, r.stdout)
		if len(res) != 1 || res[0]["init_ok"] != true || res[0]["steps"] != 1.0 || res[0]["error"] != nil {
			t.Errorf("%s: %v", name, res)
		}
	}
	r := runBDDL(t, "episode", "from-init", "tidying_the_living_room")
	if !strings.HasPrefix(r.stdout, `{"bddl_episode":1,"activity":"tidying_the_living_room","closed_world":true,"steps":1,`) {
		t.Errorf("from-init to stdout:\n%s", r.stdout)
	}
	args := []string{"episode", "from-init", "no_such_activity"}
	runBDDL(t, args...).wantCode(t, args, exitMisuse)
}

// TestEpisodeSchema prints the embedded schema.
func TestEpisodeSchema(t *testing.T) {
	r := runBDDL(t, "episode", "schema")
	if r.stdout != string(episode.Schema) || !json.Valid([]byte(r.stdout)) {
		t.Errorf("episode schema printed %d bytes, want the %d of episode.Schema", len(r.stdout), len(episode.Schema))
	}
}
