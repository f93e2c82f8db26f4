package bddl

import (
	"testing"
)

// grammarHeader parses src with the participle grammar of record and
// returns the header it read, or ok=false when the grammar rejects it.
func grammarHeader(src []byte) (kind, name string, ok bool) {
	g, err := fileParser().ParseBytes("grammar.bddl", src)
	if err != nil || g == nil || g.Name == nil {
		return "", "", false
	}
	return Fold(g.Kind), g.Name.Value, true
}

// handHeader parses src's header with the hand-written fast path.
func handHeader(src []byte) (kind, name string, ok bool) {
	sc := newScanner("hand.bddl", src)
	sc.header = false
	p := &sectionParser{arena: &arena{}}
	p.start(sc, nil)
	h, d := p.header()
	if d != nil {
		return "", "", false
	}
	return h.kind, h.nameText, true
}

// checkHeaderAgrees holds the hand-written header parser to the grammar of
// record on one input.
func checkHeaderAgrees(t *testing.T, src []byte) {
	t.Helper()
	gk, gn, gok := grammarHeader(src)
	hk, hn, hok := handHeader(src)
	if gk != hk || gn != hn || gok != hok {
		t.Fatalf("header of %q: grammar (%q, %q, %v), hand-written (%q, %q, %v)", src, gk, gn, gok, hk, hn, hok)
	}
}

func TestHeaderMatchesGrammar(t *testing.T) {
	inputs := append([]string{
		"(define (problem p))", "(DEFINE (Domain D) (:predicates))", "(define (problem))",
		"(define problem p)", "(definex (problem p))", "((define (problem p)))", "(define (problem p q))",
		"(define (task p))", "(define", "define", "\\(define (problem p))", "(define (problem ?p))",
		"(define (problem :p))", "; c\n(define ; d\n (problem\n p) )", "(define (problem p) \xff",
		"(define (problem define))", "(define (problem p)(:init))",
	}, fuzzSnippets...)
	for _, s := range inputs {
		checkHeaderAgrees(t, []byte(s))
	}
}
