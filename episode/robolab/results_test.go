package robolab

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode"
)

func TestFindResults(t *testing.T) {
	if got := FindResults("testdata/run_0.hdf5"); got != filepath.Join("testdata", ResultsFileName) {
		t.Errorf("beside the run file: %q", got)
	}
	// RoboLab's own layout: <output>/episode_results.jsonl and
	// <output>/<env_name>/run_0.hdf5.
	out := t.TempDir()
	env := filepath.Join(out, "AppleInBowlTask")
	if err := os.Mkdir(env, 0o755); err != nil {
		t.Fatal(err)
	}
	run := copyFile(t, "testdata/run_0.hdf5", env, -1)
	if got := FindResults(run); got != "" {
		t.Errorf("no results file: %q", got)
	}
	copyFile(t, "testdata/"+ResultsFileName, out, -1)
	if got := FindResults(run); got != filepath.Join(out, ResultsFileName) {
		t.Errorf("in the parent directory: %q", got)
	}
	// env_name from the file's attribute, not the directory.
	rs, err := LoadResults(FindResults(run))
	if err != nil {
		t.Fatal(err)
	}
	res := CheckRun(context.Background(), program(t), run, options(t, program(t), testMap(t)), episode.CheckOptions{}, rs)
	if res[3].Agreement == nil || *res[3].Agreement != OnlyBDDL {
		t.Errorf("verdicts not matched in RoboLab's layout: %+v", res[3])
	}
}

func TestResultsMatching(t *testing.T) {
	dir := t.TempDir()
	// No run field: the run comes from run_name; a later line replaces an
	// earlier one; demo_1 matched by its global episode number only.
	lines := `{"env_name": "AppleInBowlTask", "run_name": "AppleInBowlTask_0", "env_id": 0, "success": false}
{"env_name": "AppleInBowlTask", "run_name": "AppleInBowlTask_0", "env_id": 0, "success": true, "episode_step": 30}

{"env_name": "AppleInBowlTask", "episode": 1, "success": true, "episode_step": 7}
{"env_name": "OtherTask", "run": 0, "env_id": 2, "success": true}
`
	p := filepath.Join(dir, ResultsFileName)
	if err := os.WriteFile(p, []byte(lines), 0o644); err != nil {
		t.Fatal(err)
	}
	rs, err := LoadResults(p)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open("testdata/run_0.hdf5")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	d := r.Demos()
	if v := rs.Find(r, d[0]); v == nil || !*v.Success || *v.EpisodeStep != 30 || v.Line != 2 {
		t.Errorf("demo_0: %+v", v)
	}
	if v := rs.Find(r, d[1]); v == nil || *v.EpisodeStep != 7 {
		t.Errorf("demo_1 by episode number: %+v", v)
	}
	if v := rs.Find(r, d[2]); v != nil {
		t.Errorf("demo_2 matched another env's line: %+v", v)
	}
	// A single environment in the results stands for a file whose
	// env_name differs (its env_args unset, its directory renamed).
	single, err := ReadResults(strings.NewReader(`{"env_name": "Renamed", "run": 0, "env_id": 2, "success": true, "episode_step": 9}`+"\n"), "r.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if v := single.Find(r, d[2]); v == nil || *v.EpisodeStep != 9 {
		t.Errorf("single environment: %+v", v)
	}
	if v := rs.Find(r, d[2]); v != nil {
		t.Errorf("two environments in the results, none the file's: matched %+v", v)
	}
	var none *Results
	if none.Find(r, d[0]) != nil {
		t.Error("nil results found a verdict")
	}
}

func TestLoadResultsErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct{ text, want string }{
		{"{\"env_name\": \"x\", \"success\": true}\nnot json\n", ":2: not a RoboLab result line"},
		{"{\"success\": true}\n", ":1: not a RoboLab result line: env_name and success are required"},
		{"{\"env_name\": \"x\", \"success\": \"yes\"}\n", ":1: not a RoboLab result line"},
		{"{\"env_name\": \"x\", \"success\": true, \"reason\": \"" + strings.Repeat("a", maxResultLine) + "\"}\n", "longer than"},
	} {
		p := filepath.Join(dir, "r.jsonl")
		if err := os.WriteFile(p, []byte(tc.text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadResults(p); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
	if _, err := LoadResults(dir); err == nil {
		t.Error("a directory loaded as results")
	}
}

func TestWriteAgreement(t *testing.T) {
	var b bytes.Buffer
	if err := WriteAgreement(&b, checkFile(t, "testdata/run_0.hdf5", episode.CheckOptions{AtEnd: true})); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"RoboLab agreement over 4 episodes: 1 both succeed, 1 both fail, 1 only RoboLab, 1 only BDDL",
		"testdata/run_0.hdf5#demo_0  success at step 22         success at step 25  both succeed",
		"testdata/run_0.hdf5#demo_1  failure                    failure             both fail",
		"testdata/run_0.hdf5#demo_2  failure (held at step 22)  success at step 25  only RoboLab",
		"testdata/run_0.hdf5#demo_3  success at step 22         failure             only BDDL",
	}
	for _, w := range want {
		if !strings.Contains(b.String(), w) {
			t.Errorf("agreement report lacks %q:\n%s", w, b.String())
		}
	}
	b.Reset()
	_ = WriteAgreement(&b, nil)
	if !strings.Contains(b.String(), "no verdict found") {
		t.Errorf("no verdicts: %q", b.String())
	}
}

func FuzzLoadResults(f *testing.F) {
	seed, err := os.ReadFile("testdata/" + ResultsFileName)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := ReadResults(bytes.NewReader(data), "r.jsonl")
		if err == nil && rs == nil {
			t.Fatal("nil results without error")
		}
	})
}

// TestConvert writes each demo as an episode file that reads back to the
// same verdict; a bad demo writes nothing.
func TestConvert(t *testing.T) {
	prog := program(t)
	opts := options(t, prog, testMap(t))
	r, err := Open("testdata/run_0.hdf5")
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	dir := t.TempDir()
	direct := CheckRun(context.Background(), prog, "testdata/run_0.hdf5", opts, episode.CheckOptions{}, nil)
	for i, d := range r.Demos() {
		path, steps, err := Convert(r, d, opts, dir, i%2 == 1)
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Join(dir, "run_0_"+d.Name+map[bool]string{false: ".jsonl", true: ".jsonl.gz"}[i%2 == 1]); path != want {
			t.Errorf("path %q, want %q", path, want)
		}
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := episode.NewReader(f, path)
		if err != nil {
			t.Fatal(err)
		}
		if rd.Header().Steps != direct[i].Steps || steps != direct[i].Steps {
			t.Errorf("%s declares %d steps, want %d", path, rd.Header().Steps, direct[i].Steps)
		}
		res := episode.Check(context.Background(), prog, rd, episode.CheckOptions{})
		f.Close()
		if res.Success != direct[i].Success || !eqPtr(res.FirstSuccessStep, direct[i].FirstSuccessStep) || res.Reason != direct[i].Reason {
			t.Errorf("%s: %v %v %q; checked directly: %v %v %q", path, res.Success, deref(res.FirstSuccessStep), res.Reason,
				direct[i].Success, deref(direct[i].FirstSuccessStep), direct[i].Reason)
		}
	}
	// Replacing keeps the mode; a bad demo leaves no file.
	path := filepath.Join(dir, "run_0_demo_0.jsonl")
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Convert(r, r.Demos()[0], opts, dir, false); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v after replacing, want 0600", info.Mode().Perm())
	}
	bad, err := Open("testdata/bad.hdf5")
	if err != nil {
		t.Fatal(err)
	}
	defer bad.Close()
	if _, _, err := Convert(bad, bad.Demos()[0], opts, dir, false); err == nil || !strings.Contains(err.Error(), "step 7: position y is NaN") {
		t.Errorf("bad demo converted: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "bad") || strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// TestJudgeError: a demo we could not read is not compared with
// RoboLab's verdict, nor counted as a failure.
func TestJudgeError(t *testing.T) {
	ok, no := true, false
	var results []*Result
	for _, theirs := range []*bool{&ok, &no} {
		res := &Result{Result: &episode.Result{Episode: "run.hdf5#demo_0", Error: "load children failed", Reason: "x"}}
		res.Judge(&Verdict{Success: theirs})
		if res.Agreement == nil || *res.Agreement != NotCompared {
			t.Errorf("RoboLab %v, ours an error: agreement %v, want %s", *theirs, res.Agreement, NotCompared)
		}
		if got := res.Extra()["agreement"]; got == nil || *got.(*Agreement) != NotCompared {
			t.Errorf("JSON agreement = %v", got)
		}
		results = append(results, res)
	}
	var b bytes.Buffer
	if err := WriteAgreement(&b, results); err != nil {
		t.Fatal(err)
	}
	if want := "RoboLab agreement over 0 episodes: 0 both succeed, 0 both fail, 0 only RoboLab, 0 only BDDL; 2 not compared (BDDL error)"; !strings.Contains(b.String(), want) {
		t.Errorf("summary:\n%s\nwant %q", b.String(), want)
	}
}
