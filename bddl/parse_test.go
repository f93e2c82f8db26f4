package bddl

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseGoal parses a problem whose :goal is the given formula text, and
// fails the test on any diagnostic.
func parseGoal(t testing.TB, goal string) (*Problem, Formula) {
	t.Helper()
	src := "(define (problem p-0) (:domain omnigibson) (:objects) (:init)\n(:goal " + goal + "))"
	p, diags := ParseProblem("goal.bddl", []byte(src))
	if len(diags) != 0 {
		t.Fatalf("ParseProblem(goal %q):\n%s", goal, brief(diags))
	}
	return p, p.Goal
}

type termInfo struct {
	Name     string
	Question bool
	Kind     string
}

func termsOf(f Formula) []termInfo {
	var out []termInfo
	Inspect(f, func(f Formula) bool {
		if a, ok := f.(*Atom); ok {
			for _, t := range a.Args {
				out = append(out, termInfo{t.Name, t.Question, t.Kind.String()})
			}
		}
		return true
	})
	return out
}

// TestTermKinds checks how the parser classifies each term: a variable
// when a quantifier binds it, else an instance by shape, else a variable
// when written with '?', else a constant. The '?' is kept apart from the
// name and restored by Text.
func TestTermKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		goal string
		want []termInfo
	}{
		{"instances with and without ?", "(ontop ?apple.n.01_1 plate.n.04_1)",
			[]termInfo{{"apple.n.01_1", true, "instance"}, {"plate.n.04_1", false, "instance"}}},
		{"room constant", "(inroom sink.n.01_1 kitchen)",
			[]termInfo{{"sink.n.01_1", false, "instance"}, {"kitchen", false, "constant"}}},
		{"wildcard", "(inroom ?cabinet.n.01_* kitchen)",
			[]termInfo{{"cabinet.n.01_*", true, "instance"}, {"kitchen", false, "constant"}}},
		{"bound variable", "(forall (?apple.n.01 - apple.n.01) (cooked ?apple.n.01))",
			[]termInfo{{"apple.n.01", true, "variable"}}},
		{"bound variable with an instance's shape", "(forn (1) (?bowl.n.01_1 - bowl.n.01) (inside ?bowl.n.01_1 ?sink.n.01_1))",
			[]termInfo{{"bowl.n.01_1", true, "variable"}, {"sink.n.01_1", true, "instance"}}},
		{"binding is case-insensitive", "(exists (?X - a.n.01) (cooked ?x))",
			[]termInfo{{"x", true, "variable"}}},
		{"unbound ?name is a variable", "(cooked ?x)",
			[]termInfo{{"x", true, "variable"}}},
		{"scope ends with the quantifier", "(and (forall (?x - a.n.01) (p ?x)) (q ?x) (r x))",
			[]termInfo{{"x", true, "variable"}, {"x", true, "variable"}, {"x", false, "constant"}}},
		{"bare bound name is a variable", "(forall (?x - a.n.01) (p x))",
			[]termInfo{{"x", false, "variable"}}},
		{"pair quantifier binds both", "(forpairs (?a - a.n.01) (?b - b.n.01) (ontop ?a ?b))",
			[]termInfo{{"a", true, "variable"}, {"b", true, "variable"}}},
		{"nested scopes", "(forall (?a - a.n.01) (exists (?b - b.n.01) (and (ontop ?a ?b) (nextto ?b ?c))))",
			[]termInfo{{"a", true, "variable"}, {"b", true, "variable"}, {"b", true, "variable"}, {"c", true, "variable"}}},
		{"zero arguments", "(timeset)", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, goal := parseGoal(t, tt.goal)
			if diff := cmp.Diff(tt.want, termsOf(goal)); diff != "" {
				t.Errorf("terms of %s (-want +got):\n%s", tt.goal, diff)
			}
		})
	}
}

func TestTermText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		term Term
		text string
		key  string
	}{
		{Term{Name: "apple.n.01_1", Question: true}, "?apple.n.01_1", "apple.n.01_1"},
		{Term{Name: "Kitchen"}, "Kitchen", "kitchen"},
		{Term{Name: "X", Question: true}, "?X", "x"},
	}
	for _, tt := range tests {
		if got := tt.term.Text(); got != tt.text {
			t.Errorf("%+v.Text() = %q, want %q", tt.term, got, tt.text)
		}
		if got := tt.term.Key(); got != tt.key {
			t.Errorf("%+v.Key() = %q, want %q", tt.term, got, tt.key)
		}
	}
	for k, want := range map[TermKind]string{InstanceTerm: "instance", VariableTerm: "variable", ConstantTerm: "constant"} {
		if got := k.String(); got != want {
			t.Errorf("TermKind(%d).String() = %q, want %q", k, got, want)
		}
	}
}

