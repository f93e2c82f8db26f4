package checkrun

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// episodes copies the example episode n times into a directory and
// returns them as check finds them.
func episodes(t *testing.T, n int) []batch.Episode {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "activities", "examples", "tidying_the_living_room", "episodes", "poses.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for i := range n {
		if err := os.WriteFile(filepath.Join(dir, string(rune('a'+i))+".jsonl"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ins, err := batch.Expand([]string{dir}, batch.ExpandOptions{What: "episodes", Match: batch.IsEpisodeFile})
	if err != nil {
		t.Fatal(err)
	}
	return batch.Episodes(context.Background(), ins)
}

func checker() *batch.Checker {
	return &batch.Checker{Resolver: batch.NewResolver(kb.Default(), predicates.Options{}), Options: episode.CheckOptions{Hold: 1, PerStep: true}}
}

// TestRunResumes: a run writes each result to stdout in order and to
// the results file, stamped with its shard and key; a second run on the
// same file checks nothing again and reports the earlier results.
func TestRunResumes(t *testing.T) {
	t.Parallel()
	eps := episodes(t, 3)
	out := filepath.Join(t.TempDir(), "results.jsonl")
	var recorded []int
	run := func() (string, string, Ending) {
		var stdout, stderr bytes.Buffer
		r, err := New(Options{Format: "json", Out: out, Jobs: 2, NoProgress: true, Stdout: &stdout, Stderr: &stderr,
			AfterResult: func(n int) { recorded = append(recorded, n) }}, checker(), eps)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		fresh, err := r.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		e, err := r.Report(fresh, false)
		if err != nil {
			t.Fatal(err)
		}
		return stdout.String(), stderr.String(), e
	}
	stdout, _, e := run()
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	if len(lines) != 3 || len(recorded) != 3 {
		t.Fatalf("first run: %d lines, %d recorded:\n%s", len(lines), len(recorded), stdout)
	}
	for i, l := range lines {
		var rec struct {
			Episode string `json:"episode"`
			PerStep []any  `json:"per_step"`
			Shard   string `json:"shard"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Episode != eps[i].Path || rec.PerStep != nil || rec.Shard != "" {
			t.Errorf("stdout line %d: %s (%v): want episode %s without per-step values or results-file fields", i, l, err, eps[i].Path)
		}
	}
	file, _ := os.ReadFile(out)
	if n := strings.Count(string(file), `"shard":"0/1","shard_inputs":3`); n != 3 {
		t.Errorf("results file: %d stamped lines, want 3:\n%s", n, file)
	}
	stdout2, stderr2, e2 := run()
	if stdout2 != "" || !strings.Contains(stderr2, "skipping 3 episodes already in") || e2 != e {
		t.Errorf("second run: stdout %q, stderr %q, ending %v (first %v)", stdout2, stderr2, e2, e)
	}
}

// TestReportText: several episodes get a line each, marked by Mark, and
// the summary; the ending follows the results.
func TestReportText(t *testing.T) {
	t.Parallel()
	eps := episodes(t, 2)
	var stdout, stderr bytes.Buffer
	r, err := New(Options{Format: "text", Jobs: 1, NoProgress: true, Stdout: &stdout, Stderr: &stderr,
		Mark: func(v, mark string) string { return "<" + v + ">" }}, checker(), eps)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	e, err := r.Report(fresh, false)
	if err != nil {
		t.Fatal(err)
	}
	want := Clean
	for _, o := range fresh {
		if !o.Success {
			want = Failed
		}
		if !strings.Contains(stdout.String(), "<"+o.Verdict()+"> "+o.Episode+": ") {
			t.Errorf("no marked line for %s:\n%s", o.Episode, stdout.String())
		}
	}
	if e != want || len(fresh) != 2 {
		t.Errorf("Report = %v for %d results, want %v", e, len(fresh), want)
	}
	if e, _ := r.Report(fresh, true); e != Interrupted || !strings.Contains(stderr.String(), "bddl: interrupted: 2 of 2 episodes checked") {
		t.Errorf("interrupted Report = %v, stderr %q", e, stderr.String())
	}
}
