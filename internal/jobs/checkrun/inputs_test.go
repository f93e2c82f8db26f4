package checkrun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestInputs: the results file is no episode, a definition is refused
// with what to do, and an -o file alone is nothing to check.
func TestInputs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range []string{"a.jsonl", "results.jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	note := func(string) {}
	ins, err := Inputs([]string{dir}, filepath.Join(dir, "results.jsonl"), note)
	if err != nil || len(ins) != 1 || filepath.Base(ins[0].Path) != "a.jsonl" {
		t.Errorf("Inputs(dir, -o results) = %v, %v", ins, err)
	}
	if _, err := Inputs([]string{filepath.Join(dir, "a.jsonl")}, filepath.Join(dir, "a.jsonl"), note); err == nil || !strings.Contains(err.Error(), "besides the -o/--output file") {
		t.Errorf("Inputs(only -o) error = %v", err)
	}
	def := filepath.Join(dir, "p.bddl")
	if err := os.WriteFile(def, []byte("(define)"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Inputs([]string{def}, "", note); err == nil || !strings.Contains(err.Error(), "give it as --activity") {
		t.Errorf("Inputs(definition) error = %v", err)
	}
}
