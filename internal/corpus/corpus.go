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

// missing is the message of a test skipped for want of the corpus.
const missing = "corpus not found: set BDDL_CORPUS or place it at ../shared/behavior1k"

var locate = locator(EnvVar, "shared/behavior1k")

// locator finds a data set once: where envVar points, or else at rel
// below the first ancestor of the working directory that holds it.
func locator(envVar, rel string) func() (string, error) {
	return sync.OnceValues(func() (string, error) {
		if dir := os.Getenv(envVar); dir != "" {
			if _, err := os.Stat(dir); err != nil {
				return "", err
			}
			return filepath.Abs(dir)
		}
		wd, err := os.Getwd()
		if err != nil {
			return "", err
		}
		return find(wd, rel)
	})
}

// find walks up from dir to the first ancestor holding rel.
func find(dir, rel string) (string, error) {
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

// require returns what locate found, or, when nothing was found, fails
// the test if the environment variable CI is "true" and skips it
// otherwise: a CI run must not pass by testing nothing.
func require(t testing.TB, locate func() (string, error), msg string) string {
	t.Helper()
	dir, err := locate()
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("%s (%v)", msg, err)
		}
		t.Skip(msg)
	}
	return dir
}

// Dir returns the corpus directory (the one holding activity_definitions
// and knowledge_base). When there is no corpus it fails the test if the
// environment variable CI is "true", and skips it otherwise.
func Dir(t testing.TB) string {
	t.Helper()
	return require(t, locate, missing)
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

var locateOG = locator(OmniGibsonEnvVar, "shared/omnigibson")

// OmniGibsonDir returns the directory of OmniGibson task instances
// (../shared/omnigibson or $BDDL_OMNIGIBSON), skipping the test when it is
// missing, or failing it when CI is "true".
func OmniGibsonDir(t testing.TB) string {
	t.Helper()
	return require(t, locateOG, "OmniGibson instances not found: set BDDL_OMNIGIBSON or place them at ../shared/omnigibson")
}
