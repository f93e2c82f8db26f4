package activities

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIsPathLike(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		arg  string
		want bool
	}{
		{"-", true},
		{"defs/cook_bacon", true},
		{"*.bddl", true},
		{"problem0.bddl", true},
		{"cook_bacon", false},
		{"names_test.go", true}, // exists
	} {
		if got := IsPathLike(tc.arg); got != tc.want {
			t.Errorf("IsPathLike(%q) = %v, want %v", tc.arg, got, tc.want)
		}
	}
}

func TestResolveName(t *testing.T) {
	t.Parallel()
	lib := t.TempDir()
	def := filepath.Join(lib, "cook_bacon", "problem1.bddl")
	if err := os.MkdirAll(filepath.Dir(def), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(def, []byte("(define (problem cook_bacon-1))"), 0o644); err != nil {
		t.Fatal(err)
	}
	if path, ex, err := ResolveName("cook_bacon-1", lib); err != nil || path != def || ex != nil {
		t.Errorf("ResolveName(cook_bacon-1) = %q, %v, %v; want %s", path, ex, err, def)
	}
	if path, ex, err := ResolveName("cleaning_shoes", ""); err != nil || path != "" || ex == nil || ex.Name != "cleaning_shoes" {
		t.Errorf("ResolveName(cleaning_shoes) = %q, %v, %v; want the example", path, ex, err)
	}
	_, _, err := ResolveName("cleaning_shoe", "")
	if err == nil || !strings.Contains(err.Error(), "did you mean cleaning_shoes?") || !strings.Contains(err.Error(), "give --activities DIR") {
		t.Errorf("ResolveName(cleaning_shoe) error %v, want a did-you-mean and the --activities hint", err)
	}
	if _, _, err := ResolveName("cook_baco", lib); err == nil || !strings.Contains(err.Error(), "did you mean cook_bacon?") || strings.Contains(err.Error(), "--activities") {
		t.Errorf("ResolveName(cook_baco, lib) error %v, want the library's name suggested", err)
	}
}

// TestDefinitionCopySources: a copy names the file it came from, and
// CopySources finds that name beside the episodes.
func TestDefinitionCopySources(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	orig := filepath.Join(dir, "orig.bddl")
	if err := os.WriteFile(orig, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := DefinitionCopy("-", []byte("x")); string(got) != "x" {
		t.Errorf("DefinitionCopy(-) = %q, want the source alone", got)
	}
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "act.bddl"), DefinitionCopy(orig, []byte("x")), 0o644); err != nil {
		t.Fatal(err)
	}
	got := CopySources([]string{filepath.Join(out, "a.jsonl"), filepath.Join(out, "b.jsonl")})
	if len(got) != 1 || got[0] != orig {
		t.Errorf("CopySources = %v, want [%s]", got, orig)
	}
	if PathOf(orig) != orig || PathOf("cook_bacon") != "" {
		t.Errorf("PathOf: a file is its path, a name is empty")
	}
}
