package transitions

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

var b1k struct {
	sync.Once
	base *kb.Base
	err  error
}

// behavior1k loads the BEHAVIOR-1K knowledge base of the corpus once.
func behavior1k(t testing.TB) *kb.Base {
	t.Helper()
	dir := corpus.KBDir(t) // skips before the Once, never inside it
	b1k.Do(func() { b1k.base, b1k.err = kb.Load(dir) })
	if b1k.base == nil {
		t.Fatalf("loading the BEHAVIOR-1K knowledge base: %v", b1k.err)
	}
	return b1k.base
}

// ruleCoverage counts what TestEveryRule checked.
type ruleCoverage struct {
	rules, positives, negatives, neverFires, shadowed int
	byFamily                                          map[Family]int
	byVariant                                         map[Variant]int
}

// checkEveryRule builds, for every rule of the base, the positive sample
// and every negative variant that applies, and checks each.
func checkEveryRule(t *testing.T, base *kb.Base) ruleCoverage {
	cov := ruleCoverage{byFamily: map[Family]int{}, byVariant: map[Variant]int{}}
	rules := Rules(base)
	for i, r := range rules {
		cov.rules++
		cov.byFamily[r.Family]++
		t.Run(string(r.Family)+"/"+r.Name, func(t *testing.T) {
			res, err := Sample(base, r, SampleOptions{Seed: uint64(i)})
			if errors.Is(err, ErrNeverFires) {
				cov.neverFires++
				if r.Family == Washer {
					checkNeverRemoved(t, base, r)
				} else {
					checkNeverActive(t, base, i, r)
				}
				cov.negatives++
				return
			}
			if err != nil {
				t.Fatalf("sample: %v", err)
			}
			if shadow, ok := shadowedBy(res, i); ok {
				// An earlier recipe of the file takes the same inputs:
				// the first executable recipe fires (B §4.1). Check the
				// recipe alone.
				cov.shadowed++
				t.Logf("shadowed by the earlier recipe %s", shadow)
				res, err = Sample(base, r, SampleOptions{Seed: uint64(i), Alone: true})
				if err != nil {
					t.Fatalf("sample alone: %v", err)
				}
			}
			checkPositive(t, i, res)
			cov.positives++
			for _, v := range Variants()[1:] {
				neg, err := Sample(base, r, SampleOptions{Seed: uint64(i), Variant: v})
				if errors.Is(err, ErrNotApplicable) {
					continue
				}
				if err != nil {
					t.Fatalf("%s: sample: %v", v, err)
				}
				checkNegative(t, i, neg)
				cov.negatives++
				cov.byVariant[v]++
			}
		})
	}
	return cov
}

func (c ruleCoverage) String() string {
	return fmt.Sprintf("%d rules: %d positive cases (%d of recipes shadowed by an earlier one, checked alone), %d negative cases (%d rules that never fire); by family %v; negatives by variant %v",
		c.rules, c.positives, c.shadowed, c.negatives, c.neverFires, c.byFamily, c.byVariant)
}

// shadowedBy reports an earlier recipe of the same family that fired in
// the sample's container instead of rule index.
func shadowedBy(res *SampleResult, index int) (string, bool) {
	if _, ok := firingOf(res.Outcome, index); ok {
		return "", false
	}
	for _, f := range res.Outcome.Firings {
		if f.Family == res.Rule.Family && f.RuleIndex >= 0 && f.RuleIndex < index && f.Container == res.Container {
			return f.Rule, true
		}
	}
	return "", false
}

func firingOf(out Outcome, index int) (Firing, bool) {
	for _, f := range out.Firings {
		if f.RuleIndex == index {
			return f, true
		}
	}
	return Firing{}, false
}

func sameSet(a, b []ObjectID) bool {
	a, b = slices.Clone(a), slices.Clone(b)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}

