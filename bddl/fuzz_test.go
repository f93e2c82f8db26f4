package bddl

import (
	"bytes"
	"path/filepath"
	"testing"
)

// fuzzSnippets are small corpus-like inputs: valid definitions and the
// ways they break.
var fuzzSnippets = []string{
	"",
	"(",
	")",
	"(define",
	"(define (problem p)",
	"(define (problem p) (:domain omnigibson) (:objects a.n.01_1 - a.n.01) (:init (cooked a.n.01_1)) (:goal (and (cooked ?a.n.01_1))))",
	"(define (domain d) (:requirements :strips :adl) (:predicates (cooked ?obj1) (ontop ?obj1 ?obj2)))",
	"(define (problem p) (:goal (forall (?x - a.n.01) (exists (?y - b.n.01) (or (ontop ?x ?y) (not (imply (p ?x) (q ?y))))))))",
	"(define (problem p) (:goal (and (forn (2) (?x - a.n.01) (p ?x)) (fornpairs (1) (?x - a.n.01) (?y - b.n.01) (p ?x ?y)) (forpairs (?x - a.n.01) (?y - b.n.01) (p ?x ?y)))))",
	"(define (problem p) (:objects t.n.02_1 t.n.02_* - t.n.02) (:init (inroom t.n.02_* kitchen)))",
	"(DEFINE (PROBLEM P) (:GOAL (AND (NOT (P A)))))",
	"(define (problem p) ; c\n (:init ; (\n (p a) ; )\n) ; x\n) ; y",
	"(define (problem p)\r\n (:init (p a))\r\n)\r\n",
	"(define (problem p) (:init (p a)))\\",
	"(define (problem p) (:init (p a)) \xff (:goal (p \xfe)))",
	"(define (problem p) (:objects - a.n.01 b.n.01_1 - ) (:init))",
	"(define (problem p) (:goal (forn (x) (?a) (?b - ))))",
	"(define (problem p) (:goal ()))",
	"(define (problem p) (:foo (bar)) (:init (p a)) (:init (q b)))",
	"(define (problem p) (:init (p a))) (:goal (q b)))",
	"(define (problem p) (:goal (and (and (and (and (and (p a))))))))",
	"(define (problem p) (:goal (p ?)) (:init (? a) (: b) (- c)))",
	"(define (problem p) (:goal (forall (? - a) (p ?))))",
	"(define (problem café) (:goal (p café.n.01_1)))",
}

// FuzzParse checks, on any input, that ParseFile does not panic, that
// every diagnostic points inside the source, and that a file without errors
// formats to text that parses to the same tree and formats to itself.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSnippets {
		f.Add([]byte(s))
	}
	for _, pattern := range []string{"testdata/parse/*.bddl", "testdata/errors/*.bddl", "testdata/diag/*.bddl", "testdata/format/*.input"} {
		files, _ := filepath.Glob(pattern)
		for _, file := range files {
			f.Add(readT(f, file))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) < 4096 { // the grammar of record is slow on long inputs
			checkHeaderAgrees(t, src)
		}
		file, diags := ParseFile("fuzz.bddl", src)
		if file == nil {
			t.Fatal("ParseFile returned a nil *File")
		}
		// A Reference-mode read only relaxes: it never fails where the
		// strict read succeeds, and its tree stays inside the source.
		for _, opts := range []Options{{Mode: Reference}, {Mode: Reference, Goal: AllGoalFormulas}} {
			ref, refDiags := opts.ParseFile("fuzz.bddl", src)
			checkRanges(t, src, refDiags)
			checkNodeRanges(t, src, ref)
			if !diags.HasErrors() && refDiags.HasErrors() {
				t.Fatalf("Reference-mode read fails where the strict one does not:\n%s\ninput %q", brief(refDiags), src)
			}
		}
		checkRanges(t, src, diags)
		checkNodeRanges(t, src, file)
		if diags.HasErrors() {
			return
		}
		if file.Problem == nil && file.Domain == nil {
			t.Fatalf("ParseFile gave neither a tree nor an error")
		}
		out := Format(file)
		file2, diags2 := ParseFile("fuzz.bddl", out)
		if diags2.HasErrors() {
			t.Fatalf("Format output does not parse:\n%s\ninput:\n%q\noutput:\n%s", brief(diags2), src, out)
		}
		if a, b := treeOf(file), treeOf(file2); a != b {
			t.Fatalf("Format changed the tree:\ninput %q\nbefore:\n%s\nafter:\n%s", src, a, b)
		}
		if a, b := commentTexts(file), commentTexts(file2); len(a) != len(b) {
			t.Fatalf("Format changed the number of comments from %d to %d\ninput %q", len(a), len(b), src)
		}
		if again := Format(file2); !bytes.Equal(out, again) {
			t.Fatalf("Format is not idempotent on %q:\nonce:\n%s\ntwice:\n%s", src, out, again)
		}
	})
}

// checkNodeRanges checks that every formula node of a problem, whole or
// partial, has a range inside the source.
func checkNodeRanges(t *testing.T, src []byte, f *File) {
	t.Helper()
	p := f.Problem
	if p == nil {
		return
	}
	visit := func(n Formula) bool {
		r := n.Info().Range
		if r.Start.Offset < 0 || r.Start.Offset > r.End.Offset || int(r.End.Offset) > len(src) {
			t.Fatalf("node %s has range %+v outside the %d-byte source %q", String(n), r, len(src), src)
		}
		return true
	}
	for _, x := range p.Init {
		Inspect(x, visit)
	}
	Inspect(p.Goal, visit)
}
