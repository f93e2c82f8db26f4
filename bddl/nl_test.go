package bddl

import (
	"path/filepath"
	"strings"
	"testing"
)

func TestExplain(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, goal, want string
	}{
		{"the issue's example",
			"(forall (?sugar_cookie.n.01 - sugar_cookie.n.01) (and (cooked ?sugar_cookie.n.01) (ontop ?sugar_cookie.n.01 ?cookie_sheet.n.01_1)))",
			"for every sugar_cookie: the sugar_cookie is cooked and is on top of cookie_sheet 1"},
		{"unary atom", "(cooked ?apple.n.01_1)", "apple 1 is cooked"},
		{"binary atom", "(inside ?apple.n.01_1 ?bowl.n.01_2)", "apple 1 is inside bowl 2"},
		{"negated binary atom", "(not (ontop ?apple.n.01_1 ?plate.n.04_1))", "apple 1 is not on top of plate 1"},
		{"negation with its own phrase", "(not (open ?door.n.01_1))", "door 1 is closed"},
		{"room constant", "(inroom ?sink.n.01_1 kitchen)", "sink 1 is in the kitchen"},
		{"room constant with underscores", "(inroom ?sofa.n.01_1 living_room)", "sofa 1 is in the living room"},
		{"wildcard", "(inroom ?cabinet.n.01_* kitchen)", "every cabinet is in the kitchen"},
		{"substance", "(covered ?table.n.02_1 ?stain.n.01_1)", "table 1 is covered with stain 1"},
		{"atom without arguments", "(timeset)", "timeset holds"},
		{"binary predicate missing its object", "(ontop ?apple.n.01_1)", "apple 1 is on top of ?"},
		{"shared subject", "(and (cooked ?apple.n.01_1) (hot ?apple.n.01_1) (ontop ?apple.n.01_1 ?plate.n.04_1))",
			"apple 1 is cooked, is hot and is on top of plate 1"},
		{"subjects change", "(and (cooked ?apple.n.01_1) (hot ?pear.n.01_1) (cooked ?apple.n.01_1))",
			"apple 1 is cooked, pear 1 is hot and apple 1 is cooked"},
		{"or", "(or (cooked ?apple.n.01_1) (frozen ?apple.n.01_1))", "either apple 1 is cooked or is frozen"},
		{"imply", "(imply (cooked ?apple.n.01_1) (hot ?apple.n.01_1))", "if apple 1 is cooked, then apple 1 is hot"},
		{"empty and", "(and)", "nothing is required"},
		{"double negation", "(not (not (cooked ?apple.n.01_1)))", "it is not the case that apple 1 is not cooked"},
		{"negated connective", "(not (and (cooked ?a.n.01_1) (hot ?a.n.01_1)))", "it is not the case that a 1 is cooked and is hot"},
		{"exists", "(exists (?plate.n.04 - plate.n.04) (ontop ?apple.n.01_1 ?plate.n.04))", "for some plate: apple 1 is on top of the plate"},
		{"forn", "(forn (2) (?log.n.01 - log.n.01) (ontop ?log.n.01 ?table.n.02_1))", "for exactly 2 of the log objects: the log is on top of table 1"},
		{"forpairs", "(forpairs (?shoe.n.01 - shoe.n.01) (?box.n.01 - box.n.01) (inside ?shoe.n.01 ?box.n.01))",
			"pairing every shoe with its own box: the shoe is inside the box"},
		{"fornpairs", "(fornpairs (3) (?shoe.n.01 - shoe.n.01) (?box.n.01 - box.n.01) (inside ?shoe.n.01 ?box.n.01))",
			"for exactly 3 pairs of shoe and box: the shoe is inside the box"},
		{"short variable names read as their type", "(forall (?x - apple.n.01) (cooked ?x))", "for every apple: the apple is cooked"},
		{"unbound variable", "(cooked ?x)", "?x is cooked"},
		{"shadowed variable takes the inner type", "(forall (?x - apple.n.01) (and (cooked ?x) (forall (?x - pear.n.01) (hot ?x)) (frozen ?x)))",
			"for every apple: the apple is cooked, for every pear: the pear is hot and the apple is frozen"},
		{"scope ends with the quantifier", "(and (forall (?x - apple.n.01) (cooked ?x)) (hot ?x))",
			"for every apple: the apple is cooked and ?x is hot"},
		{"synset-named variable after its scope", "(and (forall (?bowl.n.01 - bowl.n.01) (cooked ?bowl.n.01)) (hot ?bowl.n.01))",
			"for every bowl: the bowl is cooked and ?bowl.n.01 is hot"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, goal := parseGoal(t, tt.goal)
			if got := Explain(goal); got != tt.want {
				t.Errorf("Explain(%s) =\n  %q\nwant\n  %q", tt.goal, got, tt.want)
			}
		})
	}
	if got := Explain(nil); got != "nothing" {
		t.Errorf("Explain(nil) = %q, want %q", got, "nothing")
	}
}

