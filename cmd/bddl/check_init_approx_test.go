package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestInitApproximateSurvivesConversion: a literal check --init counts
// as approximate on an OmniGibson instance is still approximate after
// episode from-omnigibson, on the converted file (the conversion writes
// which records are approximate into the episode's meta).
func TestInitApproximateSurvivesConversion(t *testing.T) {
	exampleKB(t)
	task := filepath.Join(ogFixtures, "tiny")
	records := func(args ...string) []initResult {
		t.Helper()
		_, stdout, stderr := runCLI(append([]string{"check", "--init", "--no-progress", "--format", "json"}, args...)...)
		var out []initResult
		for _, l := range strings.Split(strings.TrimSpace(stdout), "\n") {
			var r initResult
			if err := json.Unmarshal([]byte(l), &r); err != nil {
				t.Fatalf("%q: %v\n%s", l, err, stderr)
			}
			out = append(out, r)
		}
		return out
	}
	direct := records(task)
	if len(direct) == 0 || direct[0].Approximate == 0 {
		t.Fatalf("the fixture has no approximate literal: %+v", direct)
	}
	dir := t.TempDir()
	if code, o, e := runCLI("episode", "from-omnigibson", "--no-progress", task, "-o", dir+"/"); code != 0 {
		t.Fatalf("exit %d\n%s%s", code, o, e)
	}
	converted := records("--activity", filepath.Join(task, "problem0.bddl"), dir)
	if len(converted) != len(direct) {
		t.Fatalf("%d converted states, %d direct", len(converted), len(direct))
	}
	for i := range direct {
		d, c := direct[i], converted[i]
		if c.Approximate != d.Approximate || c.NotTrue != d.NotTrue {
			t.Errorf("%s: %d of %d not-true literals approximate after conversion, %d of %d before", c.Episode, c.Approximate, c.NotTrue, d.Approximate, d.NotTrue)
		}
	}
}
