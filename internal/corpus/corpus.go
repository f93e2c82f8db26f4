// Package corpus locates the BEHAVIOR-1K test corpus for tests and
// benchmarks.
//
// The corpus is real BEHAVIOR-1K data kept outside the repository, at
// ../shared/behavior1k relative to the repository root, or wherever
// $BDDL_CORPUS points. Tests that need it call Dir or ActivityFiles, which
// skip the test when the corpus is missing, except on CI (CI=true), where a
// missing corpus is a failure: a CI run must not pass by testing nothing.
package corpus

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

// EnvVar names the environment variable that overrides the corpus location.
const EnvVar = "BDDL_CORPUS"

// rel is where the corpus sits relative to some ancestor of the working
// directory (the repository's parent).
const rel = "shared/behavior1k"

// missing is the message of a test skipped for want of the corpus.
const missing = "corpus not found: set BDDL_CORPUS or place it at ../shared/behavior1k"

var locate = sync.OnceValues(func() (string, error) {
	if dir := os.Getenv(EnvVar); dir != "" {
		if _, err := os.Stat(dir); err != nil {
			return "", err
		}
		return filepath.Abs(dir)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	return find(wd)
})

// find walks up from dir to the first ancestor holding shared/behavior1k.
func find(dir string) (string, error) {
	for {
		cand := filepath.Join(dir, rel)
		if info, err := os.Stat(cand); err == nil && info.IsDir() {
			return cand, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fs.ErrNotExist
		}
		dir = parent
	}
}

// Dir returns the corpus directory (the one holding activity_definitions
// and knowledge_base). When there is no corpus it fails the test if the
// environment variable CI is "true", and skips it otherwise.
func Dir(t testing.TB) string {
	t.Helper()
	dir, err := locate()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s (%v)", missing, err)
		}
		t.Skip(missing)
	}
	return dir
}

// ActivitiesDir returns the corpus's activity_definitions directory.
func ActivitiesDir(t testing.TB) string {
	t.Helper()
	return filepath.Join(Dir(t), "activity_definitions")
}

// ActivityFiles returns the path of every *.bddl file under
// activity_definitions (problems and domains), in lexical order. It finds
// them by walking the directory, so new definitions are picked up without
// editing any test. It fails the test if the walk fails or finds nothing.
func ActivityFiles(t testing.TB) []string {
	t.Helper()
	root := ActivitiesDir(t)
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(d.Name(), ".bddl") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walking the corpus: %v", err)
	}
	if len(files) == 0 {
		t.Fatalf("no *.bddl files under %s", root)
	}
	slices.Sort(files)
	return files
}

// Rel returns path relative to the activity_definitions directory, with
// forward slashes, e.g. "wash_a_baseball_cap/problem0.bddl": the form test
// tables key files by.
func Rel(t testing.TB, path string) string {
	t.Helper()
	r, err := filepath.Rel(ActivitiesDir(t), path)
	if err != nil {
		t.Fatalf("corpus.Rel(%q): %v", path, err)
	}
	return filepath.ToSlash(r)
}

// OmniGibsonEnvVar names the environment variable that overrides the
// location of the OmniGibson task instances.
const OmniGibsonEnvVar = "BDDL_OMNIGIBSON"

var locateOG = sync.OnceValues(func() (string, error) {
	if dir := os.Getenv(OmniGibsonEnvVar); dir != "" {
		if _, err := os.Stat(dir); err != nil {
			return "", err
		}
		return filepath.Abs(dir)
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	base, err := find(wd)
	if err != nil {
		return "", err
	}
	dir := filepath.Join(filepath.Dir(base), "omnigibson")
	if _, err := os.Stat(dir); err != nil {
		return "", err
	}
	return dir, nil
})

// OmniGibsonDir returns the directory of OmniGibson task instances
// (../shared/omnigibson or $BDDL_OMNIGIBSON), skipping the test when it is
// missing, or failing it when CI is "true".
func OmniGibsonDir(t testing.TB) string {
	t.Helper()
	dir, err := locateOG()
	if err != nil {
		msg := "OmniGibson instances not found: set BDDL_OMNIGIBSON or place them at ../shared/omnigibson"
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s (%v)", msg, err)
		}
		t.Skip(msg)
	}
	return dir
}
