package predicates

import (
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// corpusDir locates the BEHAVIOR-1K corpus: $BDDL_CORPUS, else a
// shared/behavior1k directory beside one of the working directory's
// ancestors. Missing, the test fails under CI and is skipped otherwise.
func corpusDir(tb testing.TB) string {
	tb.Helper()
	if dir := os.Getenv("BDDL_CORPUS"); dir != "" {
		if _, err := os.Stat(dir); err != nil {
			tb.Fatalf("$BDDL_CORPUS=%s: %v", dir, err)
		}
		return dir
	}
	wd, err := os.Getwd()
	if err == nil {
		for dir := wd; ; dir = filepath.Dir(dir) {
			for _, cand := range []string{filepath.Join(dir, "shared", "behavior1k"), filepath.Join(dir, "..", "shared", "behavior1k")} {
				if st, err := os.Stat(filepath.Join(cand, "activity_definitions")); err == nil && st.IsDir() {
					return cand
				}
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	if os.Getenv("CI") == "true" {
		tb.Fatal("BEHAVIOR-1K corpus not found: set $BDDL_CORPUS or place shared/behavior1k beside the repository")
	}
	tb.Skip("BEHAVIOR-1K corpus not found (set $BDDL_CORPUS or place shared/behavior1k beside the repository); skipping")
	return ""
}

type corpusActivity struct {
	name    string
	path    string
	problem *bddl.Problem
}

var (
	corpusOnce sync.Once
	corpusActs []corpusActivity
	corpusKB   *kb.Base
	corpusErr  error
	// corpusRefused lists the corpus problems a Reference-mode read
	// refused, with why.
	corpusRefused []string
)

// loadCorpus reads every problem of the corpus as the consuming commands
// do (bddl.Reference: a few carry real defects the reference loads anyway)
// and loads its KB.
func loadCorpus(tb testing.TB) ([]corpusActivity, *kb.Base) {
	tb.Helper()
	dir := corpusDir(tb)
	corpusOnce.Do(func() {
		base, err := kb.Load(filepath.Join(dir, "knowledge_base"))
		if err != nil && base == nil {
			corpusErr = err
			return
		}
		corpusKB = base
		files, _ := filepath.Glob(filepath.Join(dir, "activity_definitions", "*", "problem*.bddl"))
		sort.Strings(files)
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			// Read as the consuming commands read: what the reference
			// loads, we load.
			prob, diags := bddl.Options{Mode: bddl.Reference}.ParseProblem(f, src)
			if diags.HasErrors() || prob == nil {
				corpusRefused = append(corpusRefused, f+": "+diags.Error())
				continue
			}
			name := filepath.Base(filepath.Dir(f))
			corpusActs = append(corpusActs, corpusActivity{name: name, path: f, problem: prob})
		}
	})
	if corpusErr != nil {
		tb.Fatalf("loading corpus knowledge base: %v", corpusErr)
	}
	return corpusActs, corpusKB
}
