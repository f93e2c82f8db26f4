package kb

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// corpusDir locates the BEHAVIOR-1K corpus: $BDDL_CORPUS, else a
// shared/behavior1k directory found walking up from the working directory
// (the corpus sits next to the repository). Without it the test is skipped,
// or fails under CI=true so that CI cannot silently skip the corpus tests.
func corpusDir(t testing.TB) string {
	t.Helper()
	if d := os.Getenv("BDDL_CORPUS"); d != "" {
		return d
	}
	if wd, err := os.Getwd(); err == nil {
		for dir := wd; ; {
			cand := filepath.Join(dir, "shared", "behavior1k")
			if info, err := os.Stat(cand); err == nil && info.IsDir() {
				return cand
			}
			parent := filepath.Dir(dir)
			if parent == dir {
				break
			}
			dir = parent
		}
	}
	const msg = "BEHAVIOR-1K corpus not found: set BDDL_CORPUS or put it at ../shared/behavior1k next to the repository"
	if os.Getenv("CI") == "true" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func knowledgeBaseDir(t testing.TB) string {
	return filepath.Join(corpusDir(t), "knowledge_base")
}

var b1kOnce struct {
	sync.Once
	base *Base
	err  error
}

// behavior1K loads the corpus knowledge base once for all tests.
func behavior1K(t testing.TB) *Base {
	t.Helper()
	dir := knowledgeBaseDir(t)
	b1kOnce.Do(func() { b1kOnce.base, b1kOnce.err = LoadBehavior1K(dir) })
	if b1kOnce.err != nil {
		t.Fatalf("LoadBehavior1K(%s): %v", dir, b1kOnce.err)
	}
	return b1kOnce.base
}

func lookup(t testing.TB, b *Base, name string) SynsetID {
	t.Helper()
	id, ok := b.Lookup(name)
	if !ok {
		t.Fatalf("Lookup(%q): not found", name)
	}
	return id
}

// readJSON decodes a corpus file with encoding/json, independently of the
// package's own scanner, to cross-check what the loader read.
func readJSON(t testing.TB, path string) any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return v
}
