package batch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

// TestParseDefinitions: files are parsed in input order, a read failure
// and a syntax error are reported with the file, and a walked file over
// nothing is read as a named one.
func TestParseDefinitions(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := "(define (problem a-0) (:domain omnigibson) (:objects floor.n.01_1 - floor.n.01 agent.n.01_1 - agent.n.01) (:init (onfloor agent.n.01_1 floor.n.01_1)) (:goal (onfloor agent.n.01_1 floor.n.01_1)))"
	for name, src := range map[string]string{"a.bddl": good, "b.bddl": "(define (problem", "notes.txt": "x"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ins, err := ExpandDefinitions([]string{dir}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ins) != 2 || !IsDefinitionFile(ins[0].Path) {
		t.Fatalf("ExpandDefinitions(%s) = %v, want a.bddl and b.bddl", dir, ins)
	}
	ins = append(ins, Input{Path: filepath.Join(dir, "missing.bddl"), Arg: filepath.Join(dir, "missing.bddl")})
	got := ParseDefinitions(ins, nil, bddl.Options{})
	if len(got) != 3 {
		t.Fatalf("ParseDefinitions: %d results, want 3", len(got))
	}
	if got[0].Err != nil || got[0].File == nil || got[0].Diags.HasErrors() {
		t.Errorf("a.bddl: %v %v", got[0].Err, got[0].Diags)
	}
	if !got[1].Diags.HasErrors() || FirstError(got[1].Diags) == "" {
		t.Errorf("b.bddl: diagnostics %v, want a syntax error", got[1].Diags)
	}
	if got[2].Err == nil || !errors.Is(got[2].Err, os.ErrNotExist) {
		t.Errorf("missing.bddl: error %v, want not found", got[2].Err)
	}
	if _, err := ExpandDefinitions([]string{t.TempDir()}, nil); err == nil || !strings.Contains(err.Error(), "*.bddl") {
		t.Errorf("an empty directory: error %v, want one naming *.bddl", err)
	}
}

func TestExitClasses(t *testing.T) {
	t.Parallel()
	var u *UsageError
	if err := Usage("-o %s", "x"); !errors.As(err, &u) || err.Error() != "-o x" {
		t.Errorf("Usage = %v", err)
	}
	var f *FindingsError
	if err := Findings(nil); !errors.As(err, &f) || f.Err != nil || err.Error() != "findings" {
		t.Errorf("Findings(nil) = %v", err)
	}
	inner := errors.New("bad line")
	if err := Findings(inner); !errors.Is(err, inner) || err.Error() != "bad line" {
		t.Errorf("Findings(err) = %v", err)
	}
	if err := error(&InterruptedError{Err: inner}); !errors.Is(err, inner) {
		t.Errorf("InterruptedError does not unwrap")
	}
}
