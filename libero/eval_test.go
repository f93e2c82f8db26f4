package libero

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

func testTask(t testing.TB) *Task {
	t.Helper()
	path := filepath.Join("testdata", "errors", "valid.bddl")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, diags := bddl.ParseProblem(path, src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	return Resolve(p)
}

func atom(pred string, args ...string) *bddl.Atom {
	a := &bddl.Atom{Pred: bddl.Ident{Name: pred}}
	for _, x := range args {
		a.Args = append(a.Args, bddl.Term{Name: x})
	}
	return a
}

var identity = [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}

// rotY90 is a site turned a quarter about y, as the cabinet's drawer
// regions are (quat 0.70711 0 0.70711 0).
var rotY90 = quatMat([4]float64{math.Sqrt2 / 2, 0, math.Sqrt2 / 2, 0})

func body(x, y, z float64) Body { return Body{Pos: [3]float64{x, y, z}, Quat: [4]float64{1, 0, 0, 0}} }

// TestPredicates is LIBERO's semantics case by case (base_predicates.py,
// base_object_states.py, site_object.py, articulated_objects.py).
func TestPredicates(t *testing.T) {
	task := testTask(t)
	zone := SiteBox{Pos: [3]float64{0.05, 0, 0.9}, Mat: identity, Size: [3]float64{0.025, 0.025, 0.007}}
	cook := SiteBox{Pos: [3]float64{-0.2, 0.2, 0.95}, Mat: identity, Size: [3]float64{0.08, 0.08, 0.01}}
	drawer := SiteBox{Pos: [3]float64{0, -0.3, 1.0}, Mat: rotY90, Size: [3]float64{0.03, 0.075, 0.1}}
	tests := []struct {
		name string
		atom *bddl.Atom
		step Step
		want Truth
	}{
		// On a workspace zone: SiteObject.under, no parent contact.
		{"on zone", atom("On", "moka_pot_1", "kitchen_table_moka_init_region"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0.05, 0.01, 0.93)}, Sites: map[string]SiteBox{"kitchen_table_moka_init_region": zone}}, True},
		{"on zone too low", atom("On", "moka_pot_1", "kitchen_table_moka_init_region"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0.05, 0.01, 0.9015)}, Sites: map[string]SiteBox{"kitchen_table_moka_init_region": zone}}, False},
		{"on zone in the air (under's 10 cm window)", atom("On", "moka_pot_1", "kitchen_table_moka_init_region"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0.05, 0.01, 0.9+0.007+0.099)}, Sites: map[string]SiteBox{"kitchen_table_moka_init_region": zone}}, True},
		{"on zone too high", atom("On", "moka_pot_1", "kitchen_table_moka_init_region"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0.05, 0.01, 0.9+0.007+0.101)}, Sites: map[string]SiteBox{"kitchen_table_moka_init_region": zone}}, False},
		{"on zone outside in x", atom("On", "moka_pot_1", "kitchen_table_moka_init_region"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0.076, 0.01, 0.93)}, Sites: map[string]SiteBox{"kitchen_table_moka_init_region": zone}}, False},
		// On an object's site: under, and contact with the parent.
		{"on cook region with contact", atom("On", "moka_pot_1", "flat_stove_1_cook_region"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(-0.2, 0.2, 0.99)}, Sites: map[string]SiteBox{"flat_stove_1_cook_region": cook},
				Contacts: [][2]string{{"moka_pot_1", "flat_stove_1"}}}, True},
		{"on cook region without contact", atom("On", "moka_pot_1", "flat_stove_1_cook_region"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(-0.2, 0.2, 0.99)}, Sites: map[string]SiteBox{"flat_stove_1_cook_region": cook}}, False},
		// On an object: below-or-level, contact, xy within 3 cm.
		{"on object", atom("On", "moka_pot_1", "flat_stove_1"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0.02, 0, 1.0), "flat_stove_1": body(0, 0, 0.9)}, Contacts: [][2]string{{"flat_stove_1", "moka_pot_1"}}}, True},
		{"on object 3 cm away", atom("On", "moka_pot_1", "flat_stove_1"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0.03, 0, 1.0), "flat_stove_1": body(0, 0, 0.9)}, Contacts: [][2]string{{"flat_stove_1", "moka_pot_1"}}}, False},
		{"on object without contact", atom("On", "moka_pot_1", "flat_stove_1"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0, 0, 1.0), "flat_stove_1": body(0, 0, 0.9)}}, False},
		{"on object below it", atom("On", "moka_pot_1", "flat_stove_1"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0, 0, 0.8), "flat_stove_1": body(0, 0, 0.9)}, Contacts: [][2]string{{"flat_stove_1", "moka_pot_1"}}}, False},
		// In a rotated site: the box is pos ± |mat·size|, its floor 1 cm lower.
		{"in drawer", atom("In", "moka_pot_1", "wooden_cabinet_1_top_region"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0.09, -0.3, 1.0)}, Sites: map[string]SiteBox{"wooden_cabinet_1_top_region": drawer}}, True},
		{"in drawer, x beyond the rotated size", atom("In", "moka_pot_1", "wooden_cabinet_1_top_region"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0.11, -0.3, 1.0)}, Sites: map[string]SiteBox{"wooden_cabinet_1_top_region": drawer}}, False},
		{"in drawer, 5 mm below its floor", atom("In", "moka_pot_1", "wooden_cabinet_1_top_region"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0, -0.3, 1.0-0.03-0.005)}, Sites: map[string]SiteBox{"wooden_cabinet_1_top_region": drawer}}, True},
		{"in drawer, 2 cm below its floor", atom("In", "moka_pot_1", "wooden_cabinet_1_top_region"),
			Step{Bodies: map[string]Body{"moka_pot_1": body(0, -0.3, 1.0-0.03-0.02)}, Sites: map[string]SiteBox{"wooden_cabinet_1_top_region": drawer}}, False},
		// Joints: wooden_cabinet open < -0.14, close > 0.0.
		{"drawer open", atom("Open", "wooden_cabinet_1_top_region"), Step{Joints: map[string][]float64{"wooden_cabinet_1_top_region": {-0.15}}}, True},
		{"drawer half open is not open", atom("Open", "wooden_cabinet_1_top_region"), Step{Joints: map[string][]float64{"wooden_cabinet_1_top_region": {-0.1}}}, False},
		{"drawer at 0 is not closed (strict >)", atom("Close", "wooden_cabinet_1_top_region"), Step{Joints: map[string][]float64{"wooden_cabinet_1_top_region": {0.0}}}, False},
		{"drawer closed", atom("Close", "wooden_cabinet_1_top_region"), Step{Joints: map[string][]float64{"wooden_cabinet_1_top_region": {0.001}}}, True},
		{"cabinet open when any drawer is", atom("Open", "wooden_cabinet_1"), Step{Joints: map[string][]float64{"wooden_cabinet_1": {0.001, -0.15, 0.001}}}, True},
		{"cabinet closed only when every drawer is", atom("Close", "wooden_cabinet_1"), Step{Joints: map[string][]float64{"wooden_cabinet_1": {0.001, -0.15, 0.001}}}, False},
		// flat_stove: on >= 0.5, off < 0.0.
		{"stove on at 0.5", atom("Turnon", "flat_stove_1"), Step{Joints: map[string][]float64{"flat_stove_1": {0.5}}}, True},
		{"stove not on at 0.49", atom("TurnOn", "flat_stove_1"), Step{Joints: map[string][]float64{"flat_stove_1": {0.49}}}, False},
		{"stove off", atom("Turnoff", "flat_stove_1"), Step{Joints: map[string][]float64{"flat_stove_1": {-0.001}}}, True},
		{"stove at 0 is not off (strict <)", atom("Turnoff", "flat_stove_1"), Step{Joints: map[string][]float64{"flat_stove_1": {0}}}, False},
		// Up: z >= 1.
		{"up", atom("Up", "moka_pot_1"), Step{Bodies: map[string]Body{"moka_pot_1": body(0, 0, 1.0)}}, True},
		{"not up", atom("Up", "moka_pot_1"), Step{Bodies: map[string]Body{"moka_pot_1": body(0, 0, 0.99)}}, False},
		// Missing data is never success.
		{"no body", atom("On", "moka_pot_1", "flat_stove_1"), Step{}, Unknown},
		{"no site", atom("In", "moka_pot_1", "wooden_cabinet_1_top_region"), Step{Bodies: map[string]Body{"moka_pot_1": body(0, 0, 1)}}, Unknown},
		{"no joints", atom("Open", "wooden_cabinet_1"), Step{}, Unknown},
		{"true", atom("true"), Step{}, True},
		{"false", atom("false"), Step{}, False},
	}
	ev := NewEvaluator(task)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ev.EvalAtoms([]*bddl.Atom{tc.atom}, &tc.step)[0]
			if got.Truth != tc.want {
				t.Errorf("%s = %s (%s), want %s", bddl.String(tc.atom), got.Truth, got.Reason, tc.want)
			}
		})
	}
}

