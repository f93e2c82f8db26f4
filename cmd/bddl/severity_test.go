package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestSeverityWords checks that every command spells severities
// error|warning|info and takes note as an alias of info.
func TestSeverityWords(t *testing.T) {
	t.Parallel()
	def := filepath.Join("testdata", "cookies.bddl")
	tests := []struct {
		args       []string
		code       int
		stdout     string // a substring
		notStdout  string
		stderrWant string
	}{
		{args: []string{"kb", "check", "--severity", "note"}, code: exitOK, stdout: " info", notStdout: "note"},
		{args: []string{"kb", "check", "--severity", "info"}, code: exitOK, stdout: " info"},
		{args: []string{"kb", "check", "--severity", "bogus"}, code: exitMisuse, stderrWant: "error, warning or info"},
		{args: []string{"validate", "--severity", "note", def}, code: -1},
		{args: []string{"validate", "--severity", "info", def}, code: -1},
		{args: []string{"validate", "--severity", "bogus", def}, code: exitMisuse, stderrWant: "error, warning or info"},
	}
	for _, tt := range tests {
		r := runBDDL(t, tt.args...)
		if tt.code >= 0 {
			r.wantCode(t, tt.args, tt.code)
		} else if r.code == exitMisuse {
			t.Errorf("bddl %v: exit 2: %s", tt.args, r.stderr)
		}
		if tt.stdout != "" && !strings.Contains(r.stdout, tt.stdout) {
			t.Errorf("bddl %v stdout %q lacks %q", tt.args, r.stdout, tt.stdout)
		}
		if tt.notStdout != "" && strings.Contains(r.stdout, tt.notStdout) {
			t.Errorf("bddl %v stdout %q says %q", tt.args, r.stdout, tt.notStdout)
		}
		if tt.stderrWant != "" && !strings.Contains(r.stderr, tt.stderrWant) {
			t.Errorf("bddl %v stderr %q lacks %q", tt.args, r.stderr, tt.stderrWant)
		}
	}
	for _, cmd := range [][]string{{"validate"}, {"kb", "check"}} {
		r := runBDDL(t, append(cmd, "--help")...)
		if strings.Contains(r.stdout, "note") && strings.Contains(r.stdout, "--severity") && strings.Contains(r.stdout, "warning or note") {
			t.Errorf("bddl %v --help still spells the lowest severity note", cmd)
		}
	}
}

// TestSelectUnknownCode checks that a mistyped code is refused with the
// code meant, not taken as selecting nothing.
func TestSelectUnknownCode(t *testing.T) {
	t.Parallel()
	def := filepath.Join("testdata", "cookies.bddl")
	for _, flag := range []string{"--select", "--ignore"} {
		args := []string{"validate", flag, "unknown-synsett", def}
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitMisuse)
		if !strings.Contains(r.stderr, "did you mean unknown-synset?") {
			t.Errorf("bddl %v stderr %q suggests no code", args, r.stderr)
		}
	}
	for _, ok := range []string{"unknown-synset", "unknown-*", "unplaced,no-scene"} {
		args := []string{"validate", "--select", ok, def}
		if r := runBDDL(t, args...); r.code == exitMisuse {
			t.Errorf("bddl %v: exit 2: %s", args, r.stderr)
		}
	}
}
