package predicates

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

const cookieProblem = `(define (problem baking-0)
    (:domain omnigibson)
    (:objects
        sugar_cookie.n.01_1 sugar_cookie.n.01_2 sugar_cookie.n.01_3 - sugar_cookie.n.01
        cookie_sheet.n.01_1 - cookie_sheet.n.01
        oven.n.01_1 - oven.n.01
        floor.n.01_1 - floor.n.01
        agent.n.01_1 - agent.n.01
    )
    (:init
        (future sugar_cookie.n.01_1)
        (future sugar_cookie.n.01_2)
        (future sugar_cookie.n.01_3)
        (inroom oven.n.01_1 kitchen)
        (inroom floor.n.01_1 kitchen)
        (ontop agent.n.01_1 floor.n.01_1)
        (not (open oven.n.01_1))
    )
    (:goal
        (and
            (forall (?sugar_cookie.n.01 - sugar_cookie.n.01)
                (and
                    (cooked ?sugar_cookie.n.01)
                    (ontop ?sugar_cookie.n.01 ?cookie_sheet.n.01_1)))
            (not (open ?oven.n.01_1))
        )
    )
)`

func TestExplainMessages(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, cookieProblem, Options{})
	s := p.NewState()
	s.SetAllExist(true)
	for i, maxT := range []float64{80, 75, 41} {
		c := ObjectID(i)
		_ = s.SetMaxTemperature(c, maxT)
		_ = s.SetFact(predOntop, c, id(t, p, "cookie_sheet.n.01_1"), True)
	}
	_ = s.SetOpenFraction(id(t, p, "oven.n.01_1"), 0.01)
	_ = s.SetFact(predOntop, 1, id(t, p, "cookie_sheet.n.01_1"), Unknown)
	tr := p.Explain(s)
	if tr.Value != False {
		t.Fatalf("Explain value = %v, want false", tr.Value)
	}
	var got []string
	for _, r := range tr.Reasons() {
		got = append(got, r.String())
	}
	want := []string{
		"unsatisfied: (cooked ?sugar_cookie.n.01) for sugar_cookie.n.01_3: max_temperature 41.0 < 70 (default cook_temperature)",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Reasons() =\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if tr.Stats.Atoms != 7 || tr.Stats.Quantities != 4 || tr.Stats.Facts != 2 || tr.Stats.Unknown != 1 {
		t.Errorf("trace stats = %+v", tr.Stats)
	}
	// The tree: and → forall → one child per cookie, bound.
	forall := tr.Root.Children[0]
	if forall.Kind != "forall" || len(forall.Children) != 3 {
		t.Fatalf("trace forall = %s with %d children", forall.Kind, len(forall.Children))
	}
	if b := forall.Children[2].Bindings; len(b) != 1 || b[0] != (Binding{Var: "?sugar_cookie.n.01", Object: "sugar_cookie.n.01_3"}) {
		t.Errorf("third binding = %+v", b)
	}
	if v := forall.Children[2].Value; v != False {
		t.Errorf("third cookie = %v", v)
	}

	// Fix the cookie: the goal is now undetermined, for want of a contact.
	_ = s.SetMaxTemperature(2, 90)
	tr = p.Explain(s)
	got = got[:0]
	for _, r := range tr.Reasons() {
		got = append(got, r.String())
	}
	want = []string{"undetermined: (ontop ?sugar_cookie.n.01 ?cookie_sheet.n.01_1) for sugar_cookie.n.01_2: missing contacts and box of sugar_cookie.n.01_2, cookie_sheet.n.01_1"}
	if tr.Value != Unknown || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Explain = %v, reasons\n%s\nwant unknown,\n%s", tr.Value, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if r := tr.Reasons()[0]; r.Range.Start.Line != 24 || r.Ground != "(ontop sugar_cookie.n.01_2 cookie_sheet.n.01_1)" {
		t.Errorf("reason range %v ground %q", r.Range, r.Ground)
	}
}

