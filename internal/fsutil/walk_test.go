package fsutil

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestJoinPrefix: a name appended to JoinPrefix(dir) is filepath.Join(dir,
// name), and taking the prefix off a walked path is filepath.Rel(dir, path),
// however dir is spelled.
func TestJoinPrefix(t *testing.T) {
	for _, dir := range []string{".", "./", "a", "a/", "./a", "a//b/../c", "/", "/a/b", "../x", "..", "a/..", "..foo"} {
		dir = filepath.FromSlash(dir)
		for _, name := range []string{"f.bddl", "..x", ".hidden"} {
			if got, want := JoinPrefix(dir)+name, filepath.Join(dir, name); got != want {
				t.Errorf("JoinPrefix(%q)+%q = %q, want %q", dir, name, got, want)
			}
			p := filepath.Join(dir, "sub", name)
			rel, err := filepath.Rel(dir, p)
			if got := strings.TrimPrefix(p, JoinPrefix(dir)); err != nil || got != rel {
				t.Errorf("%q without JoinPrefix(%q) = %q, want %q (%v)", p, dir, got, rel, err)
			}
		}
	}
}