func TestQuantKind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		k              QuantKind
		name           string
		counted, pairs bool
	}{
		{Forall, "forall", false, false},
		{Exists, "exists", false, false},
		{ForN, "forn", true, false},
		{ForPairs, "forpairs", false, true},
		{ForNPairs, "fornpairs", true, true},
	}
	for _, tt := range tests {
		if tt.k.String() != tt.name || tt.k.Counted() != tt.counted || tt.k.Pairs() != tt.pairs {
			t.Errorf("QuantKind %d = %q counted=%v pairs=%v, want %q %v %v", tt.k, tt.k, tt.k.Counted(), tt.k.Pairs(), tt.name, tt.counted, tt.pairs)
		}
	}
}

// TestFormulaKinds checks the node type, count and variables built for
// every kind of formula, and that keywords are case-insensitive.
func TestFormulaKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		goal string
		want string // DebugString of the goal
	}{
		{"atom", "(cooked ?a.n.01_1)", "#0(cooked i:?a.n.01_1)"},
		{"not", "(not (cooked ?a.n.01_1))", "#0(not #1(cooked i:?a.n.01_1))"},
		{"and", "(and (p a) (q b))", "#0(and #1(p c:a) #2(q c:b))"},
		{"empty and", "(and)", "#0(and)"},
		{"or", "(or (p a) (q b) (r c))", "#0(or #1(p c:a) #2(q c:b) #3(r c:c))"},
		{"imply", "(imply (p a) (q b))", "#0(imply #1(p c:a) #2(q c:b))"},
		{"forall", "(forall (?x - a.n.01) (p ?x))", "#0(forall (?x - a.n.01) #1(p v:?x))"},
		{"exists", "(exists (?x - a.n.01) (p ?x))", "#0(exists (?x - a.n.01) #1(p v:?x))"},
		{"forn", "(forn (3) (?x - a.n.01) (p ?x))", "#0(forn 3 (?x - a.n.01) #1(p v:?x))"},
		{"forn zero", "(forn (0) (?x - a.n.01) (p ?x))", "#0(forn 0 (?x - a.n.01) #1(p v:?x))"},
		{"forpairs", "(forpairs (?x - a.n.01) (?y - b.n.01) (p ?x ?y))", "#0(forpairs (?x - a.n.01) (?y - b.n.01) #1(p v:?x v:?y))"},
		{"fornpairs", "(fornpairs (2) (?x - a.n.01) (?y - b.n.01) (p ?x ?y))", "#0(fornpairs 2 (?x - a.n.01) (?y - b.n.01) #1(p v:?x v:?y))"},
		{"upper-case keywords", "(AND (NOT (P a)) (FORALL (?X - a.n.01) (OR (Q ?x) (IMPLY (R ?X) (EXISTS (?y - b.n.01) (S ?Y))))))",
			"#0(and #1(not #2(P c:a)) #3(forall (?X - a.n.01) #4(or #5(Q v:?x) #6(imply #7(R v:?X) #8(exists (?y - b.n.01) #9(S v:?Y))))))"},
		{"mixed-case counted quantifiers", "(and (ForN (1) (?x - a.n.01) (p ?x)) (ForNPairs (1) (?x - a.n.01) (?y - a.n.01) (p ?x ?y)) (ForPairs (?x - a.n.01) (?y - a.n.01) (p ?x ?y)))",
			"#0(and #1(forn 1 (?x - a.n.01) #2(p v:?x)) #3(fornpairs 1 (?x - a.n.01) (?y - a.n.01) #4(p v:?x v:?y)) #5(forpairs (?x - a.n.01) (?y - a.n.01) #6(p v:?x v:?y)))"},
		{"predicate named like a type", "(and-also a)", "#0(and-also c:a)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, goal := parseGoal(t, tt.goal)
			if got := DebugString(goal); got != tt.want {
				t.Errorf("DebugString(goal %s) =\n  %s\nwant\n  %s", tt.goal, got, tt.want)
			}
			if n := strings.Count(tt.want, "#"); p.NumNodes != n {
				t.Errorf("NumNodes = %d, want %d", p.NumNodes, n)
			}
		})
	}
}

