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

// Minor item: fmt -w keeps the setgid bit of the file it rewrites.
func TestFmtWriteKeepsSetgid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "problem0.bddl")
	src := readFile(t, filepath.Join(examples, "tidying_the_living_room", "problem0.bddl"))
	writeFile(t, path, []byte("  "+strings.ReplaceAll(string(src), "\n", "\n  ")))
	want := os.FileMode(0o640) | os.ModeSetgid
	if err := os.Chmod(path, want); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode() != want {
		t.Skipf("the file system does not keep setgid (%v)", info.Mode())
	}
	args := []string{"fmt", "-w", path}
	runBDDL(t, args...).wantCode(t, args, exitOK)
	if data, _ := os.ReadFile(path); string(data) == "  "+strings.ReplaceAll(string(src), "\n", "\n  ") {
		t.Fatal("fmt -w did not rewrite the file")
	}
	if info, _ := os.Stat(path); info.Mode() != want {
		t.Errorf("mode %v after fmt -w, want %v", info.Mode(), want)
	}
}
