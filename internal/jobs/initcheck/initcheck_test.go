package initcheck

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
)

const (
	tinyTask = "../../../episode/omnigibson/testdata/tiny"
	examples = "../../../activities/examples"
)

// readProblem reads a definition as check --init does, counting reads.
func readProblem(t *testing.T, reads map[string]int) func(string) (*bddl.Problem, error) {
	return func(path string) (*bddl.Problem, error) {
		reads[path]++
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		p, diags := bddl.Options{Mode: bddl.Reference}.ParseProblem(path, src)
		if diags.HasErrors() {
			t.Fatalf("%s: %v", path, diags)
		}
		return p, nil
	}
}

// TestJobsTask: an OmniGibson task folder gives one job per instance,
// its definition read once, and each job's verdict names its literals,
// some of them approximate (the fixture's boxes are estimated).
func TestJobsTask(t *testing.T) {
	t.Parallel()
	reads := map[string]int{}
	defs := Definitions{
		TaskDefinition: func(*omnigibson.Task) (string, error) { return filepath.Join(tinyTask, "problem0.bddl"), nil },
		Read:           readProblem(t, reads),
	}
	jobs, err := Jobs([]string{tinyTask, tinyTask}, kb.Default(), defs)
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 || len(reads) != 1 || reads[filepath.Join(tinyTask, "problem0.bddl")] != 1 {
		t.Fatalf("Jobs: %d jobs, definitions read %v; want 2 jobs and one read", len(jobs), reads)
	}
	j := jobs[0]
	if j.Rel != "tiny_task_put_apple_instances/tiny_task_put_apple_0_1_template-tro_state.json" || j.conv == nil || j.template {
		t.Errorf("job: rel %q, converter %v, template %v", j.Rel, j.conv != nil, j.template)
	}
	r := j.Eval()
	if r.Record != "init" || r.Error != "" || r.Literals == 0 || r.Approximate == 0 || r.NotTrue != len(r.Failing) || r.NotTrue != r.False+r.Unknown {
		t.Errorf("Eval: %+v", r)
	}
}

