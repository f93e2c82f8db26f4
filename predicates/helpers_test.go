package predicates

import (
	"flag"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// mustCompile parses and compiles a problem written in a test.
func mustCompile(tb testing.TB, src string, opts Options) *Program {
	tb.Helper()
	prob, diags := bddl.ParseProblem("test.bddl", []byte(src))
	if diags.HasErrors() {
		tb.Fatalf("parse: %v", diags)
	}
	p, err := Compile(prob, nil, opts)
	if err != nil {
		tb.Fatalf("compile: %v", err)
	}
	return p
}

// problem wraps objects and a goal into a problem file.
func problem(objects, init, goal string) string {
	return "(define (problem t-0) (:domain omnigibson) (:objects " + objects + ") (:init " + init + ") (:goal " + goal + "))"
}

func id(tb testing.TB, p *Program, name string) ObjectID {
	tb.Helper()
	o, ok := p.ObjectID(name)
	if !ok {
		tb.Fatalf("no object %s", name)
	}
	return o
}

func pred(tb testing.TB, name string) PredID {
	tb.Helper()
	p, ok := PredByName(name)
	if !ok {
		tb.Fatalf("no predicate %s", name)
	}
	return p
}

var truths = []Truth{Unknown, False, True}

// completions calls fn with every boolean completion of vals (Unknown
// entries replaced by both False and True).
func completions(vals []Truth, fn func([]bool)) {
	bools := make([]bool, len(vals))
	var rec func(i int)
	rec = func(i int) {
		if i == len(vals) {
			fn(bools)
			return
		}
		switch vals[i] {
		case True:
			bools[i] = true
			rec(i + 1)
		case False:
			bools[i] = false
			rec(i + 1)
		default:
			bools[i] = false
			rec(i + 1)
			bools[i] = true
			rec(i + 1)
		}
	}
	rec(0)
}

// supervaluation is the three-valued reading of a monotone-or-not boolean
// rule: True if every completion holds, False if none does.
func supervaluation(vals []Truth, rule func([]bool) bool) Truth {
	sawT, sawF := false, false
	completions(vals, func(b []bool) {
		if rule(b) {
			sawT = true
		} else {
			sawF = true
		}
	})
	switch {
	case sawT && !sawF:
		return True
	case sawF && !sawT:
		return False
	}
	return Unknown
}

// assignments calls fn with every vector of n truth values.
func assignments(n int, fn func([]Truth)) {
	vals := make([]Truth, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			fn(vals)
			return
		}
		for _, t := range truths {
			vals[i] = t
			rec(i + 1)
		}
	}
	rec(0)
}
