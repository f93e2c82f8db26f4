package activities

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/openbddl/bddl/kb"
)

func TestActivityPath(t *testing.T) {
	for _, tc := range []struct {
		path     string
		activity string
		n        int
		ok       bool
	}{
		{"a/b/baking_cookies/problem0.bddl", "baking_cookies", 0, true},
		{"baking_cookies/problem12.bddl", "baking_cookies", 12, true},
		{`c:\defs\Mixed_Case\problem3.bddl`, "Mixed_Case", 3, true},
		{"problem0.bddl", "", 0, false},
		{"x/problem.bddl", "", 0, false},
		{"x/problemA.bddl", "", 0, false},
		{"x/domain_omnigibson.bddl", "", 0, false},
		{"x/problem0.txt", "", 0, false},
	} {
		a, n, ok := ActivityPath(tc.path)
		if a != tc.activity || n != tc.n || ok != tc.ok {
			t.Errorf("ActivityPath(%q) = %q, %d, %v; want %q, %d, %v", tc.path, a, n, ok, tc.activity, tc.n, tc.ok)
		}
	}
}

// TestExamples checks that the embedded examples load and validate
// against the embedded default knowledge base with no errors.
func TestExamples(t *testing.T) {
	lib := Examples()
	if len(lib.Activities) == 0 {
		t.Fatal("no embedded examples")
	}
	for i, rep := range lib.Validate(kb.Default()) {
		a := lib.Activities[i]
		if a.Problem == nil {
			t.Errorf("%s: no problem", a.Path)
		}
		for _, f := range rep.Findings {
			if f.Severity == 0 { // bddl.Error
				t.Errorf("%s", f.Error())
			}
		}
	}
	first := lib.Activities[0]
	for _, name := range []string{first.Name, first.ID(), first.Name + "/problem0", first.Name + "/problem0.bddl"} {
		if a, ok := lib.Find(name); !ok || a != first {
			t.Errorf("Find(%q) = %v, %v", name, a, ok)
		}
	}
	if _, ok := lib.Find("no_such_activity"); ok {
		t.Error("Find of an unknown activity succeeded")
	}
	if names := lib.Names(); !slices.IsSorted(names) || len(names) != len(lib.Activities) {
		t.Errorf("Names() = %v", names)
	}
}

func TestLoadDir(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("set/b_act/problem1.bddl", "(define (problem b_act-1) (:domain omnigibson) (:objects) (:init) (:goal (and)))")
	write("set/b_act/problem0.bddl", "(define (problem b_act-0) (:domain omnigibson) (:objects) (:init) (:goal (and)))")
	write("a_act/problem0.bddl", "(define (problem a_act-0) (:domain omnigibson) (:objects) (:init) (:goal (and))") // unclosed
	write("domain_omnigibson.bddl", "(define (domain omnigibson) (:predicates (ontop ?a ?b)))")
	write("notes/readme.txt", "not a definition")
	lib, err := LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := lib.Names(), []string{"a_act-0", "b_act-0", "b_act-1"}; !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	if !lib.Activities[0].Diagnostics.HasErrors() {
		t.Error("a_act: the syntax error is not kept")
	}
	if a, ok := lib.Find("B_ACT"); !ok || a.Instance != 0 {
		t.Errorf("Find(B_ACT) = %v, %v; want b_act-0", a, ok)
	}
	if want := filepath.Join(dir, "set", "b_act", "problem1.bddl"); lib.Activities[2].Path != want {
		t.Errorf("Path = %q, want %q", lib.Activities[2].Path, want)
	}
	if _, err := LoadDir(filepath.Join(dir, "missing")); err == nil {
		t.Error("LoadDir of a missing directory succeeded")
	}
}
