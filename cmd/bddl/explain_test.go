package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/openbddl/bddl/bddl"
)

func TestExplainText(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "cookies.bddl")
	args := []string{"explain", path}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	p, _ := bddl.ParseProblem(path, readFile(t, path))
	if want := bddl.ExplainProblem(p); r.stdout != want {
		t.Errorf("bddl explain =\n%s\nwant\n%s", r.stdout, want)
	}
	for _, want := range []string{
		"baking_sugar_cookies-0 (domain omnigibson)\n",
		"  - oven 1 is in the kitchen\n",
		"  - for every sugar_cookie: the sugar_cookie is cooked and is on top of cookie_sheet 1\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("bddl explain output lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.stderr != "" {
		t.Errorf("stderr = %q, want nothing", r.stderr)
	}
}

func TestExplainJSON(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", "cookies.bddl")
	args := []string{"explain", "--format", "json", path}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	var got struct {
		Problem string   `json:"problem"`
		Domain  string   `json:"domain"`
		Init    []string `json:"init"`
		Goal    []string `json:"goal"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("bddl explain --format json printed invalid JSON: %v\n%s", err, r.stdout)
	}
	if got.Problem != "baking_sugar_cookies-0" || got.Domain != "omnigibson" {
		t.Errorf("problem, domain = %q, %q", got.Problem, got.Domain)
	}
	wantInit := []string{
		"sugar_cookie 1 does not exist yet",
		"sugar_cookie 2 does not exist yet",
		"cookie_sheet 1 is on top of oven 1",
		"oven 1 is in the kitchen",
	}
	if diff := cmp.Diff(wantInit, got.Init); diff != "" {
		t.Errorf("init (-want +got):\n%s", diff)
	}
	wantGoal := []string{
		"sugar_cookie 1 exists",
		"sugar_cookie 2 exists",
		"for every sugar_cookie: the sugar_cookie is cooked and is on top of cookie_sheet 1",
	}
	if diff := cmp.Diff(wantGoal, got.Goal); diff != "" {
		t.Errorf("goal (-want +got):\n%s", diff)
	}
}

func TestExplainErrors(t *testing.T) {
	t.Parallel()
	broken := filepath.Join("testdata", "broken.bddl")
	for _, format := range []string{"text", "json"} {
		args := []string{"explain", "--format", format, broken}
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitFindings)
		// explain reads as the reference: the stray '\\' it skips is a
		// warning, the broken forall it refuses an error.
		if !strings.Contains(r.stderr, broken+":8:6: warning:") || !strings.Contains(r.stderr, broken+":11:14: error:") {
			t.Errorf("bddl %s stderr lacks the warning and the syntax error:\n%s", strings.Join(args, " "), r.stderr)
		}
		if r.stdout != "" {
			t.Errorf("bddl %s stdout = %q, want nothing", strings.Join(args, " "), r.stdout)
		}
	}
}

// TestExplainReadsAsReference checks the reading policy of a consuming
// command: a definition the reference loads is explained with warnings
// and exit 0; --warnings-as-errors refuses it; --goal-formulas all
// explains every goal formula; a bad --goal-formulas is misuse.
func TestExplainReadsAsReference(t *testing.T) {
	t.Parallel()
	two := filepath.Join("testdata", "two_goal_formulas.bddl")
	args := []string{"explain", two}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 0)
	if !strings.Contains(r.stderr, two+":15:9: warning: (not (open ?cabinet.n.01_1)) at 15:9 is ignored by the reference") {
		t.Errorf("bddl %s stderr lacks the goal-formulas warning:\n%s", strings.Join(args, " "), r.stderr)
	}
	if strings.Contains(r.stdout, "cabinet 1 is closed") {
		t.Errorf("bddl %s explains the ignored formula:\n%s", strings.Join(args, " "), r.stdout)
	}
	args = []string{"explain", "--goal-formulas", "all", two}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
	if !strings.Contains(r.stdout, "cabinet 1 is closed") {
		t.Errorf("bddl %s does not explain the second formula:\n%s", strings.Join(args, " "), r.stdout)
	}
	args = []string{"explain", "--warnings-as-errors", two}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if !strings.Contains(r.stderr, two+":15:9: error:") {
		t.Errorf("bddl %s stderr lacks the error:\n%s", strings.Join(args, " "), r.stderr)
	}
	args = []string{"explain", "--goal-formulas", "some", two}
	runBDDL(t, args...).wantCode(t, args, exitMisuse)
}
