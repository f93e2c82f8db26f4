package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompletionFindsNamesAsCommandsDo: an activity name a command
// resolves (through bddl.toml's activities) completes too.
func TestCompletionFindsNamesAsCommandsDo(t *testing.T) {
	t.Setenv(configEnvVar, "")
	t.Setenv("BDDL_KB", "")
	dir := t.TempDir()
	def := filepath.Join(dir, "defs", "cook_bacon_at_home", "problem0.bddl")
	if err := os.MkdirAll(filepath.Dir(def), 0o755); err != nil {
		t.Fatal(err)
	}
	src := readFile(t, filepath.Join("..", "..", "activities", "examples", "cleaning_shoes", "problem0.bddl"))
	if err := os.WriteFile(def, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, projectFileName), []byte("activities = \"defs\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runBDDLIn(t, dir, "explain", "cook_bacon_at_home"); r.code != exitOK {
		t.Fatalf("explain cook_bacon_at_home: exit %d\n%s", r.code, r.stderr)
	}
	r := runBDDLIn(t, dir, "__complete", "check", "--activity", "cook_ba")
	if !strings.Contains(r.stdout, "cook_bacon_at_home\n") {
		t.Errorf("check --activity cook_ba<TAB> offers:\n%s", r.stdout)
	}
}

// TestHelpAndHints: the completion command has examples, kb --help says
// where the knowledge base comes from (bddl.toml included), and a name
// not found by a command without --activity is not told to use it.
func TestHelpAndHints(t *testing.T) {
	t.Parallel()
	if r := runBDDL(t, "completion", "--help"); !strings.Contains(r.stdout, "Examples:") || !strings.Contains(r.stdout, "bddl completion bash") {
		t.Errorf("completion --help has no examples:\n%s", r.stdout)
	}
	if r := runBDDL(t, "kb", "--help"); !strings.Contains(r.stdout, "bddl.toml") || !strings.Contains(r.stdout, "$BDDL_KB") {
		t.Errorf("kb --help does not say where the knowledge base comes from:\n%s", r.stdout)
	}
	r := runBDDL(t, "episode", "from-init", "no_such_activity", "-o", filepath.Join(t.TempDir(), "x.jsonl"))
	if r.code != exitMisuse || strings.Contains(r.stderr, "--activity ") || !strings.Contains(r.stderr, "a problem file's path") {
		t.Errorf("episode from-init no_such_activity: exit %d, stderr %q", r.code, r.stderr)
	}
}
