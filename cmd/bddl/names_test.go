package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
)

// TestDidYouMean checks that every name looked up suggests the closest
// when it is mistyped: activities, scenes, rules, flags, commands.
func TestDidYouMean(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"sample", "tidying_the_living_rom", "-o", out}, "did you mean tidying_the_living_room?"},
		{[]string{"explain", "baking_a_tray_of_cookie"}, "did you mean baking_a_tray_of_cookies?"},
		{[]string{"validate", "cleaning_shoe"}, "did you mean cleaning_shoes?"},
		{[]string{"validate", "--formt", "json"}, "did you mean --format?"},
		{[]string{"check", "--epsiode", "x.jsonl"}, "did you mean --episode?"},
		{[]string{"--kbb", "x", "kb", "show", "apple.n.01"}, "unknown flag: --kbb"},
		{[]string{"chek"}, "Did you mean this?\n\tcheck"},
		{[]string{"transition", "explain", "sugar_cookie"}, "did you mean sugar_cookies?"},
		{[]string{"sample", "--after", "sugar_cookie", "-o", out}, "did you mean sugar_cookies?"},
		{[]string{"check", "--activity", "cook_bacon", "--episode", examplePath("cleaning_shoes", "")}, "give --activities DIR"},
	}
	for _, tt := range tests {
		r := runBDDL(t, tt.args...)
		r.wantCode(t, tt.args, exitMisuse)
		if !strings.Contains(r.stderr, tt.want) {
			t.Errorf("bddl %v stderr:\n%s\nwant %q", tt.args, r.stderr, tt.want)
		}
	}
}

// TestNameLookup checks that explain and validate take an embedded
// example's name as they take its file.
func TestNameLookup(t *testing.T) {
	t.Parallel()
	byName := runBDDL(t, "explain", "baking_a_tray_of_cookies")
	byName.wantCode(t, []string{"explain", "baking_a_tray_of_cookies"}, exitOK)
	file := filepath.Join("..", "..", "activities", "examples", "baking_a_tray_of_cookies", "problem0.bddl")
	byFile := runBDDL(t, "explain", file)
	if byName.stdout != byFile.stdout || byName.stdout == "" {
		t.Errorf("explain by name:\n%s\nby file:\n%s", byName.stdout, byFile.stdout)
	}
	r := runBDDL(t, "validate", "--quiet", "cleaning_shoes")
	if r.code == exitMisuse {
		t.Errorf("validate cleaning_shoes: %s", r.stderr)
	}
}

// TestNameLookupLibrary: names in a BEHAVIOR-1K library, given by
// --activities, resolve in explain, validate and sample.
func TestNameLookupLibrary(t *testing.T) {
	t.Parallel()
	dir := corpus.ActivitiesDir(t)
	for _, args := range [][]string{
		{"explain", "--activities", dir, "cook_bacon"},
		{"validate", "--quiet", "--activities", dir, "cook_bacon"},
	} {
		r := runBDDL(t, args...)
		if r.code == exitMisuse {
			t.Errorf("bddl %v: exit 2: %s", args, r.stderr)
		}
	}
	args := []string{"validate", "--activities", dir, "cook_bacn"}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
	if !strings.Contains(r.stderr, "did you mean cook_bacon?") {
		t.Errorf("bddl %v: %s", args, r.stderr)
	}
}

// TestScenesDidYouMean: a mistyped --scene suggests the scene.
func TestScenesDidYouMean(t *testing.T) {
	t.Parallel()
	kbDir := corpus.KBDir(t)
	args := []string{"--kb", kbDir, "sample", "tidying_the_living_room", "--scene", "Rs_intt", "-o", t.TempDir()}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
	if !strings.Contains(r.stderr, "did you mean Rs_int?") {
		t.Errorf("bddl %v: %s", args, r.stderr)
	}
}

// TestMessagesSayWhatToDo: errors that name the fix (item 9).
func TestMessagesSayWhatToDo(t *testing.T) {
	t.Parallel()
	def := filepath.Join("..", "..", "activities", "examples", "cleaning_shoes", "problem0.bddl")
	missing := filepath.Join(t.TempDir(), "no_dir", "one.jsonl")
	tests := []struct {
		args      []string
		code      int
		want, not string
	}{
		{[]string{"check", "--episode", def}, exitMisuse, "give it as --activity", "expected"},
		{[]string{"parse"}, exitMisuse, "needs definition files", "arg(s)"},
		{[]string{"episode", "from-init", "cleaning_shoes", "-o", missing}, -1, "does not exist", ".tmp"},
	}
	for _, tt := range tests {
		r := runBDDL(t, tt.args...)
		if tt.code >= 0 {
			r.wantCode(t, tt.args, tt.code)
		}
		if !strings.Contains(r.stderr, tt.want) || (tt.not != "" && strings.Contains(r.stderr, tt.not)) {
			t.Errorf("bddl %v stderr:\n%s\nwant %q, not %q", tt.args, r.stderr, tt.want, tt.not)
		}
	}
}

// TestValidateRecovers: after a syntax error the reference passes over
// (a second goal formula), the semantic rules still run on the recovered
// tree (item 10); after one that breaks the tree, only syntax is reported.
func TestValidateRecovers(t *testing.T) {
	t.Parallel()
	args := []string{"validate", filepath.Join("testdata", "two_goal_formulas.bddl")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	for _, want := range []string{"[goal-formulas]", "[unplaced]"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("bddl %v lacks %s:\n%s", args, want, r.stderr)
		}
	}
	args = []string{"validate", filepath.Join("testdata", "broken.bddl")}
	r = runBDDL(t, args...)
	if strings.Contains(r.stdout, "placement") || strings.Contains(r.stdout, "objects ") {
		t.Errorf("semantic rules ran on a broken tree:\n%s", r.stdout)
	}
}
