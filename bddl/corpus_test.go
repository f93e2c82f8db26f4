package bddl

import (
	"bytes"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
)

// corpusKnownBad lists the corpus files that must not parse cleanly, by path
// relative to activity_definitions, with the one diagnostic each must give.
// Every other corpus file must parse without any diagnostic.
var corpusKnownBad = map[string]struct {
	code string
	pos  string // line:col
}{
	// A stray '\' after the (:init ...) section.
	"wash_a_baseball_cap/problem0.bddl": {code: "invalid-character", pos: "22:6"},
}

// TestCorpus parses every BEHAVIOR-1K definition of the corpus, checks
// that the known-bad ones give exactly their expected diagnostic (and
// still yield a tree), and that the rest parse cleanly, format to text that
// parses to the same tree, and format idempotently.
func TestCorpus(t *testing.T) {
	t.Parallel()
	files := corpus.ActivityFiles(t)
	seen := map[string]bool{}
	for _, path := range files {
		rel := corpus.Rel(t, path)
		seen[rel] = true
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			src := readT(t, path)
			f, diags := ParseFile(path, src)
			checkRanges(t, src, diags)
			if f.Problem == nil && f.Domain == nil {
				t.Fatalf("ParseFile(%q) built no problem or domain; diagnostics:\n%s", rel, brief(diags))
			}
			// Read as consuming commands read, every corpus file loads: the
			// reference loads them all.
			_, refDiags := Options{Mode: Reference}.ParseFile(path, src)
			if refDiags.HasErrors() {
				t.Errorf("Reference-mode read of %q has errors:\n%s", rel, brief(refDiags))
			}
			if bad, ok := corpusKnownBad[rel]; ok {
				if len(refDiags) != 1 || refDiags[0].Severity != Warning || refDiags[0].Code != bad.code {
					t.Errorf("Reference-mode read of %q: %s, want one %s warning", rel, brief(refDiags), bad.code)
				}
				if len(diags) != 1 || diags[0].Code != bad.code || diags[0].Subject.Start.String() != bad.pos {
					t.Fatalf("ParseFile(%q) diagnostics:\n%swant exactly one %s at %s", rel, brief(diags), bad.code, bad.pos)
				}
				// Recovery keeps every section of the file.
				if p := f.Problem; p == nil || p.Goal == nil || len(p.Init) == 0 || len(p.Objects) == 0 {
					t.Errorf("ParseFile(%q) lost sections of the partial tree", rel)
				}
				return
			}
			if len(diags) != 0 {
				t.Fatalf("ParseFile(%q) diagnostics:\n%s", rel, brief(diags))
			}
			checkRoundTrip(t, rel, f, Format(f))
		})
	}
	for rel := range corpusKnownBad {
		if !seen[rel] {
			t.Errorf("known-bad corpus file %s is missing from the corpus", rel)
		}
	}
}

// TestCorpusFormatKeepsProblemsIntact checks, on the whole corpus, what
// formatting must never change beyond the debug form: the object lists,
// the section order and the number of comments.
func TestCorpusFormatKeepsProblemsIntact(t *testing.T) {
	t.Parallel()
	for _, path := range corpus.ActivityFiles(t) {
		src := readT(t, path)
		f, diags := ParseFile(path, src)
		if diags.HasErrors() || f.Problem == nil {
			continue
		}
		out := Format(f)
		g, _ := ParseFile(path, out)
		if g.Problem == nil {
			t.Errorf("%s: formatted text has no problem", corpus.Rel(t, path))
			continue
		}
		p, q := f.Problem, g.Problem
		if len(p.Sections) != len(q.Sections) {
			t.Errorf("%s: %d sections before formatting, %d after", corpus.Rel(t, path), len(p.Sections), len(q.Sections))
			continue
		}
		for i := range p.Sections {
			if p.Sections[i].Keyword.Name != q.Sections[i].Keyword.Name {
				t.Errorf("%s: section %d is %s before formatting, %s after", corpus.Rel(t, path), i, p.Sections[i].Keyword.Name, q.Sections[i].Keyword.Name)
			}
		}
		if p.NumNodes != q.NumNodes || len(p.Comments) != len(q.Comments) {
			t.Errorf("%s: nodes %d→%d, comments %d→%d", corpus.Rel(t, path), p.NumNodes, q.NumNodes, len(p.Comments), len(q.Comments))
		}
		if bytes.Contains(out, []byte("\t")) || bytes.Contains(out, []byte(" \n")) {
			t.Errorf("%s: formatted text has tabs or trailing spaces", corpus.Rel(t, path))
		}
	}
}
