package batch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// TestBesideRefusedIsItsError: a definition copied beside an episode
// (<name>.bddl) that the resolver's guard refuses is that refusal, not
// "not found"; one it accepts is the activity; none is not found.
func TestBesideRefusedIsItsError(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "activities", "examples", "tidying_the_living_room", "problem0.bddl"))
	if err != nil {
		t.Fatal(err)
	}
	refusal := errors.New("declares synsets the knowledge base does not know")
	for _, c := range []struct {
		name    string
		copy    bool
		guard   error
		wantErr string
	}{
		{"accepted", true, nil, ""},
		{"refused", true, refusal, refusal.Error()},
		{"absent", false, nil, "not found"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if c.copy {
				if err := os.WriteFile(filepath.Join(dir, DefinitionFile("my_task")), src, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ep := filepath.Join(dir, "ep.jsonl")
			r := NewResolver(kb.Default(), predicates.Options{})
			r.Guard = func(string, *bddl.Problem) error { return c.guard }
			a, err := r.Resolve("my_task", Episode{Input: Input{Path: ep, Root: dir}})
			switch {
			case c.wantErr == "" && (err != nil || a == nil || a.Name != "my_task"):
				t.Fatalf("Resolve = %v, %v; want the activity my_task", a, err)
			case c.wantErr != "" && (err == nil || !strings.Contains(err.Error(), c.wantErr)):
				t.Fatalf("Resolve error %v, want one saying %q", err, c.wantErr)
			}
		})
	}
}
