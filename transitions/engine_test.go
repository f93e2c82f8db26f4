package transitions

import (
	"bytes"
	"fmt"
	"sync"
	"testing"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// miniKB is a knowledge base for the semantics tests: toast is bread that
// comes out of the oven as bread (so the output binds to the input's
// freed instance), and a fruit that is both sliceable and diceable.
const miniKB = `
synsets:
  entity.n.01: {}
  food.n.01: {parents: [entity.n.01], type: rigidBody}
  bread.n.01: {parents: [food.n.01], properties: [{cookable: {cook_temperature: 70.0}}], categories: [bread]}
  fig.n.01:
    parents: [food.n.01]
    properties:
      - {cookable: {cook_temperature: 60.0}}
      - {sliceable: {sliceable_derivative_synset: half__fig.n.01}}
      - {diceable: {uncooked_diceable_derivative_synset: diced__fig.n.01, cooked_diceable_derivative_synset: diced__fig.n.01}}
    categories: [fig]
  half__fig.n.01: {parents: [food.n.01], categories: [half_fig]}
  diced__fig.n.01: {parents: [entity.n.01], type: macroPhysicalSubstance, systems: [diced__fig]}
  knife.n.01: {parents: [entity.n.01], type: rigidBody, properties: [slicer], categories: [knife]}
  tray.n.01: {parents: [entity.n.01], type: rigidBody, properties: [fillable], categories: [tray]}
  oven.n.01:
    parents: [entity.n.01]
    type: rigidBody
    properties:
      - fillable
      - toggleable
      - openable
      - heatSource: {requires_toggled_on: true, requires_closed: true, requires_inside: true}
    categories: [oven]
transition_rules:
  heat_cook:
    - rule_name: toast
      input_synsets: {bread.n.01: 1}
      input_states: {bread.n.01: [[cooked, false]]}
      container: {tray.n.01: 1}
      heat_source: {oven.n.01: 1}
      output_synsets: {bread.n.01: 1}
      output_states: {bread.n.01: [[cooked, true]]}
      timesteps: 3
`

func loadMini(t testing.TB) *kb.Base {
	t.Helper()
	b, err := kb.LoadYAML("mini.yaml", []byte(miniKB))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const toastSrc = `(define (problem toast-0) (:domain omnigibson)
  (:objects bread.n.01_1 bread.n.01_2 - bread.n.01 tray.n.01_1 - tray.n.01 oven.n.01_1 - oven.n.01)
  (:init (future bread.n.01_2) (ontop bread.n.01_1 tray.n.01_1) (inside tray.n.01_1 oven.n.01_1))
  (:goal (cooked bread.n.01_1)))`

// toastState is the toast activity with the oven on or off.
func toastState(t testing.TB, prog *predicates.Program, on, open bool) *predicates.State {
	s := prog.InitState()
	oven, _ := prog.ObjectID("oven.n.01_1")
	_ = s.SetFact(pToggledOn, oven, NoObject, predicates.TruthOf(on))
	_ = s.SetFact(pOpen, oven, NoObject, predicates.TruthOf(open))
	return s
}

// TestRemovalsBeforeAdditions: the toast replaces the bread, and binds to
// the instance the bread freed (the first unbound one in :objects order),
// not to the future bread.n.01_2 (SEMANTICS.md §3.4).
func TestRemovalsBeforeAdditions(t *testing.T) {
	base := loadMini(t)
	prog := compileSrc(t, base, toastSrc)
	eng, err := Compile(prog, base)
	if err != nil {
		t.Fatal(err)
	}
	bread1, _ := prog.ObjectID("bread.n.01_1")
	bread2, _ := prog.ObjectID("bread.n.01_2")
	var out Outcome
	for k := 1; k <= 3; k++ {
		s := toastState(t, prog, true, false)
		out = eng.Step(s)
		if k < 3 && out.Fired() {
			t.Fatalf("fired at step %d of 3", k)
		}
		if k == 3 {
			if !out.Fired() {
				t.Fatal("did not fire after 3 steps")
			}
			f := out.Firings[0]
			if len(f.Consumed) != 1 || f.Consumed[0] != bread1 || len(f.Produced) != 1 || f.Produced[0].Object != bread1 {
				t.Fatalf("firing %+v: want bread.n.01_1 consumed and re-bound", f)
			}
			if s.Exists(bread1) != predicates.True || s.Exists(bread2) != predicates.False {
				t.Error("existence after the step is wrong")
			}
			// The output states land at the next rule step
			// (TransitionRuleAPI.step, obj_init_info).
			if prog.Atom(s, pCooked, bread1, NoObject) == predicates.True {
				t.Error("the toast is cooked on the step it was made")
			}
			eng.Flush(s)
			if prog.Atom(s, pCooked, bread1, NoObject) != predicates.True {
				t.Error("the toast is not cooked")
			}
			if prog.Eval(s) != predicates.True {
				t.Error("the goal does not hold")
			}
		}
	}
}

// TestHeatCounterResets: timesteps counts consecutive executable steps;
// opening the oven (it must be closed) starts the count again.
func TestHeatCounterResets(t *testing.T) {
	base := loadMini(t)
	prog := compileSrc(t, base, toastSrc)
	eng, _ := Compile(prog, base)
	seq := []struct {
		on, open, fires bool
	}{{true, false, false}, {true, false, false}, {true, true, false}, {true, false, false}, {true, false, false}, {false, false, false},
		{true, false, false}, {true, false, false}, {true, false, true}}
	for k, st := range seq {
		out := eng.Step(toastState(t, prog, st.on, st.open))
		if out.Fired() != st.fires {
			t.Fatalf("step %d: fired %v, want %v", k, out.Fired(), st.fires)
		}
	}
}

const figSrc = `(define (problem fig-0) (:domain omnigibson)
  (:objects fig.n.01_1 - fig.n.01 knife.n.01_1 - knife.n.01 tray.n.01_1 - tray.n.01)
  (:init (ontop fig.n.01_1 tray.n.01_1))
  (:goal (real fig.n.01_1)))`

// TestConsumedOnce: a fig is sliceable and diceable; slicing comes first
// in the fixed order, and dicing does not get the fig too. With no half
// instance declared, the halves get stable generated names.
func TestConsumedOnce(t *testing.T) {
	base := loadMini(t)
	prog := compileSrc(t, base, figSrc)
	eng, _ := Compile(prog, base)
	fig, _ := prog.ObjectID("fig.n.01_1")
	knife, _ := prog.ObjectID("knife.n.01_1")
	s := prog.InitState()
	_ = s.SetFact(pTouching, fig, knife, predicates.True)
	out := eng.Step(s)
	if len(out.Firings) != 1 || out.Firings[0].Family != Slicing {
		t.Fatalf("firings %+v, want one slicing", out.Firings)
	}
	got := []string{out.Firings[0].Produced[0].Name, out.Firings[0].Produced[1].Name}
	if got[0] != "half__fig.n.01_gen1" || got[1] != "half__fig.n.01_gen2" || out.Firings[0].Produced[0].Object != NoObject {
		t.Errorf("generated names %v", got)
	}
	if s.Exists(fig) != predicates.False {
		t.Error("the fig still exists")
	}
}

// TestSlicerRearms: a slicer that touched a sliceable slices again only
// after max(1, ⌈2.0 s / dt⌉) steps of touching none, and a touch before
// then restarts the count (slicer_active.py, _update_values).
func TestSlicerRearms(t *testing.T) {
	base := loadMini(t)
	prog := compileSrc(t, base, figSrc)
	eng, _ := Compile(prog, base)
	eng.SetDT(0.1) // 20 steps
	fig, _ := prog.ObjectID("fig.n.01_1")
	knife, _ := prog.ObjectID("knife.n.01_1")
	state := func(touch bool) *predicates.State {
		s := prog.InitState()
		_ = s.SetFact(pTouching, fig, knife, predicates.TruthOf(touch))
		return s
	}
	if !eng.Step(state(true)).Fired() {
		t.Fatal("the first cut did not fire")
	}
	for k := 0; k < 19; k++ {
		eng.Step(state(false))
	}
	if eng.Step(state(true)).Fired() {
		t.Fatal("sliced again after 19 idle steps of 20")
	}
	for k := 0; k < 20; k++ {
		eng.Step(state(false))
	}
	if !eng.Step(state(true)).Fired() {
		t.Fatal("did not slice again after 20 idle steps")
	}
}

// TestMachineEdge: a machine fires when switched on, not while it stays
// on, and again when switched off and on.
func TestMachineEdge(t *testing.T) {
	base := kb.Default()
	r, ok := FindRule(base, "strawberry_smoothie")
	if !ok {
		t.Skip("the default knowledge base has no strawberry_smoothie")
	}
	res, err := Sample(base, r, SampleOptions{})
	if err != nil {
		t.Fatal(err)
	}
	eng, _ := Compile(res.Program, base)
	off, on := res.Steps[0], res.Steps[1]
	fresh := func(s *predicates.State) *predicates.State {
		c := res.Program.NewState()
		_ = c.CopyFrom(s)
		return c
	}
	for k, want := range []bool{false, true, false, false, true} {
		s := on
		if k == 0 || k == 3 {
			s = off
		}
		if got := eng.Step(fresh(s)).Fired(); got != want {
			t.Fatalf("step %d: fired %v, want %v", k, got, want)
		}
	}
}

// TestNoAllocWhenNothingFires: a step that fires nothing allocates
// nothing, for every family.
func TestNoAllocWhenNothingFires(t *testing.T) {
	base := kb.Default()
	for _, r := range Rules(base) {
		res, err := Sample(base, r, SampleOptions{Variant: MissingInput})
		if err != nil {
			continue
		}
		eng, _ := Compile(res.Program, base)
		s := res.Steps[len(res.Steps)-1]
		eng.Step(s) // warm up
		if n := testing.AllocsPerRun(100, func() { eng.Step(s) }); n != 0 {
			t.Errorf("%s: %v allocations per step", r.Name, n)
		}
	}
}

// formatOutcome renders an outcome byte for byte, for comparisons.
func formatOutcome(p *predicates.Program, out Outcome) string {
	var b bytes.Buffer
	for _, f := range out.Firings {
		fmt.Fprintf(&b, "%s %s %d c=%d t=%d h=%d n=%d consumed=%v subst=%v", f.Family, f.Rule, f.RuleIndex, f.Container, f.Tool, f.HeatSource, f.Instances, f.Consumed, f.ConsumedSubstances)
		for _, pr := range f.Produced {
			fmt.Fprintf(&b, " %s→%s(%d)", pr.Synset, pr.Name, pr.Object)
		}
		b.WriteByte('\n')
	}
	for _, c := range out.Changes {
		fmt.Fprintf(&b, "%d %s %s %s %v %v\n", c.Kind, c.Pred, p.Name(c.Object), p.Name(c.Arg), c.Value, c.Box)
	}
	return b.String()
}

// TestDeterminism runs every sample's steps twice, then concurrently in
// several goroutines, and compares the outcomes byte for byte.
func TestDeterminism(t *testing.T) {
	base := kb.Default()
	type run struct {
		res *SampleResult
		eng *Engine
	}
	var runs []run
	for _, r := range Rules(base) {
		if res, err := Sample(base, r, SampleOptions{Seed: 7}); err == nil {
			eng, _ := Compile(res.Program, base)
			runs = append(runs, run{res, eng})
		}
	}
	replay := func(eng *Engine, res *SampleResult) string {
		eng.Reset()
		var b bytes.Buffer
		for _, st := range res.Steps {
			s := res.Program.NewState()
			_ = s.CopyFrom(st)
			b.WriteString(formatOutcome(res.Program, eng.Step(s)))
			b.WriteString("--\n")
		}
		return b.String()
	}
	want := make([]string, len(runs))
	for i, r := range runs {
		want[i] = replay(r.eng, r.res)
		if again := replay(r.eng, r.res); again != want[i] {
			t.Fatalf("%s: second run differs:\n%s\nvs\n%s", r.res.Rule.Name, want[i], again)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, len(runs)*4)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for k := range runs {
				i := (k + g*3) % len(runs) // a different order in each goroutine
				if got := replay(runs[i].eng.Fork(), runs[i].res); got != want[i] {
					errs <- runs[i].res.Rule.Name
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for name := range errs {
		t.Errorf("%s: a concurrent run differs", name)
	}
	if len(runs) == 0 {
		t.Fatal("no sample to run")
	}
}

// TestWasherDefault: a substance the cleaning conditions do not list is
// always removed; one listed as never is kept.
func TestWasherDefault(t *testing.T) {
	base := kb.Default()
	src := `(define (problem wash-0) (:domain omnigibson)
  (:objects washer.n.03_1 - washer.n.03 sock.n.01_1 - sock.n.01 rust.n.01_1 - rust.n.01 sludge.n.01_1 - sludge.n.01)
  (:init (inside sock.n.01_1 washer.n.03_1) (covered sock.n.01_1 rust.n.01_1) (covered sock.n.01_1 sludge.n.01_1))
  (:goal (not (covered sock.n.01_1 sludge.n.01_1))))`
	prog := compileSrc(t, base, src)
	eng, _ := Compile(prog, base)
	washer, _ := prog.ObjectID("washer.n.03_1")
	sock, _ := prog.ObjectID("sock.n.01_1")
	rust, _ := prog.ObjectID("rust.n.01_1")
	s := prog.InitState()
	eng.Step(s)
	_ = s.SetFact(pToggledOn, washer, NoObject, predicates.True)
	out := eng.Step(s)
	var rules []string
	for _, f := range out.Firings {
		rules = append(rules, f.Rule)
	}
	if fmt.Sprint(rules) != "[washer-default]" {
		t.Errorf("firings %v, want the default removal", rules)
	}
	if prog.Eval(s) != predicates.True {
		t.Error("the sock is still covered in sludge")
	}
	if prog.Atom(s, pCovered, sock, rust) != predicates.True {
		t.Error("the washer removed rust, which it never removes")
	}
}
