package omnigibson

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode"
)

// TestJobsWriteEpisodes: every state of a task is written to its own
// file in a directory, readable as a one-step episode, and the summary
// counts them.
func TestJobsWriteEpisodes(t *testing.T) {
	c, task := tinyConverter(t, Options{})
	jobs := []*Job{{Conv: c, Template: task.Template}}
	for _, in := range task.Instances {
		jobs = append(jobs, &Job{Conv: c, Instance: in, Template: task.Template})
	}
	out := filepath.Join(t.TempDir(), "out")
	if err := AssignOutputs(jobs, out); err != nil {
		t.Fatal(err)
	}
	var sum Summary
	for _, j := range jobs {
		if filepath.Dir(j.Out) != out || filepath.Base(j.Out) != Stem(j.Source())+".jsonl" {
			t.Errorf("%s written to %s", j.Source(), j.Out)
		}
		rep, err := j.Run()
		if err != nil {
			t.Fatal(err)
		}
		sum.Add(rep)
		r, err := episode.Open(j.Out)
		if err != nil {
			t.Fatal(err)
		}
		r.Close()
	}
	var b strings.Builder
	sum.WriteText(&b, len(jobs)+1, 1, out)
	want := "converted " + strconv.Itoa(len(jobs)) + " of " + strconv.Itoa(len(jobs)+1) + " states to " + out + "\n"
	if !strings.HasPrefix(b.String(), want) || !strings.HasSuffix(b.String(), "1 state failed (see above)\n") {
		t.Errorf("summary:\n%s\nwant first line %q", b.String(), want)
	}
}

func TestAssignOutputs(t *testing.T) {
	dir := t.TempDir()
	one := []*Job{{Template: "a/x_template.json"}}
	if err := AssignOutputs(one, filepath.Join(dir, "one.jsonl")); err != nil || one[0].Out != filepath.Join(dir, "one.jsonl") {
		t.Errorf("one state: %q, %v", one[0].Out, err)
	}
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	two := []*Job{{Template: "a/x_template.json"}, {Instance: "a/y-tro_state.json"}}
	if err := AssignOutputs(two, file); err == nil || !strings.Contains(err.Error(), "need a directory") {
		t.Errorf("two states to a file: %v", err)
	}
	dup := []*Job{{Instance: "a/y-tro_state.json"}, {Instance: "b/y-tro_state.json"}}
	if err := AssignOutputs(dup, filepath.Join(dir, "d")); err == nil || !strings.Contains(err.Error(), "would both be written") {
		t.Errorf("colliding names: %v", err)
	}
}
