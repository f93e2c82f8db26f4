package predicates

import (
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

// A direct reading of a definition, written independently of the
// compiler: a recursive walk of the parsed formula over a closed world
// of boolean facts, following the reference's rules (existence gating,
// exactly-N, the pair cover test with position-based columns).
type naiveWorld struct {
	instances map[string][]string // synset → declared instances, in order
	objects   map[string]bool
	exists    map[string]bool
	facts     map[string]bool // "pred a b"
}

func newNaiveWorld(p *bddl.Problem) *naiveWorld {
	w := &naiveWorld{instances: map[string][]string{}, objects: map[string]bool{}, exists: map[string]bool{}, facts: map[string]bool{}}
	for _, d := range p.Objects {
		for _, inst := range d.Instances {
			w.instances[d.Type.Key()] = append(w.instances[d.Type.Key()], inst.Key())
			w.objects[inst.Key()] = true
			w.exists[inst.Key()] = true
		}
	}
	return w
}

func (w *naiveWorld) args(a *bddl.Atom, scope map[string]string) []string {
	out := make([]string, len(a.Args))
	for i, t := range a.Args {
		if v, ok := scope[t.Key()]; ok && t.Kind == bddl.VariableTerm {
			out[i] = v
		} else {
			out[i] = t.Key()
		}
	}
	return out
}

func (w *naiveWorld) key(pred string, args []string) string {
	return pred + " " + strings.Join(args, " ")
}

func (w *naiveWorld) eval(f bddl.Formula, scope map[string]string) bool {
	switch n := f.(type) {
	case *bddl.Atom:
		args := w.args(n, scope)
		switch n.Pred.Key() {
		case "insource":
			return true
		case "future":
			return !w.exists[args[0]]
		case "real":
			return w.exists[args[0]]
		}
		for _, a := range args {
			if w.objects[a] && !w.exists[a] {
				return false
			}
		}
		// A kinematic relation never holds of an object and itself
		// ((touching ?x ?x_1) with ?x bound to x_1), whatever is recorded.
		if id, ok := PredByName(n.Pred.Key()); ok && id.Irreflexive() && len(args) == 2 && args[0] == args[1] {
			return false
		}
		return w.facts[w.key(n.Pred.Key(), args)]
	case *bddl.Not:
		return !w.eval(n.X, scope)
	case *bddl.And:
		for _, x := range n.Xs {
			if !w.eval(x, scope) {
				return false
			}
		}
		return true
	case *bddl.Or:
		for _, x := range n.Xs {
			if w.eval(x, scope) {
				return true
			}
		}
		return false
	case *bddl.Imply:
		return !w.eval(n.If, scope) || w.eval(n.Then, scope)
	case *bddl.Quant:
		bind := func(v bddl.VarDecl, obj string) map[string]string {
			s2 := map[string]string{}
			for k, x := range scope {
				s2[k] = x
			}
			s2[v.Var.Key()] = obj
			return s2
		}
		switch n.Kind {
		case bddl.Forall, bddl.Exists, bddl.ForN:
			count, total := 0, 0
			for _, o := range w.instances[n.Vars[0].Type.Key()] {
				total++
				if w.eval(n.Body, bind(n.Vars[0], o)) {
					count++
				}
			}
			switch n.Kind {
			case bddl.Forall:
				return count == total
			case bddl.Exists:
				return count > 0
			}
			return count == n.N
		default:
			rows := w.instances[n.Vars[0].Type.Key()]
			cols := w.instances[n.Vars[1].Type.Key()]
			rowHits, width := 0, -1
			colHit := map[int]bool{}
			for _, r := range rows {
				pos, hit := 0, false
				for _, c := range cols {
					if r == c {
						continue
					}
					s2 := bind(n.Vars[0], r)
					s2[n.Vars[1].Var.Key()] = c
					if w.eval(n.Body, s2) {
						hit = true
						colHit[pos] = true
					}
					pos++
				}
				if width < 0 {
					width = pos
				}
				if hit {
					rowHits++
				}
			}
			need := n.N
			if n.Kind == bddl.ForPairs {
				need = min(len(rows), max(width, 0))
			}
			return rowHits >= need && len(colHit) >= need
		}
	}
	return false
}

// groundAtoms lists every ground atom a formula can read.
func (w *naiveWorld) groundAtoms(f bddl.Formula, scope map[string]string, out map[string][2]any) {
	switch n := f.(type) {
	case *bddl.Atom:
		args := w.args(n, scope)
		out[w.key(n.Pred.Key(), args)] = [2]any{n.Pred.Key(), args}
	case *bddl.Quant:
		var rec func(i int, s map[string]string)
		rec = func(i int, s map[string]string) {
			if i == len(n.Vars) {
				w.groundAtoms(n.Body, s, out)
				return
			}
			for _, o := range w.instances[n.Vars[i].Type.Key()] {
				s2 := map[string]string{}
				for k, v := range s {
					s2[k] = v
				}
				s2[n.Vars[i].Var.Key()] = o
				rec(i+1, s2)
			}
		}
		rec(0, scope)
	default:
		for _, x := range bddl.Operands(f) {
			w.groundAtoms(x, scope, out)
		}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// hasWildcard reports whether a problem declares a wildcard instance;
// the naive reader does not expand them.
func hasWildcard(p *bddl.Problem) bool {
	for _, d := range p.Objects {
		for _, inst := range d.Instances {
			if bddl.IsWildcard(inst.Key()) {
				return true
			}
		}
	}
	return false
}

// TestCorpusLoadsAsReference checks that every corpus definition the
// Python reference loads (all of them) is read by a Reference-mode parse
// without error and compiles against the corpus's knowledge base.
func TestCorpusLoadsAsReference(t *testing.T) {
	acts, base := loadCorpus(t)
	for _, msg := range corpusRefused {
		t.Errorf("refused: %s", msg)
	}
	for _, a := range acts {
		if _, err := Compile(a.problem, base, Options{}); err != nil {
			t.Errorf("%s: Compile: %v", a.path, err)
		}
	}
	if len(acts) == 0 {
		t.Fatal("no corpus definitions")
	}
}

// TestCorpusGoalOnInit evaluates every corpus goal on the closed-world
// state of its own :init and on random closed-world states, and compares
// with the direct reading; :init must hold on its own state.
func TestCorpusGoalOnInit(t *testing.T) {
	acts, base := loadCorpus(t)
	rng := rand.New(rand.NewPCG(1, 2))
	compiled := 0
	for _, a := range acts {
		p, err := Compile(a.problem, base, Options{})
		if err != nil {
			// A few corpus files carry real defects (a duplicate instance);
			// the compiler must say where.
			if _, ok := bddl.AsDiagnostics(err); !ok {
				t.Errorf("%s: Compile error is not positioned: %v", a.name, err)
			}
			continue
		}
		compiled++
		s := p.InitState()
		if v := p.EvalInit(s); v != True {
			t.Errorf("%s: EvalInit on its own init state = %v, want true\n%v", a.name, v, p.ExplainInit(s).Reasons())
		}
		if strict, err := Compile(a.problem, base, Options{Negation: StrictNegation}); err != nil {
			t.Errorf("%s: strict Compile: %v", a.name, err)
		} else if v := strict.EvalInit(strict.InitState()); v != True {
			t.Errorf("%s: strict EvalInit on its own init state = %v, want true", a.name, v)
		}
		if hasWildcard(a.problem) {
			continue
		}
		w := newNaiveWorld(a.problem)
		for _, f := range a.problem.Init {
			lit, neg := f, false
			if n, ok := f.(*bddl.Not); ok {
				lit, neg = n.X, true
			}
			at := lit.(*bddl.Atom)
			args := w.args(at, nil)
			switch at.Pred.Key() {
			case "future":
				w.exists[args[0]] = neg
			case "real":
				w.exists[args[0]] = !neg
			default:
				w.facts[w.key(at.Pred.Key(), args)] = !neg
			}
		}
		want := TruthOf(w.eval(a.problem.Goal, nil))
		if got := p.Eval(s); got != want {
			t.Errorf("%s: Eval(init state) = %v, direct reading %v", a.name, got, want)
		}

		// Random closed worlds over the goal's own atoms.
		atoms := map[string][2]any{}
		w.groundAtoms(a.problem.Goal, nil, atoms)
		for trial := 0; trial < 4; trial++ {
			w2 := newNaiveWorld(a.problem)
			s2 := p.NewState()
			s2.SetClosedWorld(true)
			for _, name := range sortedKeys(w2.objects) {
				e := rng.Float64() < 0.9
				w2.exists[name] = e
				_ = s2.SetExists(id(t, p, name), e)
			}
			for _, key := range sortedKeys(atoms) {
				at := atoms[key]
				v := rng.Float64() < 0.6
				w2.facts[key] = v
				pr, args := pred(t, at[0].(string)), at[1].([]string)
				b := NoObject
				if len(args) == 2 {
					b = id(t, p, args[1])
				}
				_ = s2.SetFact(pr, id(t, p, args[0]), b, TruthOf(v))
			}
			want := TruthOf(w2.eval(a.problem.Goal, nil))
			if got := p.Eval(s2); got != want {
				t.Errorf("%s: Eval(random closed world %d) = %v, direct reading %v", a.name, trial, got, want)
				break
			}
			if got := p.Explain(s2).Value; got != want {
				t.Errorf("%s: Explain(random closed world %d) = %v, direct reading %v", a.name, trial, got, want)
			}
		}
	}
	if compiled < len(acts)*9/10 {
		t.Errorf("only %d of %d corpus activities compiled", compiled, len(acts))
	}
}

// TestMonotonicity: learning a missing value never flips a known result
// (SEMANTICS.md A1). Random open-world states over each corpus goal's
// atoms; one unknown fact or existence at a time becomes known.
func TestMonotonicity(t *testing.T) {
	acts, base := loadCorpus(t)
	rng := rand.New(rand.NewPCG(3, 4))
	for ai, a := range acts {
		if ai%3 != 0 || hasWildcard(a.problem) {
			continue // a third of the corpus keeps the test quick
		}
		for _, opts := range []Options{{}, {Negation: StrictNegation, StrictPairs: true}} {
			p, err := Compile(a.problem, base, opts)
			if err != nil {
				continue
			}
			w := newNaiveWorld(a.problem)
			atoms := map[string][2]any{}
			w.groundAtoms(a.problem.Goal, nil, atoms)
			type fact struct {
				pred PredID
				a, b ObjectID
			}
			var facts []fact
			for _, key := range sortedKeys(atoms) {
				at := atoms[key]
				if name := at[0].(string); name == "real" || name == "future" {
					continue // these read existence, which the test varies itself
				}
				pr, args := pred(t, at[0].(string)), at[1].([]string)
				b := NoObject
				if len(args) == 2 {
					b = id(t, p, args[1])
				}
				facts = append(facts, fact{pr, id(t, p, args[0]), b})
			}
			s := p.NewState()
			for o := 0; o < p.NumObjects(); o++ {
				if rng.Float64() < 0.8 {
					_ = s.SetExists(ObjectID(o), rng.Float64() < 0.9)
				}
			}
			for _, f := range facts {
				if rng.Float64() < 0.5 {
					_ = s.SetFact(f.pred, f.a, f.b, truths[1+rng.IntN(2)])
				}
			}
			prev := p.Eval(s)
			for step := 0; step < 30; step++ {
				if rng.IntN(4) == 0 || len(facts) == 0 {
					o := ObjectID(rng.IntN(p.NumObjects()))
					if s.Exists(o) != Unknown {
						continue
					}
					_ = s.SetExists(o, rng.IntN(2) == 0)
				} else {
					f := facts[rng.IntN(len(facts))]
					if s.Fact(f.pred, f.a, f.b) != Unknown {
						continue
					}
					_ = s.SetFact(f.pred, f.a, f.b, truths[1+rng.IntN(2)])
				}
				cur := p.Eval(s)
				if prev.Known() && cur != prev {
					t.Fatalf("%s (%v negation): learning a value flipped the goal from %v to %v", a.name, opts.Negation, prev, cur)
				}
				prev = cur
			}
		}
	}
}