// TestJobsEpisode: an episode file is read against --activity's
// definition, or the one its header names beside it; a definition that
// is not a file is an error naming the episode.
func TestJobsEpisode(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join(examples, "tidying_the_living_room", "episodes", "poses.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	ep := filepath.Join(dir, "poses.jsonl")
	if err := os.WriteFile(ep, src, 0o644); err != nil {
		t.Fatal(err)
	}
	def := filepath.Join(examples, "tidying_the_living_room", "problem0.bddl")
	if _, err := Jobs([]string{ep}, kb.Default(), Definitions{Read: readProblem(t, map[string]int{})}); err == nil || !strings.Contains(err.Error(), "is not a file: give --activity FILE") {
		t.Errorf("Jobs without its definition: %v", err)
	}
	// The copy bddl writes beside its episodes is found by the name.
	defSrc, _ := os.ReadFile(def)
	if err := os.WriteFile(filepath.Join(dir, batch.DefinitionFile("tidying_the_living_room")), defSrc, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, activity := range []string{def, ""} {
		jobs, err := Jobs([]string{dir}, kb.Default(), Definitions{Activity: activity, Read: readProblem(t, map[string]int{})})
		if err != nil {
			t.Fatalf("Jobs(--activity %q): %v", activity, err)
		}
		if len(jobs) != 1 || jobs[0].Rel != "poses.jsonl" || jobs[0].conv != nil {
			t.Fatalf("Jobs(--activity %q): %+v", activity, jobs)
		}
		if r := jobs[0].Eval(); r.Error != "" || r.Literals == 0 || r.Activity != "tidying_the_living_room" {
			t.Errorf("Eval(--activity %q): %+v", activity, r)
		}
	}
}

// TestWriteResult: the line of each kind of verdict, and the JSON record.
func TestWriteResult(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, format string
		r            Result
		want         string
	}{
		{"error", "text", Result{Episode: "e", Init: "unknown", Error: "bad"}, "ERROR  e: bad\n"},
		{"true", "text", Result{Episode: "e", Init: "true", Literals: 3}, "TRUE   e: 3 literals\n"},
		{"false", "text", Result{Episode: "e", Init: "false", Literals: 3, Failing: []Failure{
			{Literal: "(ontop a b)", Value: "false", Detail: "gap 0.2", Approximate: true}, {Literal: "(open c)", Value: "unknown"}}},
			"FALSE  e: 2 of 3 literals not true: (ontop a b) is false (approximate) [gap 0.2]; (open c) is unknown\n"},
		{"json", "json", Result{Record: "init", Episode: "e", Activity: "a", Init: "true", Literals: 1},
			`{"record":"init","episode":"e","activity":"a","init":"true","literals":1,"false":0,"unknown":0,"not_true":0,"approximate":0}` + "\n"},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		if err := WriteResult(&b, tt.format, &tt.r); err != nil || b.String() != tt.want {
			t.Errorf("%s: WriteResult = %q, %v; want %q", tt.name, b.String(), err, tt.want)
		}
	}
}

// TestWriteSummary: a row per activity, one for all, and the share from
// earlier runs.
func TestWriteSummary(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	WriteSummary(&b, []Result{
		{Activity: "b", Init: "true"},
		{Activity: "a", Init: "false", False: 2, Approximate: 1},
		{Activity: "a", Init: "unknown", Unknown: 1},
		{Activity: "a", Init: "unknown", Error: "x"},
	}, 1)
	want := `ACTIVITY  STATES  INIT TRUE  FALSE  UNKNOWN  RATE    LITERALS FALSE  UNKNOWN  APPROXIMATE  ERRORS
a         3       0          1      1        0.0%    2               1        1            1
b         1       1          0      0        100.0%  0               0        0            0
all       4       1          1      1        25.0%   2               1        1            1
(1 of the 4 states from earlier runs)
`
	if b.String() != want {
		t.Errorf("WriteSummary:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestResume: states with a verdict in the results file are previous,
// those that ended in an error are done again, the results file itself
// is never a state.
func TestResume(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := func(n string) string { return filepath.Join(dir, n) }
	line := func(r Result) []byte { b, _ := json.Marshal(r); return b }
	recs := []batch.Record{
		{Key: batch.PathKey(path("done")), Line: line(Result{Record: "init", Episode: path("done"), Init: "false"})},
		{Key: batch.PathKey(path("err")), Line: line(Result{Record: "init", Episode: path("err"), Init: "unknown", Error: "x"})},
		{Key: batch.PathKey(path("other")), Line: line(Result{Record: "check", Episode: path("other")})},
	}
	var jobs []*Job
	for _, n := range []string{"done", "err", "other", "new", "out.jsonl"} {
		jobs = append(jobs, &Job{Path: path(n)})
	}
	todo, previous := Resume(recs, batch.PathKey(path("out.jsonl")), jobs)
	var got []string
	for _, j := range todo {
		got = append(got, filepath.Base(j.Path))
	}
	if strings.Join(got, " ") != "err other new" || len(previous) != 1 || previous[0].Init != "false" {
		t.Errorf("Resume: todo %v, previous %+v", got, previous)
	}
}

// TestRelTo: a state's shard key is its path under a directory argument,
// else its file name.
func TestRelTo(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct{ arg, path, want string }{
		{dir, filepath.Join(dir, "a", "b.json"), "a/b.json"},
		{filepath.Join(dir, "b.json"), filepath.Join(dir, "b.json"), "b.json"},
		{filepath.Join(dir, "*.json"), filepath.Join(dir, "c.json"), "c.json"},
	}
	for _, tt := range tests {
		if got := relTo(tt.arg, tt.path); got != tt.want {
			t.Errorf("relTo(%q, %q) = %q, want %q", tt.arg, tt.path, got, tt.want)
		}
	}
}