// TestNegationModes checks SEMANTICS.md A6 on the pairs with a middle band.
func TestNegationModes(t *testing.T) {
	t.Parallel()
	objs := "jar.n.01_1 - jar.n.01 water.n.06_1 - water.n.06 oven.n.01_1 - oven.n.01 towel.n.01_1 - towel.n.01"
	cases := []struct {
		goal              string
		setup             func(*Program, *State)
		reference, strict Truth
	}{
		// 10 % full: not filled, yet not empty.
		{"(not (filled jar.n.01_1 water.n.06_1))", func(p *Program, s *State) {
			_ = s.SetParticles(0, 1, Particles{Inside: 30, FillFraction: 0.1, Covering: math.NaN(), Absorbed: math.NaN(), AbsorbLimit: math.NaN()})
		}, True, False},
		{"(not (filled jar.n.01_1 water.n.06_1))", func(p *Program, s *State) {
			_ = s.SetParticles(0, 1, Particles{Inside: 0, FillFraction: 0, Covering: math.NaN(), Absorbed: math.NaN(), AbsorbLimit: math.NaN()})
		}, True, True},
		// A removed oven: not open in the reference (atoms on it are
		// False), but not closed either in strict mode.
		{"(not (open oven.n.01_1))", func(p *Program, s *State) { _ = s.SetExists(2, false) }, True, False},
		{"(not (open oven.n.01_1))", func(p *Program, s *State) { _ = s.SetOpenFraction(2, 0) }, True, True},
		// A half-folded towel is neither folded nor unfolded.
		{"(not (folded towel.n.01_1))", func(p *Program, s *State) {
			_ = s.SetCloth(3, Cloth{AreaRatio: 0.8, DiagonalRatio: 0.8, Smoothness: 0.9})
		}, True, False},
		// De Morgan before the swap: not (open or filled) = closed and empty.
		{"(not (or (open oven.n.01_1) (filled jar.n.01_1 water.n.06_1)))", func(p *Program, s *State) {
			_ = s.SetOpenFraction(2, 0)
			_ = s.SetParticles(0, 1, Particles{Inside: 30, FillFraction: 0.1, Covering: math.NaN(), Absorbed: math.NaN(), AbsorbLimit: math.NaN()})
		}, True, False},
		// imply: (imply (closed oven) ...) pushes the negation to the antecedent.
		{"(imply (open oven.n.01_1) (filled jar.n.01_1 water.n.06_1))", func(p *Program, s *State) {
			_ = s.SetExists(2, false)
			_ = s.SetParticles(0, 1, NoParticles)
		}, True, Unknown},
	}
	for _, c := range cases {
		for mode, want := range map[NegationMode]Truth{ReferenceNegation: c.reference, StrictNegation: c.strict} {
			p := mustCompile(t, problem(objs, "", c.goal), Options{Negation: mode})
			s := p.NewState()
			s.SetAllExist(true)
			c.setup(p, s)
			if got := p.Eval(s); got != want {
				t.Errorf("%s with %v negation = %v, want %v", c.goal, mode, got, want)
			}
		}
	}
}

func TestCompileErrors(t *testing.T) {
	t.Parallel()
	objs := "apple.n.01_1 - apple.n.01 table.n.02_1 - table.n.02"
	cases := []struct {
		goal, code, summary string
	}{
		{"(cookedd apple.n.01_1)", "unknown-predicate", "unknown predicate cookedd"},
		{"(ontop apple.n.01_1)", "arity", "ontop takes 2 argument(s), found 1"},
		{"(ontop apple.n.01_2 table.n.02_1)", "unknown-instance", "apple.n.01_2 is not declared in :objects"},
		{"(cooked ?apple.n.01)", "unbound-variable", "variable ?apple.n.01 is not bound by an enclosing quantifier"},
		{"(inroom apple.n.01_1 table.n.02_1)", "bad-argument", "table.n.02_1 is not a room type"},
		{"(ontop apple.n.01_1 kitchen)", "unknown-instance", "kitchen is not declared in :objects"},
	}
	for _, c := range cases {
		prob, diags := bddl.ParseProblem("bad.bddl", []byte(problem(objs, "", c.goal)))
		if diags.HasErrors() {
			t.Fatalf("%s: parse: %v", c.goal, diags)
		}
		_, err := Compile(prob, nil, Options{})
		ds, ok := bddl.AsDiagnostics(err)
		if !ok || len(ds) == 0 {
			t.Errorf("Compile(%s) error = %v, want diagnostics", c.goal, err)
			continue
		}
		if ds[0].Code != c.code || ds[0].Summary != c.summary || !ds[0].Subject.Start.IsValid() {
			t.Errorf("Compile(%s) = [%s] %q at %v, want [%s] %q", c.goal, ds[0].Code, ds[0].Summary, ds[0].Subject.Start, c.code, c.summary)
		}
	}
	if _, err := Compile(nil, nil, Options{}); err == nil {
		t.Error("Compile(nil) succeeded")
	}
	prob, _ := bddl.ParseProblem("dup.bddl", []byte(problem("apple.n.01_1 apple.n.01_1 - apple.n.01", "", "(cooked apple.n.01_1)")))
	if _, err := Compile(prob, nil, Options{}); err == nil || !strings.Contains(err.Error(), "declared twice") {
		t.Errorf("duplicate instance: %v", err)
	}
}

