package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckGoalFormulas checks an episode against a definition with two
// goal formulas: by default only the first is evaluated, as the reference
// does (it holds: success), with a warning naming the ignored formula;
// --goal-formulas all evaluates both (the cabinet is open: failure);
// --warnings-as-errors refuses the definition, as check refuses any
// defective --activity (exit 2).
func TestCheckGoalFormulas(t *testing.T) {
	t.Parallel()
	def := filepath.Join("testdata", "two_goal_formulas.bddl")
	ep := filepath.Join("testdata", "two_goal_formulas.jsonl")
	args := []string{"check", "--activity", def, "--episode", ep}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 0)
	if !strings.Contains(r.stderr, "warning: (not (open ?cabinet.n.01_1)) at 15:9 is ignored by the reference") {
		t.Errorf("bddl %s stderr lacks the warning:\n%s", strings.Join(args, " "), r.stderr)
	}
	// The result carries the definition's warning with its position.
	args = []string{"check", "--format", "json", "--activity", def, "--episode", ep}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
	if !strings.Contains(r.stdout, `two_goal_formulas.bddl:15:9: warning: (not (open ?cabinet.n.01_1)) at 15:9 is ignored`) {
		t.Errorf("bddl %s result lacks the definition's warning:\n%s", strings.Join(args, " "), r.stdout)
	}
	args = []string{"check", "--goal-formulas", "all", "--activity", def, "--episode", ep}
	runBDDL(t, args...).wantCode(t, args, exitFindings)
	args = []string{"check", "--warnings-as-errors", "--activity", def, "--episode", ep}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
	if !strings.Contains(r.stderr, "15:9: error: (not (open ?cabinet.n.01_1))") {
		t.Errorf("bddl %s stderr lacks the error:\n%s", strings.Join(args, " "), r.stderr)
	}
}
