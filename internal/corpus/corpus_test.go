package corpus

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestFindWalksUp(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	want := filepath.Join(root, "shared", "behavior1k")
	deep := filepath.Join(root, "main", "bddl", "testdata")
	for _, d := range []string{want, deep} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name, from string
	}{
		{"from the root itself", root},
		{"from the repository", filepath.Join(root, "main")},
		{"from a package's testdata", deep},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := find(tt.from, "shared/behavior1k")
			if err != nil || got != want {
				t.Errorf("find(%q) = %q, %v, want %q, nil", tt.from, got, err, want)
			}
		})
	}
}

func TestFindIgnoresFiles(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	// A regular file named like the corpus is not the corpus.
	if err := os.MkdirAll(filepath.Join(root, "a", "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "shared", "behavior1k"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := find(filepath.Join(root, "a"), "shared/behavior1k")
	// The walk may still find a real corpus above the temporary directory;
	// it must never return the file.
	if err == nil && got == filepath.Join(root, "a", "shared", "behavior1k") {
		t.Errorf("find returned the regular file %q", got)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("find error = %v, want fs.ErrNotExist", err)
	}
}

func TestActivityFiles(t *testing.T) {
	files := ActivityFiles(t)
	if !slices.IsSorted(files) {
		t.Errorf("ActivityFiles is not sorted")
	}
	dir := ActivitiesDir(t)
	for _, f := range files {
		if !strings.HasSuffix(f, ".bddl") {
			t.Errorf("ActivityFiles returned %q, which is not a .bddl file", f)
		}
		if !strings.HasPrefix(f, dir+string(filepath.Separator)) {
			t.Errorf("ActivityFiles returned %q, outside %q", f, dir)
		}
	}
	if got := Rel(t, filepath.Join(dir, "x", "problem0.bddl")); got != "x/problem0.bddl" {
		t.Errorf("Rel = %q, want %q", got, "x/problem0.bddl")
	}
}