func TestQuantFields(t *testing.T) {
	t.Parallel()
	_, goal := parseGoal(t, "(fornpairs (2) (?x - a.n.01) (?y - b.n.01) (p ?x ?y))")
	q, ok := goal.(*Quant)
	if !ok {
		t.Fatalf("goal is %T, want *Quant", goal)
	}
	if q.Kind != ForNPairs || q.N != 2 || len(q.Vars) != 2 {
		t.Fatalf("Quant = kind %v n %d vars %d, want fornpairs 2 with 2 vars", q.Kind, q.N, len(q.Vars))
	}
	for i, want := range []struct{ v, typ string }{{"x", "a.n.01"}, {"y", "b.n.01"}} {
		if q.Vars[i].Var.Name != want.v || q.Vars[i].Type.Name != want.typ {
			t.Errorf("Vars[%d] = %s - %s, want %s - %s", i, q.Vars[i].Var.Name, q.Vars[i].Type.Name, want.v, want.typ)
		}
	}
	src := p0Source(t, q)
	if got := src[q.NRange.Start.Offset:q.NRange.End.Offset]; got != "(2)" {
		t.Errorf("NRange covers %q, want %q", got, "(2)")
	}
	if got := src[q.Vars[1].Range.Start.Offset:q.Vars[1].Range.End.Offset]; got != "(?y - b.n.01)" {
		t.Errorf("Vars[1].Range covers %q, want %q", got, "(?y - b.n.01)")
	}
	if got := src[q.Vars[0].Var.Range.Start.Offset:q.Vars[0].Var.Range.End.Offset]; got != "?x" {
		t.Errorf("Vars[0].Var.Range covers %q, want %q (the variable as written)", got, "?x")
	}
}

// p0Source rebuilds the source text parseGoal parsed the formula from.
func p0Source(t testing.TB, f Formula) string {
	t.Helper()
	return "(define (problem p-0) (:domain omnigibson) (:objects) (:init)\n(:goal " + String(f) + "))"
}

// TestNodeRanges checks, on every parse input, that each formula's range
// covers its own parenthesised text, that ids are 0..NumNodes-1 in source
// order, and that an atom's text is the atom as String prints it.
func TestNodeRanges(t *testing.T) {
	t.Parallel()
	for _, in := range globT(t, "testdata/parse/*.bddl") {
		src := readT(t, in)
		f, _ := ParseFile(in, src)
		p := f.Problem
		if p == nil {
			continue
		}
		next, lastStart := 0, int32(-1)
		visit := func(n Formula) bool {
			info := n.Info()
			r := info.Range
			if info.ID != next {
				t.Errorf("%s: node at %s has id %d, want %d", in, r.Start, info.ID, next)
			}
			next++
			if r.Start.Offset <= lastStart {
				t.Errorf("%s: node %d at %s does not start after the previous node", in, info.ID, r.Start)
			}
			lastStart = r.Start.Offset
			text := string(src[r.Start.Offset:r.End.Offset])
			if !strings.HasPrefix(text, "(") || !strings.HasSuffix(text, ")") {
				t.Errorf("%s: node %d range %s-%s covers %q, want a parenthesised form", in, info.ID, r.Start, r.End, text)
				return true
			}
			if NewSource("", src).Pos(int(r.Start.Offset)) != r.Start {
				t.Errorf("%s: node %d start %+v disagrees with its offset", in, info.ID, r.Start)
			}
			if a, ok := n.(*Atom); ok && !strings.Contains(text, ";") {
				if got, want := strings.Join(strings.Fields(text), " "), String(a); got != want {
					t.Errorf("%s: atom %d covers %q, want %q", in, info.ID, got, want)
				}
				for _, arg := range a.Args {
					if got := string(src[arg.Range.Start.Offset:arg.Range.End.Offset]); got != arg.Text() {
						t.Errorf("%s: term range covers %q, want %q", in, got, arg.Text())
					}
				}
			}
			return true
		}
		for _, x := range p.Init {
			Inspect(x, visit)
		}
		Inspect(p.Goal, visit)
		if next != p.NumNodes {
			t.Errorf("%s: visited %d nodes, NumNodes = %d", in, next, p.NumNodes)
		}
	}
}

