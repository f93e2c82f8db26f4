package fsutil

import (
	"os"
	"path/filepath"
	"slices"
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

// TestWalkDeepTree: a tree deeper than the directories a walk keeps open
// is walked whole, in order, its loops still found.
func TestWalkDeepTree(t *testing.T) {
	root := t.TempDir()
	p := root
	var want []string
	for i := range maxOpenDirs + 10 {
		p = filepath.Join(p, "d")
		if err := os.Mkdir(p, 0o755); err != nil {
			t.Fatal(err)
		}
		if i%20 == 0 || i > maxOpenDirs {
			f := filepath.Join(p, "f.bddl")
			if err := os.WriteFile(f, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			want = append(want, f)
		}
	}
	if err := os.Symlink(root, filepath.Join(p, "loop")); err != nil {
		t.Fatal(err)
	}
	slices.Reverse(want) // "d" sorts before "f.bddl": the deepest file comes first
	var got, notes []string
	err := Walk(root, WalkOptions{Note: func(m string) { notes = append(notes, m) }}, func(p string) error {
		got = append(got, p)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("walked\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "loop: a link back") {
		t.Errorf("notes %q, want the loop", notes)
	}
}
