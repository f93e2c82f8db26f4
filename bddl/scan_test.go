package bddl

import (
	"strings"
	"testing"
)

// scanBoth scans src with the parser's fast loop (scanTokens, window by
// window) and with the general scanner (scanInto, token by token), which
// must agree on every token and every comment.
func scanBoth(t *testing.T, src []byte) {
	t.Helper()
	slow := newScanner("s.bddl", src)
	slow.header = false
	fast := newScanner("f.bddl", src)
	fast.header = false
	window := make([]token, 0, lookahead+3) // tiny, to cross refills
	for i := 0; ; i++ {
		window = fast.scanTokens(window[:0])
		for _, r := range window {
			want := slow.scan()
			if r != want || fast.text(r) != slow.text(want) {
				t.Fatalf("%q: token %d: fast %+v %q, general %+v %q", src, i, r, fast.text(r), want, slow.text(want))
			}
			if r.typ == tokEOF {
				if len(*fast.comments) != len(*slow.comments) {
					t.Fatalf("%q: %d comments, general scanner %d", src, len(*fast.comments), len(*slow.comments))
				}
				for k := range *fast.comments {
					if (*fast.comments)[k] != (*slow.comments)[k] {
						t.Fatalf("%q: comment %d: %+v, general %+v", src, k, (*fast.comments)[k], (*slow.comments)[k])
					}
				}
				return
			}
		}
	}
}

func TestScanTokensAgreesWithScanner(t *testing.T) {
	t.Parallel()
	var inputs []string
	// Blank runs of every length around the eight-byte word, at the end
	// of input and before a token.
	for n := 0; n <= 20; n++ {
		blanks := strings.Repeat(" ", n)
		inputs = append(inputs, blanks, blanks+"x", "x"+blanks, "(a"+blanks+"b)"+blanks, "\n"+blanks+"(ontop ?x ?y)\n")
	}
	inputs = append(inputs,
		"(define (problem p) (:objects a.n.01_1 - a.n.01) (:init) (:goal (and)))",
		"; comment\n(x) ; tail  \r\n\t(y)",
		"-x - -- ?:a :b ?",
		"caf\u00e9.n.01_1 \u00e9t\u00e9 \xff\xfe (x)",
		"\xEF\xBB\xBF(define)",
		"a\\b )\\ (",
	)
	for _, in := range inputs {
		scanBoth(t, []byte(in))
	}
}

// FuzzScanTokens holds the parser's fast scanning loop to the general
// scanner on any input.
func FuzzScanTokens(f *testing.F) {
	for _, s := range []string{"", "        ", "(a  b)\n    (c)", "; x\n-y ?z :w", "\xff(é)"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { scanBoth(t, src) })
}

func TestIsConnectiveHead(t *testing.T) {
	t.Parallel()
	for _, w := range []string{"and", "or", "not", "imply", "forall", "exists", "forn", "forpairs", "fornpairs", "define", "problem", "domain"} {
		if !isConnectiveHead(w) {
			t.Errorf("isConnectiveHead(%q) = false", w)
		}
	}
	for _, w := range []string{"", "o", "ontop", "inside", "nextto", "forallx", "an", "fornpair", "domains", "cooked", "AND"} {
		if isConnectiveHead(w) {
			t.Errorf("isConnectiveHead(%q) = true", w)
		}
	}
}