// TestDefineRange checks that a file's range is its (define ...) form: it
// ends after the closing ')', not at the end of the file, so that what
// follows (comments, blank lines) is outside it.
func TestDefineRange(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
	}{
		{"problem", "(define (problem p) (:domain d) (:objects) (:init) (:goal (and)))\n"},
		{"problem with trailing comment", "(define (problem p) (:domain d) (:objects) (:init) (:goal (and)))\n; after\n\n"},
		{"problem with leading comment", "; before\n(define (problem p) (:domain d) (:objects) (:init) (:goal (and)))"},
		{"domain", "(define (domain d) (:predicates (p ?x)))\n\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f, diags := ParseFile("r.bddl", []byte(tt.src))
			if len(diags) != 0 {
				t.Fatalf("ParseFile:\n%s", brief(diags))
			}
			var r Range
			if f.Problem != nil {
				r = f.Problem.Range
			} else {
				r = f.Domain.Range
			}
			start := strings.Index(tt.src, "(define")
			end := strings.LastIndex(tt.src, ")") + 1
			if int(r.Start.Offset) != start || int(r.End.Offset) != end {
				t.Errorf("range = %d-%d (%s-%s), want %d-%d: the (define ...) form", r.Start.Offset, r.End.Offset, r.Start, r.End, start, end)
			}
		})
	}
}

// TestFormatKeepsTrailingComments checks that comments after the
// definition stay after it.
func TestFormatKeepsTrailingComments(t *testing.T) {
	t.Parallel()
	src := "(define (problem p) (:domain d) (:objects) (:init) (:goal (and)))\n; after the definition\n"
	f, diags := ParseFile("c.bddl", []byte(src))
	if len(diags) != 0 {
		t.Fatalf("ParseFile:\n%s", brief(diags))
	}
	out := string(Format(f))
	if !strings.HasSuffix(out, ")\n; after the definition\n") {
		t.Errorf("Format moved the trailing comment into the definition:\n%s", out)
	}
}

func TestParseProblemAndDomain(t *testing.T) {
	t.Parallel()
	problem := []byte("(define (problem p) (:domain d) (:objects) (:init) (:goal (and)))")
	domain := []byte("(define (domain d) (:requirements :strips) (:predicates (p ?x) (q ?x ?y)))")

	p, diags := ParseProblem("p.bddl", problem)
	if p == nil || len(diags) != 0 {
		t.Errorf("ParseProblem(problem) = %v, %v, want a problem and no diagnostics", p, diags)
	}
	d, diags := ParseDomain("d.bddl", domain)
	if d == nil || len(diags) != 0 {
		t.Fatalf("ParseDomain(domain) = %v, %v, want a domain and no diagnostics", d, diags)
	}
	if d.Name.Name != "d" || len(d.Predicates) != 2 || len(d.Requirements) != 1 || d.Requirements[0].Name != ":strips" {
		t.Errorf("ParseDomain = %+v, want domain d with :strips and 2 predicates", d)
	}
	if q, ok := d.Predicate("Q"); !ok || len(q.Params) != 2 || q.Params[0].Name != "x" {
		t.Errorf("Predicate(%q) = %+v, %v, want q with params x y", "Q", q, ok)
	}
	if _, ok := d.Predicate("r"); ok {
		t.Errorf("Predicate(%q) found an undeclared predicate", "r")
	}

	p, diags = ParseProblem("d.bddl", domain)
	if p != nil || !diags.HasErrors() || !strings.Contains(diags[len(diags)-1].Summary, "expected a problem file") {
		t.Errorf("ParseProblem(domain) = %v, %v, want nil and an error", p, diags)
	}
	d, diags = ParseDomain("p.bddl", problem)
	if d != nil || !diags.HasErrors() || !strings.Contains(diags[len(diags)-1].Summary, "expected a domain file") {
		t.Errorf("ParseDomain(problem) = %v, %v, want nil and an error", d, diags)
	}
}

func TestProblemSection(t *testing.T) {
	t.Parallel()
	p, _ := ParseProblem("p.bddl", []byte("(define (problem p) (:DOMAIN d) (:objects) (:Init) (:goal (and)))"))
	for _, kw := range []string{":domain", ":objects", ":init", ":goal"} {
		s, ok := p.Section(kw)
		if !ok || s.Keyword.Key() != kw {
			t.Errorf("Section(%q) = %+v, %v, want the section", kw, s, ok)
		}
	}
	if s, ok := p.Section(":requirements"); ok {
		t.Errorf("Section(%q) = %+v, want none", ":requirements", s)
	}
}