func TestWildcards(t *testing.T) {
	t.Parallel()
	src := problem("bookcase.n.01_1 bookcase.n.01_* - bookcase.n.01 book.n.01_1 - book.n.01",
		"(inroom bookcase.n.01_1 kitchen) (inroom bookcase.n.01_* kitchen) (inside book.n.01_1 bookcase.n.01_1)",
		"(exists (?bookcase.n.01 - bookcase.n.01) (inside book.n.01_1 ?bookcase.n.01))")
	p := mustCompile(t, src, Options{})
	if p.NumObjects() != 2 {
		t.Fatalf("unexpanded wildcard: %d objects, want 2", p.NumObjects())
	}
	p2, err := p.ExpandWildcard("bookcase.n.01_*", []string{"bookcase.n.01_2", "bookcase.n.01_3"})
	if err != nil {
		t.Fatal(err)
	}
	if p2.NumObjects() != 4 {
		t.Fatalf("expanded: %d objects, want 4", p2.NumObjects())
	}
	b3 := id(t, p2, "bookcase.n.01_3")
	if got := p2.Domain("bookcase.n.01"); len(got) != 3 || got[2] != b3 {
		t.Errorf("Domain(bookcase) = %v", got)
	}
	s := p2.NewState()
	s.SetAllExist(true)
	if v := p2.Eval(s); v != Unknown {
		t.Errorf("goal with nothing recorded = %v, want unknown", v)
	}
	_ = s.SetFact(predInside, id(t, p2, "book.n.01_1"), b3, True)
	if v := p2.Eval(s); v != True {
		t.Errorf("goal with the book in an expanded bookcase = %v, want true", v)
	}
	// The wildcard's init literal stands for each expansion.
	init := p2.InitState()
	kitchen := id(t, p2, "kitchen")
	for _, name := range []string{"bookcase.n.01_1", "bookcase.n.01_2", "bookcase.n.01_3"} {
		if init.Fact(predInroom, id(t, p2, name), kitchen) != True {
			t.Errorf("InitState: inroom %s kitchen not recorded", name)
		}
	}
	if v := p2.EvalInit(init); v != True {
		t.Errorf("EvalInit = %v", v)
	}
	// A state of the unexpanded program does not fit the expanded one.
	if v := p2.Eval(p.NewState()); v != Unknown {
		t.Errorf("Eval with a foreign state = %v, want unknown", v)
	}
	if _, err := p.ExpandWildcard("shelf.n.01_*", []string{"shelf.n.01_1"}); err == nil {
		t.Error("expanding an undeclared wildcard succeeded")
	}
}

func TestStateSetters(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, problem("apple.n.01_1 - apple.n.01 water.n.06_1 - water.n.06 bowl.n.01_1 - bowl.n.01",
		"(inroom bowl.n.01_1 kitchen)", "(filled bowl.n.01_1 water.n.06_1)"), Options{})
	s := p.NewState()
	errs := []error{
		s.SetExists(99, true),
		s.SetTemperature(-1, 3),
		s.SetAABB(0, bx(1, 0, 0, 0, 1, 1)),
		s.SetOBB(0, OBB{}),
		s.SetContacts(0, []ObjectID{42}),
		s.SetParticles(2, 0, NoParticles), // apple is not a substance
		s.SetRoom(0, RoomID(7)),
		s.SetFact(PredID(200), 0, 0, True),
		s.SetFact(predCooked, 0, 0, Truth(9)),
		s.SetAttachedTo(0, 55),
	}
	for i, err := range errs {
		if err == nil {
			t.Errorf("bad setter call %d succeeded", i)
		}
	}
	if !p.IsSubstance(id(t, p, "water.n.06_1")) || p.IsSubstance(id(t, p, "apple.n.01_1")) {
		t.Error("substances not recognised from the definition")
	}
	// NaN clears a float field.
	_ = s.SetTemperature(0, 30)
	_ = s.SetTemperature(0, math.NaN())
	if s.obj[0].has&FieldTemperature != 0 {
		t.Error("NaN did not clear the temperature")
	}
	// Clear and Reset.
	_ = s.SetAABB(0, bx(0, 0, 0, 1, 1, 1))
	_ = s.Clear(0, FieldAABB)
	if _, ok := s.box(0); ok {
		t.Error("Clear(FieldAABB) kept the box")
	}
	_ = s.SetFact(predCooked, 0, NoObject, True)
	s.Reset()
	if s.Fact(predCooked, 0, NoObject) != Unknown || s.Exists(0) != Unknown {
		t.Error("Reset kept a fact or existence")
	}
	// CopyFrom keeps a baseline.
	_ = s.SetMaxTemperature(0, 90)
	_ = s.SetContacts(0, []ObjectID{2})
	base := p.NewState()
	if err := base.CopyFrom(s); err != nil {
		t.Fatal(err)
	}
	_ = s.SetMaxTemperature(0, 10)
	if base.obj[0].maxTemp != 90 {
		t.Error("CopyFrom shares storage")
	}
	if k, touching := base.contact(0, 2); !k || !touching {
		t.Error("CopyFrom lost contacts")
	}
	if r := s.Room("kitchen_3"); s.roomType[r] != id(t, p, "kitchen") || s.Room("kitchen_3") != r {
		t.Error("Room interning")
	}
	if roomTypeOf("living_room_12") != "living_room" || roomTypeOf("garage") != "garage" {
		t.Error("roomTypeOf")
	}
}

