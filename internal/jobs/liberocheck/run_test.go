package liberocheck

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/libero"
)

// episodes samples two episodes of the libero package's test definition.
func episodes(t *testing.T) []batch.Input {
	t.Helper()
	def := filepath.Join("..", "..", "..", "libero", "testdata", "in_placements.bddl")
	src, err := os.ReadFile(def)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var ins []batch.Input
	_, _, failed, err := libero.SampleDefinitions([]libero.Definition{{Path: def, Src: src}}, libero.SampleFiles{Out: dir, Seed: 1, Count: 2},
		func(r libero.SampleRecord, _ error) error {
			ins = append(ins, batch.Input{Path: r.File, Arg: dir, Rel: filepath.Base(r.File)})
			return nil
		})
	if err != nil || failed || len(ins) != 2 {
		t.Fatalf("sampling: %d episodes, failed %v, %v", len(ins), failed, err)
	}
	return append(ins, batch.Input{Path: def, Arg: def, Rel: "in_placements.bddl"}) // not an episode: skipped
}

func TestRunBatchAndResume(t *testing.T) {
	ins := episodes(t)
	resultsPath := filepath.Join(t.TempDir(), "results.jsonl")
	results, err := batch.OpenResults(resultsPath, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	defer results.Close()
	var out, errw bytes.Buffer
	o := Options{Results: results, ResultsName: "results.jsonl", Out: &out, Err: &errw}
	if _, err := Run(ins, o); err != nil {
		t.Fatal(err)
	}
	// Two episodes: one line each (FAIL: the goal does not hold on a
	// sampled :init) and the table of batches.
	lines := strings.Split(out.String(), "\n")
	for i, in := range ins[:2] {
		if !strings.Contains(lines[i], " "+in.Path+": ") {
			t.Errorf("line %d = %q, want the episode %s", i, lines[i], in.Path)
		}
	}
	if len(lines) < 4 || errw.Len() != 0 {
		t.Errorf("output:\n%s\nstderr:\n%s", out.String(), errw.String())
	}
	results.Close()
	reopened, err := batch.OpenResults(resultsPath, func(string) {})
	if err != nil {
		t.Fatal(err)
	}
	defer reopened.Close()
	out.Reset()
	errw.Reset()
	o.Results = reopened
	if _, err := Run(ins, o); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errw.String(), "results.jsonl: 2 of 2 episodes already checked; checking 0") {
		t.Errorf("resume note: %q", errw.String())
	}
}

func TestRunJSONAndShard(t *testing.T) {
	ins := episodes(t)
	var out, errw bytes.Buffer
	enc := json.NewEncoder(&out)
	shard, err := batch.ParseShard("1/2")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ins, Options{JSON: true, Encode: enc.Encode, Shard: shard, Out: &out, Err: &errw}); err != nil {
		t.Fatal(err)
	}
	all, _ := batch.ParseShard("")
	var full bytes.Buffer
	if _, err := Run(ins, Options{JSON: true, Encode: json.NewEncoder(&full).Encode, Shard: all, Out: &full, Err: &errw}); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(full.String(), "\n"); n != 2 {
		t.Errorf("unsharded: %d records, want 2", n)
	}
	if n := strings.Count(out.String(), "\n"); n > 2 {
		t.Errorf("shard 1/2: %d records", n)
	}
	for _, line := range strings.Split(strings.TrimSpace(full.String()), "\n") {
		var r struct {
			Activity string `json:"activity"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil || r.Activity != "in_placements" {
			t.Errorf("record %s: %v", line, err)
		}
	}
	if got := ShardName(all); got != "0/1" {
		t.Errorf("ShardName(all) = %q", got)
	}
	if got := ShardName(shard); got != "1/2" {
		t.Errorf("ShardName(1/2) = %q", got)
	}
}

// TestInitJobs: each LIBERO episode is a job evaluating itself; an
// unreadable one is an "unknown" record with its error, not a failure
// of the run.
func TestInitJobs(t *testing.T) {
	t.Parallel()
	jobs := InitJobs([]batch.Input{{Path: "missing.jsonl", Rel: "missing.jsonl"}}, libero.FileCheck{})
	if len(jobs) != 1 || jobs[0].Rel != "missing.jsonl" || jobs[0].Own == nil {
		t.Fatalf("InitJobs = %+v", jobs)
	}
	if r := jobs[0].Own(); r.Record != "init" || r.Init != "unknown" || r.Error == "" || r.Episode != "missing.jsonl" {
		t.Errorf("Own() = %+v, want an unknown init record with an error", r)
	}
}

// TestEpisodes: LIBERO episodes alone are this path's; none, or nothing
// to expand, is the BEHAVIOR-1K path's; both together are an error.
func TestEpisodes(t *testing.T) {
	t.Parallel()
	lib := episodes(t)
	if len(lib) == 0 {
		t.Skip("no LIBERO episodes")
	}
	if ins, ok, err := Episodes([]string{lib[0].Path}); !ok || err != nil || len(ins) != 1 {
		t.Errorf("Episodes(LIBERO) = %v, %v, %v", ins, ok, err)
	}
	other := filepath.Join(t.TempDir(), "b1k.jsonl")
	if err := os.WriteFile(other, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok, err := Episodes([]string{other}); ok || err != nil {
		t.Errorf("Episodes(BEHAVIOR-1K) = %v, %v", ok, err)
	}
	if _, ok, err := Episodes([]string{lib[0].Path, other}); !ok || err == nil || !strings.Contains(err.Error(), "cannot be checked in one run") {
		t.Errorf("Episodes(both) = %v, %v", ok, err)
	}
}
