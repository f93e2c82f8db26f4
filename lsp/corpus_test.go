package lsp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
)

func loadCorpusKB(t testing.TB) *kb.Base {
	t.Helper()
	dir := corpus.KBDir(t)
	b, err := kb.Load(dir)
	if err != nil {
		t.Fatalf("loading %s: %v", dir, err)
	}
	return b
}

// liberoFiles lists the shared LIBERO definitions: $BDDL_LIBERO, else
// ../shared/libero from the repository root; missing data fails under
// CI=true and skips otherwise.
func liberoFiles(t testing.TB) []string {
	t.Helper()
	dir := os.Getenv("BDDL_LIBERO")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "libero")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.bddl"))
	if len(files) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no LIBERO definitions at %s (set BDDL_LIBERO)", dir)
		}
		t.Skipf("no LIBERO definitions at %s (set BDDL_LIBERO)", dir)
	}
	return files
}

// mutate is text with one byte removed from its middle: a half-typed file,
// different for every definition.
func mutate(text string) string {
	if len(text) < 2 {
		return text
	}
	i := len(text) / 2
	return text[:i] + text[i+1:]
}

// checkCorpus opens every file (and a mutation of it) in one session and
// holds the diagnostics to validation's.
func checkCorpus(t *testing.T, files []string, base *kb.Base) {
	opts := Options{}
	if base != nil {
		opts.KB = func(string) (*kb.Base, error) { return base, nil }
	}
	c := newClient(t, opts)
	c.initialize(false)
	v := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		uri := pathURI(f)
		for _, text := range []string{string(src), mutate(string(src))} {
			v++
			c.open(uri, text, v)
			compareDiagnostics(t, f, text, c.diagnostics(uri, v), expectedFindings(t, uriPath(uri), text, base))
		}
		c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": uri}})
	}
	if err := c.shutdown(); err != nil {
		t.Error(err)
	}
}

// TestCorpusMatchesValidate: every BEHAVIOR-1K definition of the shared
// corpus gets, over the protocol, exactly the diagnostics validation
// reports with the corpus's knowledge base; so does a mutation of each.
func TestCorpusMatchesValidate(t *testing.T) {
	t.Parallel()
	files := corpus.ActivityFiles(t)
	checkCorpus(t, files, loadCorpusKB(t))
}

// TestLiberoMatchesValidate: the same for LIBERO's definitions.
func TestLiberoMatchesValidate(t *testing.T) {
	t.Parallel()
	checkCorpus(t, liberoFiles(t), nil)
}