func TestConjuncts(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, cookieProblem, Options{})
	s := p.InitState()
	got := p.EvalConjuncts(s, nil)
	want := []Truth{False, True}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("EvalConjuncts = %v, want %v", got, want)
	}
	if p.NumConjuncts() != 2 {
		t.Errorf("NumConjuncts = %d", p.NumConjuncts())
	}
}

func TestScoresSuccessAndBaseline(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, cookieProblem, Options{})
	base := p.InitState()
	now := p.InitState()
	sheet := id(t, p, "cookie_sheet.n.01_1")
	for c := ObjectID(0); c < 3; c++ {
		_ = now.SetExists(c, true)
		_ = now.SetFact(predOntop, c, sheet, True)
	}
	_ = now.SetFact(predCooked, 0, NoObject, True)
	sc, err := p.Scores(now, base)
	if err != nil {
		t.Fatal(err)
	}
	// 7 literals: 3 cooked, 3 ontop, (not open oven). 5 hold now; the
	// oven was already closed at the start, so the challenge counts 4.
	if sc.Success != False || sc.Library.Satisfied != 5 || sc.Library.Total != 7 ||
		sc.Challenge.Satisfied != 4 || sc.Challenge.Total != 7 || !sc.HasChallenge {
		t.Errorf("scores = %+v", sc)
	}
	for c := ObjectID(1); c < 3; c++ {
		_ = now.SetFact(predCooked, c, NoObject, True)
	}
	sc, _ = p.Scores(now, nil)
	if sc.Success != True || sc.Library.Value != 1 || sc.HasChallenge {
		t.Errorf("on success: %+v", sc)
	}
	// A caller that has the goal's value already (a checker) gets the
	// same scores without a second evaluation.
	for _, st := range []*State{base, now} {
		want, _ := p.Scores(st, base)
		got, err := p.ScoresKnowing(st, base, nil, p.Eval(st))
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("ScoresKnowing = %+v, %v; want %+v", got, err, want)
		}
	}
	if _, err := p.Scores(mustCompile(t, problem("a.n.01_1 - a.n.01", "", "(cooked a.n.01_1)"), Options{}).NewState(), nil); err == nil {
		t.Error("Scores with a foreign state succeeded")
	}
	if _, err := p.ScoresKnowing(mustCompile(t, problem("a.n.01_1 - a.n.01", "", "(cooked a.n.01_1)"), Options{}).NewState(), nil, nil, True); err == nil {
		t.Error("ScoresKnowing with a foreign state succeeded")
	}
	_ = errors.New
}

// TestConcurrentUse: one Program, many goroutines, each with its own State
// (run with -race).
func TestConcurrentUse(t *testing.T) {
	t.Parallel()
	p := mustCompile(t, cookieProblem, Options{})
	done := make(chan Truth)
	for g := 0; g < 4; g++ {
		go func(g int) {
			s := p.InitState()
			_ = s.SetExists(ObjectID(g%3), true)
			var v Truth
			for i := 0; i < 100; i++ {
				v = p.Eval(s)
				_, _ = p.Scores(s, s)
				_ = p.Explain(s)
			}
			done <- v
		}(g)
	}
	for g := 0; g < 4; g++ {
		if v := <-done; v != False {
			t.Errorf("goroutine result %v, want false", v)
		}
	}
}
