// Package corpus locates the BEHAVIOR-1K test corpus for tests and
// benchmarks.
//
// The corpus is real BEHAVIOR-1K data kept outside the repository, at
// ../shared/behavior1k relative to the repository root, or wherever
// $BDDL_CORPUS points, laid out as users have it (internal/b1klayout): a
// bddl package folder, or a checkout's root holding one. Tests that need it call Dir or ActivityFiles, which
// skip the test when the corpus is missing, except on CI (CI=true), where a
// missing corpus is a failure: a CI run must not pass by testing nothing.
package corpus

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/openbddl/bddl/internal/b1klayout"
)

// EnvVar names the environment variable that overrides the corpus location.
const EnvVar = "BDDL_CORPUS"

// missing is the message of a test skipped for want of the corpus.
const missing = "corpus not found: set BDDL_CORPUS to a bddl package folder (activity_definitions/, generated_data/) or place one at ../shared/behavior1k"

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

// locatePackage is the corpus's bddl package folder, found once: the
// folder located, or the package in the checkout it is the root of.
var locatePackage = sync.OnceValues(func() (string, error) {
	dir, err := locate()
	if err != nil {
		return "", err
	}
	l := b1klayout.Recognise(dir)
	if l.Package == "" || l.Activities == "" {
		return "", fmt.Errorf("%s is not a bddl package folder (activity_definitions/ and generated_data/) nor a checkout holding one", dir)
	}
	return l.Package, nil
})

// Dir returns the corpus's bddl package folder (the one holding
// activity_definitions/ and generated_data/). When there is no corpus it
// fails the test if the environment variable CI is "true", and skips it
// otherwise.
func Dir(t testing.TB) string {
	t.Helper()
	return require(t, locatePackage, missing)
}

// Find returns the corpus's layout without skipping: for benchmarks that
// fall back to the embedded examples when there is no corpus.
func Find() (b1klayout.Layout, bool) {
	dir, err := locatePackage()
	if err != nil {
		return b1klayout.Layout{}, false
	}
	return b1klayout.Recognise(dir), true
}

// KBDir returns the corpus's knowledge-base data folder (generated_data/
// of the package), as --kb takes it.
func KBDir(t testing.TB) string {
	t.Helper()
	return b1klayout.Recognise(Dir(t)).Data
}

// ActivitiesDir returns the corpus's activity_definitions directory.
func ActivitiesDir(t testing.TB) string {
	t.Helper()
	return filepath.Join(Dir(t), b1klayout.ActivitiesDir)
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
// location of the OmniGibson task instances: a BEHAVIOR-1K checkout's
// root (joylo/sampled_task inside), the sampled_task folder itself, or a
// folder holding a checkout named BEHAVIOR-1K.
const OmniGibsonEnvVar = "BDDL_OMNIGIBSON"

// missingOG is the message of a test skipped for want of the instances.
const missingOG = "OmniGibson instances not found: set BDDL_OMNIGIBSON to a BEHAVIOR-1K checkout (joylo/sampled_task) or place one at ../shared/omnigibson/BEHAVIOR-1K"

var locateOG = locator(OmniGibsonEnvVar, "shared/omnigibson")

// locateSampled is the sampled_task folder of what locateOG found.
var locateSampled = sync.OnceValues(func() (string, error) {
	dir, err := locateOG()
	if err != nil {
		return "", err
	}
	return sampledTask(dir)
})

// sampledTask finds the simulator's task folder in dir: dir itself when
// it holds available_tasks.yaml or task folders, else joylo/sampled_task
// of dir or of dir/BEHAVIOR-1K.
func sampledTask(dir string) (string, error) {
	for _, rel := range []string{"", "joylo/sampled_task", "BEHAVIOR-1K/joylo/sampled_task"} {
		d := filepath.Join(dir, filepath.FromSlash(rel))
		if info, err := os.Stat(filepath.Join(d, "available_tasks.yaml")); err == nil && info.Mode().IsRegular() {
			return d, nil
		}
	}
	if ents, err := os.ReadDir(dir); err == nil {
		for _, e := range ents {
			if m, _ := filepath.Glob(filepath.Join(dir, e.Name(), "*_template*.json")); e.IsDir() && len(m) > 0 {
				return dir, nil
			}
		}
	}
	return "", fmt.Errorf("%s: no sampled_task folder (joylo/sampled_task of a BEHAVIOR-1K checkout)", dir)
}

// OmniGibsonDir returns the simulator's sampled_task folder, the one
// holding a folder per task ($BDDL_OMNIGIBSON, or the checkout at
// ../shared/omnigibson), skipping the test when it is missing, or failing
// it when CI is "true".
func OmniGibsonDir(t testing.TB) string {
	t.Helper()
	return require(t, locateSampled, missingOG)
}

// OmniGibsonTaskDirs lists the task folders of OmniGibsonDir, in order.
func OmniGibsonTaskDirs(t testing.TB) []string {
	t.Helper()
	root := OmniGibsonDir(t)
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range ents {
		if e.IsDir() {
			out = append(out, filepath.Join(root, e.Name()))
		}
	}
	if len(out) == 0 {
		t.Fatalf("no task folders in %s", root)
	}
	return out
}

// OmniGibsonPackage returns the bddl package of the instances' own
// checkout (bddl3/bddl beside joylo/), skipping the test when the
// checkout has none (or failing it when CI is "true").
func OmniGibsonPackage(t testing.TB) b1klayout.Layout {
	t.Helper()
	dir := OmniGibsonDir(t)
	l, ok := b1klayout.Around(dir)
	if !ok || l.Activities == "" {
		msg := "no bddl package in the checkout around " + dir + " (bddl3/bddl)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return l
}
