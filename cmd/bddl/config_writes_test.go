package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProjectWritesSaid: a bddl.toml in a parent directory that turns
// fmt into fmt -w, or gives check an --out file, is named on stderr with
// how to override it; the command line wins.
func TestProjectWritesSaid(t *testing.T) {
	t.Setenv("BDDL_KB", "")
	t.Setenv(configEnvVar, "")
	dir := t.TempDir()
	sub := filepath.Join(dir, "work")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	src := readFile(t, "../../activities/examples/cleaning_shoes/problem0.bddl")
	def := filepath.Join(sub, "p.bddl")
	if err := os.WriteFile(def, append([]byte("   "), src...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, projectFileName), []byte("[defaults.fmt]\nwrite = true\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runBDDLIn(t, sub, "fmt", "p.bddl")
	if !strings.Contains(r.stderr, "bddl: note: fmt --write is set by "+filepath.Join(dir, projectFileName)) {
		t.Errorf("fmt -w from a parent's bddl.toml, not said:\n%s", r.stderr)
	}
	r = runBDDLIn(t, sub, "fmt", "--write=false", "p.bddl")
	if strings.Contains(r.stderr, "--write is set by") {
		t.Errorf("the command line's --write=false, yet:\n%s", r.stderr)
	}
	// An absolute path: a relative one is taken from the working
	// directory, the package's, where it would append to a file of the
	// source tree on every run.
	results := filepath.Join(dir, "results.jsonl")
	if err := os.WriteFile(filepath.Join(dir, projectFileName), []byte("[defaults.check]\noutput = '"+results+"'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ep, _ := filepath.Abs("../../activities/examples/cleaning_shoes/episodes/success.jsonl")
	act, _ := filepath.Abs("../../activities/examples/cleaning_shoes/problem0.bddl")
	r = runBDDLIn(t, sub, "check", "--activity", act, "--episode", ep)
	if !strings.Contains(r.stderr, "bddl: note: check --output is set by") {
		t.Errorf("check -o from a parent's bddl.toml, not said:\n%s", r.stderr)
	}
	if _, err := os.Stat(results); err != nil {
		t.Errorf("check -o from bddl.toml wrote no %s: %v", results, err)
	}
}
