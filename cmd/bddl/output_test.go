package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Minor items: an output that is not a regular file (/dev/null, a FIFO)
// is refused before anything is written, and sample's output directory
// that cannot be written is an output error (exit 2), not an internal
// failure of every sample.
func TestOutputsMustBeRegular(t *testing.T) {
	acts, _ := filepath.Abs(examples)
	fifo := filepath.Join(t.TempDir(), "fifo.jsonl")
	hasFIFO := mkfifoForTest(fifo) == nil
	for _, out := range []string{"/dev/null", fifo} {
		if out == fifo && !hasFIFO {
			continue
		}
		for _, args := range [][]string{
			{"episode", "from-init", filepath.Join(acts, "tidying_the_living_room"), "-o", out},
			{"check", "--activity", acts, "--out", out, "--episode", examplePath("tidying_the_living_room", "poses.jsonl")},
			{"results", "merge", examplePath("tidying_the_living_room", "poses.jsonl"), "-o", out},
		} {
			r := runBDDL(t, args...)
			r.wantCode(t, args, exitMisuse)
			if !strings.Contains(r.stderr, "not a regular file") {
				t.Errorf("bddl %s: %s", strings.Join(args, " "), r.stderr)
			}
		}
	}
	if _, err := os.Stat("/proc/self"); err != nil {
		return // no /proc: no directory that even root cannot write
	}
	args := []string{"sample", "tidying_the_living_room", "-o", "/proc"}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
	if !strings.Contains(r.stderr, "cannot write there") || strings.Contains(r.stderr, "internal") {
		t.Errorf("bddl %s: %s", strings.Join(args, " "), r.stderr)
	}
}
