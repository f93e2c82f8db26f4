package activities

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/kb"
)

func TestCheckKB(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "kb_rules.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	base, err := kb.LoadYAML("kb_rules.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range CheckKB(base) {
		got = append(got, f.Code+" "+f.Message)
	}
	slices.Sort(got)
	contains := func(code string, parts ...string) {
		t.Helper()
		for _, g := range got {
			if !strings.HasPrefix(g, code+" ") {
				continue
			}
			all := true
			for _, p := range parts {
				all = all && strings.Contains(g, p)
			}
			if all {
				return
			}
		}
		t.Errorf("no %s finding mentioning %q in:\n%s", code, parts, strings.Join(got, "\n"))
	}
	contains("rule-clash", `"cookies" and "apple_cookies"`)
	contains("rule-clash", `"cookies" and "raw_dough_bread"`)
	contains("rule-clash", `"cookies" and "cooked_dough_tart"`)
	contains("rule-nonleaf", "food.n.01")
	contains("rule-inapplicable", "(not (cooked bowl.n.01))")
	contains("rule-predicate", "sliced")
	contains("rule-predicate", "ontop")
	contains("rule-substance-count", "water.n.06", "count 2")
	contains("rule-duplicate-name", `"cookies"`)

	// Exactly these clashes: every pair, and none across equipment, with
	// contradicting states (raw_dough_bread, cooked_dough_tart) or with the
	// same outputs (apple_cookies, cooked_dough_tart).
	var clashes []string
	for _, g := range got {
		if strings.HasPrefix(g, "rule-clash ") {
			clashes = append(clashes, g[:strings.Index(g, " clash:")])
		}
	}
	want := []string{
		`rule-clash heat_cook rules "apple_cookies" and "raw_dough_bread"`,
		`rule-clash heat_cook rules "cookies" and "apple_cookies"`,
		`rule-clash heat_cook rules "cookies" and "cooked_dough_tart"`,
		`rule-clash heat_cook rules "cookies" and "raw_dough_bread"`,
	}
	slices.Sort(want)
	if diff := cmp.Diff(want, clashes); diff != "" {
		t.Errorf("clashes (-want +got):\n%s", diff)
	}
}

func TestSubset(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []string
		want bool
	}{
		{"empty", nil, []string{"x"}, true},
		{"equal", []string{"a", "b"}, []string{"a", "b"}, true},
		{"proper", []string{"b"}, []string{"a", "b", "c"}, true},
		{"missing", []string{"a", "d"}, []string{"a", "b", "c"}, false},
		{"longer", []string{"a", "b"}, []string{"a"}, false},
	} {
		if got := subset(tc.a, tc.b); got != tc.want {
			t.Errorf("%s: subset(%v, %v) = %v, want %v", tc.name, tc.a, tc.b, got, tc.want)
		}
	}
}
