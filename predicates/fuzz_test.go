package predicates

import (
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/corpus"
)

// FuzzCompileEval: any definition that parses either compiles or gets
// positioned diagnostics, and a compiled one evaluates, explains and
// scores on its init state and on a state with boxes, without panicking;
// every mode agrees.
func FuzzCompileEval(f *testing.F) {
	f.Add(cookieProblem)
	f.Add(problem(quantObjects, "", "(fornpairs (2) (?x - x.n.01) (?y - y.n.01) (or (ontop ?x ?y) (not (nextto ?y ?x))))"))
	f.Add(problem("a.n.01_1 a.n.01_* - a.n.01", "(inroom a.n.01_* kitchen)", "(forn (1) (?a - a.n.01) (not (imply (open ?a) (cooked ?a))))"))
	if l, ok := corpus.Find(); ok {
		files, _ := filepath.Glob(filepath.Join(l.Activities, "*", "problem0.bddl"))
		for _, name := range files[:min(20, len(files))] {
			if src, err := os.ReadFile(name); err == nil {
				f.Add(string(src))
			}
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		prob, diags := bddl.ParseProblem("fuzz.bddl", []byte(src))
		if prob == nil || diags.HasErrors() {
			return
		}
		var progs []*Program
		for _, opts := range []Options{{}, {Exhaustive: true}, {Negation: StrictNegation, StrictPairs: true}} {
			p, err := Compile(prob, nil, opts)
			if err != nil {
				if _, ok := bddl.AsDiagnostics(err); !ok && prob != nil {
					t.Fatalf("Compile error is not diagnostics: %v", err)
				}
				return
			}
			progs = append(progs, p)
		}
		if progs[0].NumIDs() > 200 {
			return
		}
		for i, p := range progs {
			s := p.InitState()
			geo := p.NewState()
			geo.SetAllExist(true)
			for o := 0; o < p.NumObjects(); o++ {
				x := float64(o) * 0.3
				_ = geo.SetAABB(ObjectID(o), bx(x, 0, 0, x+0.5, 0.5, 0.5))
				_ = geo.SetMaxTemperature(ObjectID(o), math.Mod(float64(o)*37, 120))
			}
			for _, st := range []*State{s, geo} {
				v := p.Eval(st)
				if tr := p.Explain(st); tr.Value != v {
					t.Fatalf("Explain = %v, Eval = %v", tr.Value, v)
				}
				if i == 1 {
					if v0 := progs[0].Eval(st); v0 != v {
						t.Fatalf("exhaustive %v, short-circuit %v", v, v0)
					}
				}
				p.EvalInit(st)
				// The values a step's result reads equal the scores', from
				// the other state as baseline, with a memo fixed on it.
				other := geo
				if st == geo {
					other = s
				}
				sc, err := p.Scores(st, other)
				var memo ScoreMemo
				if ferr := memo.FixBaseline(p, other); (ferr == nil) != (err == nil) {
					t.Fatalf("FixBaseline: %v; Scores: %v", ferr, err)
				}
				success := Unknown
				if err == nil {
					success = sc.Success
				}
				lib, chal, verr := p.ScoreValues(st, other, &memo, success)
				if (verr == nil) != (err == nil) || err == nil && (lib != sc.Library.Value || chal != sc.Challenge.Value) {
					t.Fatalf("ScoreValues = %v, %v, %v; Scores %+v, %v", lib, chal, verr, sc, err)
				}
			}
			_, _ = p.GroundOptionCount()
			n := 0
			for range p.GroundOptions(10) {
				n++
			}
		}
	})
}