func TestWalk(t *testing.T) {
	t.Parallel()
	p, goal := parseGoal(t, "(and (not (p a)) (or (q b) (imply (r c) (s d))) (forall (?x - t.n.01) (u ?x)))")
	var preds []string
	Inspect(goal, func(f Formula) bool {
		if a, ok := f.(*Atom); ok {
			preds = append(preds, a.Pred.Name)
		}
		return true
	})
	if diff := cmp.Diff([]string{"p", "q", "r", "s", "u"}, preds); diff != "" {
		t.Errorf("Inspect atoms (-want +got):\n%s", diff)
	}
	// Returning false prunes the subtree.
	var visited int
	Inspect(goal, func(f Formula) bool {
		visited++
		_, isOr := f.(*Or)
		return !isOr
	})
	if visited != 6 { // and, not, p, or (its operands pruned), forall, u
		t.Errorf("Inspect with the or pruned visited %d nodes, want 6", visited)
	}
	Inspect(nil, func(Formula) bool { t.Error("Inspect(nil) called fn"); return true })

	and := goal.(*And)
	for i, want := range []int{1, 2, 1} {
		if got := len(Operands(and.Xs[i])); got != want {
			t.Errorf("len(Operands(%s)) = %d, want %d", String(and.Xs[i]), got, want)
		}
	}
	if Operands(&Atom{}) != nil {
		t.Errorf("Operands(atom) != nil")
	}

	var atoms []string
	p.Atoms(func(a *Atom) { atoms = append(atoms, a.Pred.Name) })
	if diff := cmp.Diff(preds, atoms); diff != "" {
		t.Errorf("Problem.Atoms (-want +got):\n%s", diff)
	}
}

func TestString(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"(cooked   ?a.n.01_1 )", "(cooked ?a.n.01_1)"},
		{"(NOT (p a))", "(not (p a))"},
		{"(and (p a) (or (q b) (imply (r c) (s d))))", "(and (p a) (or (q b) (imply (r c) (s d))))"},
		{"(forn (2) (?x - a.n.01) (p ?x))", "(forn (2) (?x - a.n.01) (p ?x))"},
		{"(fornpairs (2) (?x - a.n.01) (?y - b.n.01) (p ?x ?y))", "(fornpairs (2) (?x - a.n.01) (?y - b.n.01) (p ?x ?y))"},
		{"(and)", "(and)"},
	}
	for _, tt := range tests {
		_, goal := parseGoal(t, tt.in)
		if got := String(goal); got != tt.want {
			t.Errorf("String(%s) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := String(nil); got != "<nil>" {
		t.Errorf("String(nil) = %q, want <nil>", got)
	}
	if got := DebugString(nil); got != "<nil>" {
		t.Errorf("DebugString(nil) = %q, want <nil>", got)
	}
}

// TestPartialTree checks that a file with errors still gives the parts of
// the tree that parsed, as go/parser does.
func TestPartialTree(t *testing.T) {
	t.Parallel()
	src := problemWith("(and (cooked ?apple.n.01_1) () (hot ?apple.n.01_1))")
	p, diags := ParseProblem("partial.bddl", []byte(src))
	if !diags.HasErrors() {
		t.Fatalf("ParseProblem gave no error for an empty formula")
	}
	if p == nil || p.Goal == nil {
		t.Fatalf("ParseProblem gave no goal")
	}
	if got, want := String(p.Goal), "(and (cooked ?apple.n.01_1) (hot ?apple.n.01_1))"; got != want {
		t.Errorf("partial goal = %s, want %s", got, want)
	}
	if len(p.Init) != 1 || len(p.Objects) != 1 || p.Domain.Name != "omnigibson" {
		t.Errorf("partial problem lost sections: %s", p.DebugString())
	}
}

// TestHeaderErrorsNameNoInternals checks that errors in the (define ...)
// header describe BDDL, not the parser's grammar types.
func TestHeaderErrorsNameNoInternals(t *testing.T) {
	t.Parallel()
	for _, src := range []string{"(define (problem))", "(foo bar)", "(define (activity x))", "(define problem x)", "(define (problem x y))", ")"} {
		_, diags := ParseFile("h.bddl", []byte(src))
		if len(diags) == 0 {
			t.Errorf("ParseFile(%q) gave no diagnostic", src)
			continue
		}
		for _, d := range diags {
			for _, internal := range []string{"gName", "GName", "gBody", "gClose", "gRest", "gFile"} {
				if strings.Contains(d.Summary+d.Detail, internal) {
					t.Errorf("ParseFile(%q) message %q names the grammar type %s", src, d.Summary, internal)
				}
			}
		}
	}
}

// TestMissingSectionsAllReported checks that a problem lacking several
// sections is told about each of them, though they all point at the name.
func TestMissingSectionsAllReported(t *testing.T) {
	t.Parallel()
	_, diags := ParseFile("m.bddl", []byte("(define (problem m)\n (:domain d))"))
	var got []string
	for _, d := range diags {
		if d.Code == "missing-section" {
			got = append(got, d.Summary)
		}
	}
	text := strings.Join(got, "; ")
	for _, kw := range []string{":objects", ":init", ":goal"} {
		if !strings.Contains(text, kw) {
			t.Errorf("missing-section diagnostics %q do not mention %s", text, kw)
		}
	}
}

// TestConcurrentParse checks that ParseFile may be called from many
// goroutines at once (the CLI does so), giving each the same result.
func TestConcurrentParse(t *testing.T) {
	t.Parallel()
	srcs := globT(t, "testdata/parse/*.bddl")
	want := make([]string, len(srcs))
	for i, in := range srcs {
		f, _ := ParseFile(in, readT(t, in))
		want[i] = dumpFile(f)
	}
	errs := make(chan string, 8*len(srcs))
	done := make(chan struct{})
	for range 8 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i, in := range srcs {
				f, _ := ParseFile(in, readT(t, in))
				if got := dumpFile(f); got != want[i] {
					errs <- fmt.Sprintf("%s: concurrent parse differs:\n%s", in, cmp.Diff(want[i], got))
				}
			}
		}()
	}
	for range 8 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// TestFormatIdempotentCommentAtEOF is the fuzzer's find