func TestAllIsKleeneConjunction(t *testing.T) {
	for _, tc := range []struct {
		in   []Truth
		want Truth
	}{
		{nil, True}, {[]Truth{True, True}, True}, {[]Truth{True, Unknown}, Unknown},
		{[]Truth{Unknown, False}, False}, {[]Truth{False, True}, False},
	} {
		var rs []Result
		for _, x := range tc.in {
			rs = append(rs, Result{Truth: x})
		}
		if got := All(rs); got != tc.want {
			t.Errorf("All(%v) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

// TestCheckerFirstSuccessAndEnd follows an episode in which the goal
// becomes true at step 2 and no longer holds at step 3.
func TestCheckerFirstSuccessAndEnd(t *testing.T) {
	task := testTask(t)
	cook := SiteBox{Pos: [3]float64{-0.2, 0.2, 0.95}, Mat: identity, Size: [3]float64{0.08, 0.08, 0.01}}
	step := func(n int, knob float64, potZ float64) Step {
		return Step{Step: n, Bodies: map[string]Body{"moka_pot_1": body(-0.2, 0.2, potZ)},
			Sites: map[string]SiteBox{"flat_stove_1_cook_region": cook}, Joints: map[string][]float64{"flat_stove_1": {knob}},
			Contacts: [][2]string{{"flat_stove_1", "moka_pot_1"}}}
	}
	r := Check(task, []Step{step(0, -0.001, 1.2), step(1, 0.7, 1.2), step(2, 0.7, 0.99), step(3, 0.1, 0.99)})
	if !r.Success || r.FirstSuccessStep == nil || *r.FirstSuccessStep != 2 || r.HoldsAtEnd || r.GoalAtEnd != False {
		t.Errorf("report = %+v", r)
	}
	if r.Steps != 4 || r.EpisodeStep != 3 || len(r.Unsatisfied) != 1 || r.Unsatisfied[0].Literal != "(Turnon flat_stove_1)" {
		t.Errorf("report = %+v", r)
	}
	// :init is read at the first step only: nothing is placed there.
	if r.Init == True || len(r.InitFailures) == 0 {
		t.Errorf(":init = %s, failures %v", r.Init, r.InitFailures)
	}
}

func TestReadEpisodeErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "empty episode"},
		{"not libero", `{"format":"other"}`, `format is "other"`},
		{"bad json", "{\"format\":\"libero-episode\",\"version\":1}\n{\"step\":", "e:2: step"},
		{"step order", "{\"format\":\"libero-episode\"}\n{\"step\":3,\"bodies\":{}}\n{\"step\":3,\"bodies\":{}}", "e:3: step 3 does not follow step 3"},
		{"negative size", "{\"format\":\"libero-episode\"}\n{\"step\":0,\"bodies\":{},\"sites\":{\"s\":{\"pos\":[0,0,0],\"mat\":[1,0,0,0,1,0,0,0,1],\"size\":[-1,0,0]}}}", "sites.s.size: negative"},
	} {
		_, _, err := ReadEpisode(strings.NewReader(tc.text), "e")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestSampleInPlacements(t *testing.T) {
	path := filepath.Join("testdata", "in_placements.bddl")
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, diags := bddl.ParseProblem(path, src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	for _, d := range Validate(p) {
		t.Errorf("%v", d)
	}
	task := Resolve(p)
	for seed := range uint64(20) {
		step, err := Sample(task, seed)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if q := step.Joints["wooden_cabinet_1_top_region"]; len(q) != 1 || q[0] >= -0.14 {
			t.Errorf("seed %d: the top drawer is not open: %v", seed, q)
		}
	}
}

// TestJointsOverNoJoints: Close and TurnOff hold over an empty joint list,
// Open and TurnOn do not (base_object_states.py:100-130).
func TestJointsOverNoJoints(t *testing.T) {
	task := testTask(t)
	ev := NewEvaluator(task)
	s := Step{Joints: map[string][]float64{"wooden_cabinet_1_top_region": {}, "flat_stove_1": {}}}
	for _, tc := range []struct {
		a    *bddl.Atom
		want Truth
	}{
		{atom("Close", "wooden_cabinet_1_top_region"), True},
		{atom("Open", "wooden_cabinet_1_top_region"), False},
		{atom("TurnOff", "flat_stove_1"), True},
		{atom("TurnOn", "flat_stove_1"), False},
	} {
		if got := ev.EvalAtoms([]*bddl.Atom{tc.a}, &s)[0].Truth; got != tc.want {
			t.Errorf("%s over no joints = %s, want %s", bddl.String(tc.a), got, tc.want)
		}
	}
}

// TestConjunctionAllocatesNothing guards the per-step path of a check.
func TestConjunctionAllocatesNothing(t *testing.T) {
	task := testTask(t)
	step, err := Sample(task, 7)
	if err != nil {
		t.Fatal(err)
	}
	ev := NewEvaluator(task)
	goal, init := task.GoalAtoms(), task.InitAtoms()
	if got := ev.Conjunction(init, &step); got != True {
		t.Fatalf(":init on the sampled step = %s", got)
	}
	if n := testing.AllocsPerRun(100, func() {
		ev.Conjunction(goal, &step)
		ev.Conjunction(init, &step)
	}); n != 0 {
		t.Errorf("Conjunction allocates %v times a step", n)
	}
	// Every mode agrees: the conjunction is All of the explained results.
	for _, atoms := range [][]*bddl.Atom{goal, init} {
		if a, b := ev.Conjunction(atoms, &step), All(ev.EvalAtoms(atoms, &step)); a != b {
			t.Errorf("Conjunction = %s, All(EvalAtoms) = %s", a, b)
		}
	}
}

// TestNotLibero: the package's entry points take a BEHAVIOR-1K problem
// without panicking.
func TestNotLibero(t *testing.T) {
	src := []byte("(define (problem p) (:domain omnigibson) (:objects a.n.01_1 - a.n.01) (:init (cooked a.n.01_1)) (:goal (cooked ?a.n.01_1)))")
	p, diags := bddl.ParseProblem("b.bddl", src)
	if diags.HasErrors() || p.Libero != nil {
		t.Fatalf("%v", diags)
	}
	if ds := Validate(p); !ds.HasErrors() {
		t.Error("a BEHAVIOR-1K problem validates clean as LIBERO")
	}
	Explain(p)
	if _, err := Sample(Resolve(p), 7); err == nil {
		t.Error("a BEHAVIOR-1K problem sampled as LIBERO")
	}
}

func TestCheckerHoldAndAtEnd(t *testing.T) {
	task := testTask(t)
	cook := SiteBox{Pos: [3]float64{-0.2, 0.2, 0.95}, Mat: identity, Size: [3]float64{0.08, 0.08, 0.01}}
	step := func(n int, on bool) Step {
		knob := 0.1
		if on {
			knob = 0.7
		}
		return Step{Step: n, Bodies: map[string]Body{"moka_pot_1": body(-0.2, 0.2, 0.99)},
			Sites: map[string]SiteBox{"flat_stove_1_cook_region": cook}, Joints: map[string][]float64{"flat_stove_1": {knob}},
			Contacts: [][2]string{{"flat_stove_1", "moka_pot_1"}}}
	}
	run := func(o CheckOptions, on ...bool) Report {
		c := NewCheckerOptions(task, o)
		for i, x := range on {
			s := step(10*i, x)
			c.Step(&s)
		}
		return c.Report()
	}
	for _, tc := range []struct {
		name    string
		o       CheckOptions
		on      []bool
		success bool
		first   int
	}{
		{"one step suffices", CheckOptions{}, []bool{false, true, false}, true, 10},
		{"hold 2 not met", CheckOptions{Hold: 2}, []bool{true, false, true, false}, false, -1},
		{"hold 2 met from its first step", CheckOptions{Hold: 2}, []bool{false, true, true, false}, true, 10},
		{"at end not met", CheckOptions{AtEnd: true}, []bool{false, true, false}, false, 10},
		{"at end met", CheckOptions{AtEnd: true}, []bool{false, true, true}, true, 10},
	} {
		r := run(tc.o, tc.on...)
		first := -1
		if r.FirstSuccessStep != nil {
			first = *r.FirstSuccessStep
		}
		if r.Success != tc.success || first != tc.first {
			t.Errorf("%s: success %v first %d (%s), want %v %d", tc.name, r.Success, first, r.Reason, tc.success, tc.first)
		}
	}
}

// TestOnReasonReads: the reason of an On against an object says what it
// needs, not a comparison that reads as a false statement
// ("xy distance 0.1031 (< 0.03)").
func TestOnReasonReads(t *testing.T) {
	ev := NewEvaluator(testTask(t))
	step := Step{Bodies: map[string]Body{"moka_pot_1": body(0.1, 0, 1.0), "flat_stove_1": body(0, 0, 0.9)}, Contacts: [][2]string{{"flat_stove_1", "moka_pot_1"}}}
	got := ev.EvalAtoms([]*bddl.Atom{atom("On", "moka_pot_1", "flat_stove_1")}, &step)[0]
	if got.Truth != False || !strings.Contains(got.Reason, "xy distance 0.1 m (needs < 0.03)") {
		t.Errorf("On 10 cm away = %s (%q), want false saying it needs < 0.03", got.Truth, got.Reason)
	}
}
