package samplerun

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/sampler"
)

func TestWriteText(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		r    sampler.Record
		want string
	}{
		{"ok", sampler.Record{Activity: "a", File: "out/a/a-1.jsonl", Status: "ok", MS: 12.34}, "ok    a  out/a/a-1.jsonl  12.3 ms\n"},
		{"shrunk", sampler.Record{Activity: "a", File: "f", Status: "ok", MS: 1, Shrunk: []sampler.Shrink{{Object: "mug_1", Factor: 0.8}, {Object: "box_1", Factor: 0.55}}},
			"ok    a  f  1.0 ms\n      shrunk to fit: mug_1 ×0.8, box_1 ×0.55\n"},
		{"failed", sampler.Record{Activity: "a", Index: 3, Status: "failed", Reason: &sampler.Failure{Kind: sampler.NoScene, Message: "no scene"}},
			"FAIL  a  #3  " + (&sampler.Failure{Kind: sampler.NoScene, Message: "no scene"}).Error() + "\n"},
	} {
		var buf bytes.Buffer
		if err := WriteText(&buf, tc.r); err != nil || buf.String() != tc.want {
			t.Errorf("%s: WriteText = %q, %v; want %q", tc.name, buf.String(), err, tc.want)
		}
	}
}

// TestRun samples an embedded example twice, in order, and writes its
// definition's copy beside the episodes; a job without a copy writes none.
func TestRun(t *testing.T) {
	base := kb.Default()
	lib := activities.Examples()
	names := lib.Names()
	if len(names) == 0 {
		t.Skip("no embedded examples")
	}
	act, _ := lib.Find(names[0])
	smp := sampler.New(base, predicates.Options{})
	jobs := []Job{{Job: sampler.Job{Name: act.Name, Problem: act.Problem}, Key: act.Name, Source: []byte("(define)\n")}}
	AssignScenes(jobs, smp, base, "", nil, 1)
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	done, failed, err := Run(context.Background(), smp, jobs, Options{Count: 2, Write: sampler.WriteOptions{Seed: 1, Out: out}, Out: &stdout, Err: &stderr})
	if err != nil || done != 2 {
		t.Fatalf("Run = %d done, %d failed, %v", done, failed, err)
	}
	if lines := strings.Count(stdout.String(), "\n"); lines < 2 {
		t.Errorf("%d lines of text, want one per configuration at least:\n%s", lines, stdout.String())
	}
	copyPath := filepath.Join(out, act.Name, act.Name+".bddl")
	if failed < 2 {
		if b, err := os.ReadFile(copyPath); err != nil || string(b) != "(define)\n" {
			t.Errorf("definition copy %s: %q, %v", copyPath, b, err)
		}
	}
}
