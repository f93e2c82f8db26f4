package predicates

import (
	"os"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
)

// corpusDir locates the BEHAVIOR-1K corpus as every corpus test does
// (internal/corpus): missing, the test fails under CI and is skipped
// otherwise.
func corpusDir(tb testing.TB) string { return corpus.Dir(tb) }

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
	kbDir := corpus.KBDir(tb) // skips before the Once, never inside it
	corpusOnce.Do(func() {
		base, err := kb.Load(kbDir)
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
