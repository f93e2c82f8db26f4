package kb

import (
	"encoding/json"
	"flag"
	"os"
	"sync"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// corpusDir locates the BEHAVIOR-1K corpus as every corpus test does
// (internal/corpus): skipped when missing or when $BDDL_CORPUS points
// nowhere, failed under CI=true.
func corpusDir(t testing.TB) string { return corpus.Dir(t) }

func knowledgeBaseDir(t testing.TB) string {
	return corpus.KBDir(t)
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
