package bddl

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// fakeSchema knows a fixed set of synsets.
type fakeSchema map[string]bool

func (s fakeSchema) IsSynset(name string) bool { return s[name] }

func (s fakeSchema) Suggest(name string) []string {
	var names []string
	for n := range s {
		names = append(names, n)
	}
	return closest(name, names, 3)
}

var testSchema = fakeSchema{
	"apple.n.01": true, "pear.n.01": true, "plate.n.04": true, "table.n.02": true,
	"floor.n.01": true, "agent.n.01": true, "cabinet.n.01": true,
}

// checkProblem builds a problem file from its :objects, :init and :goal bodies.
func checkProblem(objects, init, goal string) string {
	return fmt.Sprintf("(define (problem test-0)\n    (:domain omnigibson)\n    (:objects\n%s\n    )\n    (:init\n%s\n    )\n    (:goal\n%s\n    )\n)\n",
		objects, init, goal)
}

func TestCheck(t *testing.T) {
	t.Parallel()
	const objs = "        apple.n.01_1 apple.n.01_2 - apple.n.01\n        table.n.02_1 - table.n.02\n        floor.n.01_1 - floor.n.01"
	const init = "        (ontop apple.n.01_1 table.n.02_1)\n        (inroom table.n.02_1 kitchen)"
	tests := []struct {
		name                string
		objects, init, goal string
		want                []string // "code@line:col"
	}{
		{name: "clean", objects: objs, init: init,
			goal: "        (forall (?apple.n.01 - apple.n.01) (ontop ?apple.n.01 ?table.n.02_1))"},
		{name: "unknown predicate", objects: objs, init: init,
			goal: "        (ontopp ?apple.n.01_1 ?table.n.02_1)", want: []string{"unknown-predicate@13:10"}},
		{name: "arity", objects: objs, init: init,
			goal: "        (cooked ?apple.n.01_1 ?table.n.02_1)", want: []string{"arity@13:9"}},
		{name: "unknown synset", objects: objs + "\n        appel.n.01_1 - appel.n.01", init: init,
			goal: "        (ontop ?apple.n.01_1 ?table.n.02_1)", want: []string{"unknown-synset@7:24"}},
		{name: "instance type mismatch", objects: objs + "\n        apple.n.01_3 - pear.n.01", init: init,
			goal: "        (ontop ?apple.n.01_1 ?table.n.02_1)", want: []string{"instance-type-mismatch@7:9"}},
		{name: "bad instance name", objects: objs + "\n        apple - apple.n.01", init: init,
			goal: "        (ontop ?apple.n.01_1 ?table.n.02_1)", want: []string{"bad-instance-name@7:9", "duplicate-type-line@7:17"}},
		{name: "duplicate instance", objects: "        apple.n.01_1 apple.n.01_1 - apple.n.01\n        table.n.02_1 - table.n.02", init: init,
			goal: "        (ontop ?apple.n.01_1 ?table.n.02_1)", want: []string{"duplicate-instance@4:22"}},
		{name: "variable type mismatch", objects: objs, init: init,
			goal: "        (forall (?pear.n.01 - apple.n.01) (cooked ?pear.n.01))", want: []string{"variable-type-mismatch@13:18"}},
		{name: "shadowed variable", objects: objs, init: init,
			goal: "        (forall (?apple.n.01 - apple.n.01) (exists (?apple.n.01 - apple.n.01) (cooked ?apple.n.01)))",
			want: []string{"shadowed-variable@13:53"}},
		{name: "undeclared instance in goal", objects: objs, init: init,
			goal: "        (cooked ?apple.n.01_9)", want: []string{"undeclared-instance@13:17"}},
		{name: "unbound variable", objects: objs, init: init,
			goal: "        (cooked ?x)", want: []string{"unbound-variable@13:17"}},
		{name: "variable in init", objects: objs, init: init + "\n        (cooked ?apple.n.01)",
			goal: "        (cooked ?apple.n.01_1)", want: []string{"init-not-ground@11:17"}},
		{name: "connective in init", objects: objs, init: init + "\n        (and (cooked apple.n.01_1))",
			goal: "        (cooked ?apple.n.01_1)", want: []string{"init-not-literal@11:9"}},
		{name: "quantifier over undeclared category", objects: objs, init: init,
			goal: "        (forall (?plate.n.04 - plate.n.04) (cooked ?plate.n.04))", want: []string{"quantifier-type-undeclared@13:32"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := checkProblem(tt.objects, tt.init, tt.goal)
			p, diags := ParseProblem("test.bddl", []byte(src))
			if diags.HasErrors() {
				t.Fatalf("ParseProblem: %v\n%s", diags, src)
			}
			var got []string
			for _, d := range Check(p, nil, testSchema) {
				got = append(got, fmt.Sprintf("%s@%d:%d", d.Code, d.Subject.Start.Line, d.Subject.Start.Col))
			}
			slices.Sort(got)
			want := slices.Clone(tt.want)
			slices.Sort(want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("Check findings (-want +got):\n%s\n%s", diff, src)
			}
		})
	}
}

func TestCheckUnknownDomain(t *testing.T) {
	t.Parallel()
	src := strings.Replace(checkProblem("        apple.n.01_1 - apple.n.01", "        (cooked apple.n.01_1)", "        (cooked ?apple.n.01_1)"),
		"omnigibson", "omnigibsn", 1)
	p, diags := ParseProblem("test.bddl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	got := Check(p, nil, nil)
	if len(got) != 1 || got[0].Code != "unknown-domain" {
		t.Fatalf("Check = %v, want one unknown-domain", got)
	}
}

func TestCheckDidYouMean(t *testing.T) {
	t.Parallel()
	src := checkProblem("        appel.n.01_1 - appel.n.01", "        (cooked appel.n.01_1)", "        (cooked ?appel.n.01_1)")
	p, _ := ParseProblem("test.bddl", []byte(src))
	diags := Check(p, nil, testSchema)
	if len(diags) == 0 || !strings.Contains(diags[0].Detail, "apple.n.01") {
		t.Fatalf("Check = %v, want a did-you-mean naming apple.n.01", diags)
	}
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"", "", 3, 0}, {"abc", "abc", 3, 0}, {"abc", "abd", 3, 1}, {"kitten", "sitting", 5, 3},
		{"a", "abcdef", 2, 3}, {"ontop", "ontopp", 2, 1},
	}
	for _, tt := range tests {
		if got := EditDistance(tt.a, tt.b, tt.limit); got != tt.want {
			t.Errorf("EditDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}