// TestExplainUnknownPredicate checks the fallback for predicates without
// a phrase: it names the predicate and every argument, once each.
func TestExplainUnknownPredicate(t *testing.T) {
	t.Parallel()
	tests := []struct{ goal, verb string }{
		{"(levitating ?apple.n.01_1 ?plate.n.04_1)", "holds"},
		{"(not (levitating ?apple.n.01_1 ?plate.n.04_1))", "does not hold"},
	}
	for _, tt := range tests {
		_, goal := parseGoal(t, tt.goal)
		got := Explain(goal)
		if !strings.Contains(got, "levitating(apple 1, plate 1)") || !strings.Contains(got, tt.verb) {
			t.Errorf("Explain(%s) = %q, want it to say levitating(apple 1, plate 1) %s", tt.goal, got, tt.verb)
		}
		if n := strings.Count(got, "apple 1"); n != 1 {
			t.Errorf("Explain(%s) = %q names apple 1 %d times, want once", tt.goal, got, n)
		}
	}
}

// TestExplainPhrases checks that every predicate of the embedded domains
// reads as English, not as the fallback "holds as pred(...)".
func TestExplainPhrases(t *testing.T) {
	t.Parallel()
	for _, name := range EmbeddedDomainNames() {
		d, ok := EmbeddedDomain(name)
		if !ok {
			t.Fatalf("EmbeddedDomain(%q) not found", name)
		}
		for _, p := range d.Predicates {
			args := []string{"?apple.n.01_1", "?plate.n.04_1"}[:min(2, len(p.Params))]
			goal := "(" + p.Name.Name + " " + strings.Join(args, " ") + ")"
			_, f := parseGoal(t, goal)
			if got := Explain(f); strings.Contains(got, "holds as") || strings.Contains(got, "?") {
				t.Errorf("domain %s: Explain(%s) = %q, want an English phrase", name, goal, got)
			}
		}
	}
}

// TestExplainProblemGolden renders every problem of testdata/parse with
// ExplainProblem and compares it with testdata/explain/X.golden.
func TestExplainProblemGolden(t *testing.T) {
	t.Parallel()
	for _, in := range globT(t, "testdata/parse/*.bddl") {
		f, diags := ParseFile(in, readT(t, in))
		if f.Problem == nil || len(diags) != 0 {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(in), ".bddl")
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			got := ExplainProblem(f.Problem)
			if strings.Contains(got, "the  ") {
				t.Errorf("ExplainProblem(%s) has an empty noun (\"the  \"):\n%s", in, got)
			}
			checkGolden(t, filepath.Join("testdata", "explain", name+".golden"), []byte(got))
		})
	}
}

func TestExplainProblem(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src, want string
	}{
		{"single goal formula",
			"(define (problem p) (:domain omnigibson) (:objects) (:init (cooked apple.n.01_1)) (:goal (hot ?apple.n.01_1)))",
			"p (domain omnigibson)\n\nInitially:\n  - apple 1 is cooked\n\nGoal:\n  - apple 1 is hot\n"},
		{"conjunction is listed",
			"(define (problem p) (:domain omnigibson) (:objects) (:init) (:goal (and (hot ?a.n.01_1) (cooked ?a.n.01_1))))",
			"p (domain omnigibson)\n\nInitially:\n\nGoal: all of\n  - a 1 is hot\n  - a 1 is cooked\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, diags := ParseProblem("p.bddl", []byte(tt.src))
			if len(diags) != 0 {
				t.Fatalf("ParseProblem:\n%s", brief(diags))
			}
			if got := ExplainProblem(p); got != tt.want {
				t.Errorf("ExplainProblem =\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	// A partial problem without :goal or :domain still renders.
	p, _ := ParseProblem("p.bddl", []byte("(define (problem p) (:objects) (:init))"))
	if got, want := ExplainProblem(p), "p\n\nInitially:\n\nGoal: (none)\n"; got != want {
		t.Errorf("ExplainProblem(no goal) = %q, want %q", got, want)
	}
}

// TestExplainRecord: one sentence per :init literal and per top-level
// goal conjunct, never null lists.
func TestExplainRecord(t *testing.T) {
	t.Parallel()
	src := "(define (problem p_0) (:domain omnigibson) (:objects apple.n.01_1 - apple.n.01) " +
		"(:init (cooked apple.n.01_1)) (:goal (and (not (cooked ?apple.n.01_1)) (cooked ?apple.n.01_1))))"
	p, diags := ParseProblem("p.bddl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	e := ExplainRecord(p)
	if e.Problem != "p_0" || e.Domain != "omnigibson" || len(e.Init) != 1 || len(e.Goal) != 2 {
		t.Errorf("ExplainRecord = %+v", e)
	}
}