func checkPositive(t *testing.T, index int, res *SampleResult) {
	t.Helper()
	p := res.Program
	name := func(ids []ObjectID) []string {
		var out []string
		for _, id := range ids {
			out = append(out, p.Name(id))
		}
		return out
	}
	for _, f := range res.Early {
		if f.RuleIndex == index {
			t.Fatalf("fired before the trigger step\n%s", res.Definition)
		}
	}
	f, ok := firingOf(res.Outcome, index)
	if !ok {
		t.Fatalf("did not fire; firings %+v\n%s", res.Outcome.Firings, res.Definition)
	}
	r := res.Rule
	after := res.After
	switch r.Family {
	case Washer:
		if !sameSet(f.ConsumedSubstances, res.InputSubstances) {
			t.Errorf("the washer emptied %v from its drum, want %v", name(f.ConsumedSubstances), name(res.InputSubstances))
		}
		for _, sub := range res.InputSubstances {
			if !slices.ContainsFunc(res.Outcome.Changes, func(c Change) bool {
				return c.Kind == ChangeFact && c.Pred == pCovered && c.Object == res.Item && c.Arg == sub && c.Value == predicates.False
			}) {
				t.Errorf("washer did not clean %s off %s", p.Name(sub), p.Name(res.Item))
			}
		}
	case Dryer:
		for _, sub := range res.InputSubstances {
			if p.Atom(after, pSaturated, res.Item, sub) != predicates.False {
				t.Errorf("dryer left %s saturated with %s", p.Name(res.Item), p.Name(sub))
			}
		}
	default:
		if !sameSet(f.Consumed, res.Inputs) {
			t.Errorf("consumed %v, want the inputs %v", name(f.Consumed), name(res.Inputs))
		}
		for _, o := range res.Inputs {
			if after.Exists(o) != predicates.False {
				t.Errorf("input %s still exists", p.Name(o))
			}
		}
		wantSys := res.InputSubstances
		if r.Family == HeatCook && len(r.Outputs) > 0 && !p.KB().IsSubstance(r.Outputs[0].Synset) && len(res.Inputs) > 0 {
			wantSys = nil // object recipes leave the seasonings (relaxed systems)
		}
		if !sameSet(f.ConsumedSubstances, wantSys) {
			t.Errorf("consumed substances %v, want %v", name(f.ConsumedSubstances), name(wantSys))
		}
		for _, sub := range f.ConsumedSubstances {
			produced := slices.ContainsFunc(f.Produced, func(pr Product) bool { return pr.Object == sub })
			if !produced && p.Atom(after, pContains, res.Container, sub) != predicates.False {
				t.Errorf("the container still contains %s", p.Name(sub))
			}
		}
		// Outputs: the right synsets, counts, bindings, states and places.
		k := 0
		for oi, out := range r.Outputs {
			subst := p.KB().IsSubstance(out.Synset)
			n := out.Count * f.Instances
			if subst {
				n = 1
			}
			for j := 0; j < n; j++ {
				if k >= len(f.Produced) {
					t.Fatalf("produced %d outputs, want more (%s × %d)", len(f.Produced), out.Name, n)
				}
				pr := f.Produced[k]
				k++
				if pr.Synset != out.Name || pr.Substance != subst {
					t.Errorf("output %d is %s, want %s", k, pr.Synset, out.Name)
				}
				if !slices.Contains(res.Outputs[oi], pr.Object) && !slices.Contains(res.Inputs, pr.Object) {
					t.Errorf("output %s bound to %s, not one of its instances %v", out.Name, pr.Name, name(res.Outputs[oi]))
					continue
				}
				if after.Exists(pr.Object) != predicates.True {
					t.Errorf("output %s does not exist", pr.Name)
				}
				for _, st := range r.OutputStates {
					pred, _ := predicates.PredByName(st.Predicate)
					if len(st.Args) == 1 && st.Args[0] == out.Synset && p.Atom(after, pred, pr.Object, NoObject) != predicates.TruthOf(st.Value) {
						t.Errorf("output %s: %s is not %v", pr.Name, st, st.Value)
					}
				}
				switch {
				case subst:
					if p.Atom(after, pContains, res.Container, pr.Object) != predicates.True {
						t.Errorf("the container does not contain the output %s", pr.Name)
					}
				case r.Family == Slicing:
					if p.Atom(after, pInside, pr.Object, res.Container) != predicates.True {
						t.Errorf("slice %s is not where the sliced object was (inside %s)", pr.Name, p.Name(res.Container))
					}
				default:
					if p.Atom(after, pOntop, pr.Object, res.Container) != predicates.True {
						t.Errorf("output %s is not on top of the container", pr.Name)
					}
				}
			}
		}
		if k != len(f.Produced) {
			t.Errorf("produced %d outputs, want %d", len(f.Produced), k)
		}
	}
	if v := p.Eval(after); v != predicates.True {
		t.Errorf("the sample's goal is %v after the rule fired\n%s", v, res.Definition)
	}
	if res.Steps[len(res.Steps)-1] == after {
		t.Errorf("After aliases the recorded state")
	}
}