// testdata/fuzz/FuzzParse/e0664c53aed548be: a one-character comment right
// after the final ')', with no newline, moves on each Format.
func TestFormatIdempotentCommentAtEOF(t *testing.T) {
	t.Parallel()
	for _, src := range []string{
		"(define (problem p) (:domain d) (:objects) (:init) (:goal (and)));",
		"(define (problem p) (:domain d) (:objects) (:init) (:goal (and))) ;",
		"(define (problem p) (:domain d) (:objects) (:init) (:goal (and))) ; c",
		"(define (problem p) (:domain d) (:objects) (:init) (:goal (and)))\n;\n",
	} {
		f, diags := ParseFile("eof.bddl", []byte(src))
		if len(diags) != 0 {
			t.Fatalf("ParseFile(%q):\n%s", src, brief(diags))
		}
		once := Format(f)
		f2, _ := ParseFile("eof.bddl", once)
		if twice := Format(f2); string(twice) != string(once) {
			t.Errorf("Format is not idempotent on %q:\nonce:\n%s\ntwice:\n%s", src, once, twice)
		}
	}
}

// TestNodeIDsFollowInspectOrder checks that a parse numbers every node of
// :init and :goal 0..NumNodes-1 in the order Inspect visits them.
func TestNodeIDsFollowInspectOrder(t *testing.T) {
	t.Parallel()
	src := []byte(`(define (problem p) (:domain omnigibson)
  (:objects a.n.01_1 a.n.01_2 - a.n.01 t.n.01_1 - t.n.01)
  (:init (ontop a.n.01_1 t.n.01_1) (not (cooked a.n.01_2)))
  (:goal (and (imply (cooked ?a.n.01_1) (or (hot ?a.n.01_1) (not (frozen ?a.n.01_2))))
              (forall (?a.n.01 - a.n.01) (exists (?t.n.01 - t.n.01) (ontop ?a.n.01 ?t.n.01)))
              (forn (1) (?a.n.01 - a.n.01) (cooked ?a.n.01))
              (fornpairs (1) (?a.n.01 - a.n.01) (?t.n.01 - t.n.01) (ontop ?a.n.01 ?t.n.01)))))`)
	p, diags := ParseProblem("ids.bddl", src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	want := 0
	visit := func(f Formula) bool {
		if got := f.Info().ID; got != want {
			t.Errorf("%s has id %d, want %d", String(f), got, want)
		}
		want++
		return true
	}
	for _, f := range p.Init {
		Inspect(f, visit)
	}
	Inspect(p.Goal, visit)
	if p.NumNodes != want || want != 17 {
		t.Errorf("NumNodes = %d, visited %d nodes, want 17", p.NumNodes, want)
	}
}
