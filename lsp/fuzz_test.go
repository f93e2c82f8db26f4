package lsp

import (
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"
)

// fragments are what a random edit inserts: pieces of BDDL, blanks and
// text beyond ASCII, so edits make half-typed definitions.
var fragments = []string{
	"", "(", ")", " ", "\n", "\r\n", "\t", "?", "-", ";", "; 🍪\n", "é", "𝄞", "\xff",
	"(ontop ", "apple.n.01_1", "?x", "(forall (?x - apple.n.01) ", "(not ", "(:init ", "(:goal (and ",
	"(:objects a.n.01_1 - a.n.01)", "(:regions (r (:target t)))", "(On x t_r)", "(:domain robosuite)",
	"(define (problem p) (:domain omnigibson)", "- apple.n.01\n", "(inroom x kitchen)", "forn (2)",
}

// FuzzEdits opens a definition, applies random edits as didChange does,
// then computes its diagnostics and asks every request at positions
// chosen by the input: nothing may panic, every range must lie in the
// document, and positions must convert to offsets and back.
func FuzzEdits(f *testing.F) {
	for _, name := range []string{"cookies.bddl", "libero.bddl", "halftyped.bddl"} {
		f.Add(readTestdata(f, name), []byte{0, 4, 10, 3, 14, 7, 30, 2, 0, 20, 12, 1, 15})
	}
	f.Add("(define (problem p)\n(:domain omnigibson)\n(:objects a.n.01_1 - a.n.01)\n(:init (ontop a.n.01_1 a.n.01_1))\n(:goal (forall (?x - a.n.01) (cooked ?x))))", []byte{1, 2, 3, 17, 3, 9, 2, 18, 0, 5})
	f.Add("", []byte{1, 0, 0, 0, 27})
	f.Fuzz(func(t *testing.T, text string, ops []byte) {
		if len(text) > 2048 || len(ops) > 64 {
			return
		}
		s := newServer(Options{Debounce: -1}, nopWriter{})
		s.inited = true
		s.utf8 = len(ops) > 0 && ops[0]&1 == 1
		const uri = "file:///fuzz/problem0.bddl"
		s.didOpen(mustJSON(t, didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: text}}))
		doc := s.docs[uri]
		if doc == nil {
			t.Fatal("the document was not opened")
		}
		for i := 1; i+4 <= len(ops); i += 4 {
			start := position{Line: int(ops[i]) % (len(doc.lines) + 1), Character: int(ops[i+1] % 64)}
			end := doc.position(doc.offset(start) + int(ops[i+2]%16))
			s.didChange(mustJSON(t, didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: i + 1},
				ContentChanges: []contentChange{{Range: &lspRange{Start: start, End: end}, Text: fragments[int(ops[i+3])%len(fragments)]}}}))
			doc = s.docs[uri]
		}
		checkDocument(t, doc)
		for _, d := range s.diagnose(doc) {
			checkRange(t, doc, d.Range)
		}
		// Every request at a few positions.
		var positions []position
		for i := 0; i+1 < len(ops) && len(positions) < 3; i += 2 {
			positions = append(positions, position{Line: int(ops[i]) % (len(doc.lines) + 1), Character: int(ops[i+1] % 80)})
		}
		if len(positions) == 0 {
			positions = append(positions, position{})
		}
		ctx := context.Background()
		for i, p := range positions {
			params := map[string]any{"textDocument": map[string]any{"uri": uri}, "position": p, "newName": "renamed",
				"context": map[string]any{"includeDeclaration": true}, "range": lspRange{Start: position{}, End: p}}
			raw := mustJSON(t, params)
			for method, h := range handlers {
				if i > 0 && wholeDocument[method] {
					continue // the same answer at every position
				}
				res, _ := h(s, ctx, doc, raw)
				b, err := json.Marshal(res)
				if err != nil {
					t.Fatalf("%s: %v", method, err)
				}
				checkRanges(t, doc, method, b)
			}
		}
	})
}

// wholeDocument are the requests whose answer does not depend on a
// position.
var wholeDocument = map[string]bool{
	"textDocument/documentSymbol": true, "textDocument/formatting": true, "textDocument/semanticTokens/full": true, "textDocument/rangeFormatting": true,
}

// checkDocument: positions convert to offsets and back at every rune
// boundary (but between the CR and LF of a line break, which is no
// position).
func checkDocument(t *testing.T, doc *document) {
	for off := 0; off <= len(doc.text); off++ {
		if off < len(doc.text) && !utf8.RuneStart(doc.text[off]) {
			continue
		}
		if off > 0 && off < len(doc.text) && doc.text[off-1] == '\r' && doc.text[off] == '\n' {
			continue
		}
		if r, size := utf8.DecodeLastRuneInString(doc.text[:off]); r == utf8.RuneError && size == 1 {
			continue // after a byte that is not UTF-8: JSON made it U+FFFD
		}
		if got := doc.offset(doc.position(off)); got != off {
			t.Fatalf("offset(position(%d)) = %d in %q", off, got, doc.text)
		}
	}
}

func checkRange(t *testing.T, doc *document, r lspRange) {
	t.Helper()
	for _, p := range []position{r.Start, r.End} {
		if p.Line < 0 || p.Line >= len(doc.lines) || p.Character < 0 {
			t.Fatalf("range %+v outside the document (%d lines)", r, len(doc.lines))
		}
	}
	if r.End.Line < r.Start.Line || r.End.Line == r.Start.Line && r.End.Character < r.Start.Character {
		t.Fatalf("range %+v ends before it starts", r)
	}
}

// checkRanges checks every "range" object in a JSON answer.
func checkRanges(t *testing.T, doc *document, method string, b []byte) {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, c := range x {
				if k == "range" || k == "selectionRange" {
					var r lspRange
					rb, _ := json.Marshal(c)
					if err := json.Unmarshal(rb, &r); err != nil {
						t.Fatalf("%s: a range %s: %v", method, rb, err)
					}
					checkRange(t, doc, r)
					continue
				}
				walk(c)
			}
		case []any:
			for _, c := range x {
				walk(c)
			}
		}
	}
	walk(v)
}