func checkNegative(t *testing.T, index int, res *SampleResult) {
	t.Helper()
	if _, ok := firingOf(res.Outcome, index); ok {
		t.Errorf("%s: fired\n%s", res.Variant, res.Definition)
	}
	for _, f := range res.Early {
		if f.RuleIndex == index {
			t.Errorf("%s: fired before the last step", res.Variant)
		}
	}
	if res.Variant == ExtraInput && (res.Rule.Family == ToggleableMachine || res.Rule.Family == MixingStick) {
		if _, ok := firingOf(res.Outcome, -1); !ok {
			t.Errorf("%s: the garbage fallback did not fire", res.Variant)
		}
	}
}

// checkNeverRemoved checks a washer rule that never fires: a load covered
// with its substance comes out still covered.
func checkNeverRemoved(t *testing.T, base *kb.Base, r Rule) {
	t.Helper()
	r2 := r
	r2.Never = false
	res, err := Sample(base, r2, SampleOptions{})
	if err != nil {
		t.Fatalf("sample: %v", err)
	}
	eng, err := Compile(res.Program, base)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Steps {
		eng.Step(s)
	}
	last := res.Steps[len(res.Steps)-1]
	for _, sub := range res.InputSubstances {
		if res.Program.Atom(last, pCovered, res.Item, sub) != predicates.True {
			t.Errorf("the washer removed %s, which it never removes", res.Program.Name(sub))
		}
	}
}

// checkNeverActive checks that a derived rule over a substance is not
// among the rules an activity declaring that substance can fire.
func checkNeverActive(t *testing.T, base *kb.Base, index int, r Rule) {
	t.Helper()
	src := fmt.Sprintf("(define (problem p-0) (:domain omnigibson) (:objects %s_1 - %s) (:init) (:goal (real %s_1)))",
		r.Inputs[0].Name, r.Inputs[0].Name, r.Inputs[0].Name)
	prog := compileSrc(t, base, src)
	eng, err := Compile(prog, base)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(eng.ActiveRules(), index) {
		t.Errorf("rule %s over the substance %s is active", r.Name, r.Inputs[0].Name)
	}
}

func compileSrc(t testing.TB, base *kb.Base, src string) *predicates.Program {
	t.Helper()
	prob, diags := bddl.ParseProblem("test.bddl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog, err := predicates.Compile(prob, base, predicates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

func TestEveryRuleBehavior1K(t *testing.T) {
	base := behavior1k(t)
	cov := checkEveryRule(t, base)
	t.Log(cov)
}

func TestEveryRuleDefault(t *testing.T) {
	cov := checkEveryRule(t, kb.Default())
	t.Log(cov)
	if cov.positives == 0 {
		t.Fatal("the default knowledge base has no rule that fires")
	}
}
