package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// complete runs cobra's hidden __complete command and returns the
// candidates it prints (the last line is the directive).
func complete(t *testing.T, args ...string) []string {
	t.Helper()
	r := runBDDL(t, append([]string{"__complete"}, args...)...)
	if r.code != 0 {
		t.Fatalf("__complete %v: exit %d\n%s", args, r.code, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	return lines[:len(lines)-1]
}

func TestCompletion(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"check", "--activity", "tidy"}, "tidying_the_living_room"},
		{[]string{"check", "--activities", examples, "--activity", "bak"}, "baking_a_tray_of_cookies"},
		{[]string{"episode", "from-init", "clean"}, "cleaning_shoes"},
		{[]string{"kb", "show", "apple.n"}, "apple.n.01"},
		{[]string{"kb", "tree", "food.n"}, "food.n.02"},
		{[]string{"kb", "s"}, "show"},
	}
	for _, tc := range tests {
		got := complete(t, tc.args...)
		found := false
		for _, g := range got {
			if strings.SplitN(g, "\t", 2)[0] == tc.want {
				found = true
			}
		}
		if !found {
			t.Errorf("completing %v: %v lacks %s", tc.args, got, tc.want)
		}
	}
	if got := complete(t, "kb", "show", "zzzz"); len(got) != 0 {
		t.Errorf("completing zzzz: %v", got)
	}
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		args := []string{"completion", shell}
		runBDDL(t, args...).wantCode(t, args, exitOK)
	}
	args := []string{"completion", "tcsh"}
	runBDDL(t, args...).wantCode(t, args, exitMisuse)
}

func TestVersion(t *testing.T) {
	t.Parallel()
	r := runBDDL(t, "--version")
	r.wantCode(t, []string{"--version"}, exitOK)
	if !regexp.MustCompile(`^bddl \S+ \(revision .*, go1\.\d+`).MatchString(r.stdout) {
		t.Errorf("--version printed %q", r.stdout)
	}
}

// TestPalette: colour only for a terminal, never with NO_COLOR; output
// to a pipe or file is plain.
func TestPalette(t *testing.T) {
	var buf strings.Builder
	if p := paletteFor(&buf); p.on || p.red("x") != "x" {
		t.Error("colour on a non-terminal")
	}
	if got := (palette{on: true}).red("x"); got != "\x1b[31mx\x1b[0m" {
		t.Errorf("red = %q", got)
	}
	t.Setenv("NO_COLOR", "1")
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if paletteFor(tty).on {
			t.Error("colour with NO_COLOR set")
		}
	}
	r := runBDDL(t, "check", "--episode", examplePath("tidying_the_living_room", "poses.jsonl"), "--episode", examplePath("cleaning_shoes", "success.jsonl"))
	if strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("escape codes in piped output:\n%q", r.stdout)
	}
}
