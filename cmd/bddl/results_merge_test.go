package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/fsutil"
)

// Item 11: shards 0–2 of 4 merge with shard 3 reported missing, and the
// exit status says the merge is incomplete; all four merge cleanly.
func TestMergeReportsMissingShard(t *testing.T) {
	dir, n := episodeTree(t)
	runs := filepath.Join(dir, "runs")
	const shards = 4
	var outs []string
	for i := range shards {
		out := filepath.Join(dir, fmt.Sprintf("shard-%d.jsonl", i))
		outs = append(outs, out)
		runBDDL(t, "check", "--shard", fmt.Sprintf("%d/%d", i, shards), "--out", out, "--episode", runs)
	}
	all := filepath.Join(dir, "all.jsonl")
	var nonEmpty []string
	for _, o := range outs[:3] {
		if _, err := os.Stat(o); err == nil {
			nonEmpty = append(nonEmpty, o)
		}
	}
	args := append(append([]string{"results", "merge"}, nonEmpty...), "-o", all)
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if len(resultLines(t, outs[3])) > 0 && !strings.Contains(r.stderr, "shard missing: no result of 3/4") {
		t.Errorf("no missing shard reported (%d episodes):\n%s", n, r.stderr)
	}
	// A shard whose file lost its last lines is reported short.
	var full string
	for _, o := range outs {
		if len(resultLines(t, o)) >= 2 {
			full = o
			break
		}
	}
	if full == "" {
		t.Skip("no shard of two episodes")
	}
	data, _ := os.ReadFile(full)
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	cut := filepath.Join(dir, "cut.jsonl")
	os.WriteFile(cut, []byte(strings.Join(lines[:len(lines)-1], "")), 0o644)
	args = []string{"results", "merge", cut}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if !strings.Contains(r.stderr, fmt.Sprintf("of its %d episodes", len(lines))) {
		t.Errorf("a short shard not reported:\n%s", r.stderr)
	}
}

// Item 11: a truncated line, a corrupt line and scores out of range are
// reported dropped (never "kept as is"), and the merge fails.
func TestMergeDropsInvalidLines(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "r.jsonl")
	os.WriteFile(in, []byte(`{"episode":"a","activity":"x","success":true,"score":1,"challenge_score":1}
not json
{"episode":"b","activity":"x","success":false,"score":1e308,"challenge_score":0}
{"episode":"c","activity":"x","success":false,"score":-5,"challenge_score":0}
{"episode":"d","activity":"x","success":false,"score":0,"challenge_score":99}
{"episode":"e","activity":"x","success":true,"sco`), 0o644)
	args := []string{"results", "merge", in}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	for _, want := range []string{"r.jsonl:2: not a result line: dropped", "score 1e+308 is outside [0, 1]", "score -5 is outside",
		"challenge_score 99 is outside", "r.jsonl:6: a partial last line", "5 lines dropped"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "kept as is") {
		t.Errorf("a dropped line said kept:\n%s", r.stderr)
	}
	if strings.Count(r.stdout, `"episode"`) != 1 {
		t.Errorf("merged lines:\n%s", r.stdout)
	}
}

// Item 10: merging onto a file a check is appending to (it holds the
// lock) is refused, and the file is left alone.
func TestMergeTakesOutputLock(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.jsonl")
	out := filepath.Join(dir, "out.jsonl")
	os.WriteFile(in, []byte(`{"episode":"a","activity":"x","success":true,"score":1,"challenge_score":1}`+"\n"), 0o644)
	os.WriteFile(out, []byte("being written\n"), 0o644)
	f, err := os.OpenFile(out, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := fsutil.Lock(f); err != nil {
		t.Skip("no locks:", err)
	}
	args := []string{"results", "merge", in, "-o", out}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
	if !strings.Contains(r.stderr, "another run is writing to this file (bddl check -o)") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if data, _ := os.ReadFile(out); string(data) != "being written\n" {
		t.Errorf("the locked file was replaced: %q", data)
	}
	args = []string{"results", "merge", in, "-o", "/dev/null"}
	runBDDL(t, args...).wantCode(t, args, exitMisuse)
}

// Item 12: a run resumed from another working directory, with the
// episodes spelled differently, finds them in the results file (the line
// records the cleaned absolute path) and checks none again; merging the
// file then counts each episode once.
func TestResumeFromAnotherDirectory(t *testing.T) {
	acts, err := filepath.Abs(examples)
	if err != nil {
		t.Fatal(err)
	}
	dir, n := episodeTree(t)
	t.Chdir(dir)
	runBDDL(t, "check", "--activity", acts, "--out", "out.jsonl", "--episode", "runs")
	if got := len(resultLines(t, filepath.Join(dir, "out.jsonl"))); got != n {
		t.Fatalf("%d results, want %d", got, n)
	}
	t.Chdir(filepath.Join(dir, "runs"))
	r := runBDDL(t, "check", "--activity", acts, "--out", "../out.jsonl", "--episode", ".")
	if !strings.Contains(r.stderr, fmt.Sprintf("skipping %d episodes already in", n)) {
		t.Errorf("resume from another directory:\n%s", r.stderr)
	}
	if got := len(resultLines(t, filepath.Join(dir, "out.jsonl"))); got != n {
		t.Errorf("%d results after resuming, want %d", got, n)
	}
	args := []string{"results", "merge", "../out.jsonl", "../out.jsonl"}
	r = runBDDL(t, args...)
	if !strings.Contains(r.stderr, fmt.Sprintf("into %d episodes", n)) {
		t.Errorf("merge:\n%s", r.stderr)
	}
}
