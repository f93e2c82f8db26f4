package recording

import (
	"strings"
	"testing"
	"time"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/predicates"
)

func TestVerdict(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	lit := func(g string) []episode.Literal { return []episode.Literal{{Ground: g}} }
	for _, tc := range []struct {
		name     string
		res      episode.Result
		success  float64
		category string
		desc     string
		severity float64
	}{
		{"success", episode.Result{Success: true, Score: 1, Init: predicates.True, GoalAtEnd: predicates.True}, 1, CategoryNone, "", 0},
		{"goal", episode.Result{Score: 0.25, Init: predicates.True, GoalAtEnd: predicates.False, Unsatisfied: lit("(ontop apple.n.01_1 table.n.02_1)")}, 0, CategoryGoal, "on top of", 0.75},
		{"negated goal", episode.Result{Score: 0.5, Init: predicates.True, GoalAtEnd: predicates.False, Unsatisfied: lit("(not (open cabinet.n.01_1))")}, 0, CategoryGoal, "open", 0.5},
		{"init", episode.Result{Init: predicates.False, GoalAtEnd: predicates.False, InitFailures: lit("(ontop apple.n.01_1 floor.n.01_1)"), Unsatisfied: lit("(ontop apple.n.01_1 table.n.02_1)")}, 0, CategoryInit, "initially, ", 1},
		{"undetermined", episode.Result{Init: predicates.True, GoalAtEnd: predicates.Unknown, Undetermined: lit("(ontop apple.n.01_1 table.n.02_1)")}, 0, CategoryUndetermined, "undetermined whether", 1},
		{"error", episode.Result{Error: "x.h5: bad"}, 0, CategoryUndetermined, "could not be checked: x.h5: bad", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a := Verdict(&tc.res, "bddl", now)
			tax := ParseTaxonomy(a.Taxonomy)
			if a.Success != tc.success || tax.FailureCategory != tc.category || tax.Severity != tc.severity || !strings.Contains(a.FailureDescription, tc.desc) {
				t.Fatalf("Verdict = %+v (taxonomy %+v), want success %v, %s, severity %v, description with %q", a, tax, tc.success, tc.category, tc.severity, tc.desc)
			}
			if a.Source != "bddl" || a.Timestamp != "2026-01-02T03:04:05Z" {
				t.Fatalf("source %q timestamp %q", a.Source, a.Timestamp)
			}
			if tc.desc == "" && a.FailureDescription != "" {
				t.Fatalf("a success with a failure description %q", a.FailureDescription)
			}
		})
	}
	a := Verdict(&episode.Result{Init: predicates.True, GoalAtEnd: predicates.False, Unsatisfied: lit("(ontop apple.n.01_1 table.n.02_1)")}, "bddl", now)
	t.Log(a.FailureDescription)
}

func TestAnnotationFile(t *testing.T) {
	t.Parallel()
	a := Annotation{Source: "bddl", Timestamp: "2026-01-02T03:04:05Z", Success: 0, FailureDescription: "x", Taxonomy: `{"failure_category":"goal-not-reached","severity":0.5}`}
	b, err := ParseAnnotationFile("f", a.MarshalFile())
	if err != nil || *b != a {
		t.Fatalf("round trip: %+v, %v", b, err)
	}
	c, err := ParseAnnotationFile("f", []byte(`{"source": "human", "success": true, "taxonomy": {"failure_category": "none", "severity": 0}}`))
	if err != nil || c.Success != 1 || ParseTaxonomy(c.Taxonomy).FailureCategory != "none" {
		t.Fatalf("object taxonomy: %+v, %v", c, err)
	}
	if d, err := ParseAnnotationFile("f", []byte(`{"success": "0.0"}`)); err != nil || d.Success != 0 {
		t.Fatalf("string success: %+v, %v", d, err)
	}
	if _, err := ParseAnnotationFile("f", []byte(`{"success": "yes"}`)); err == nil {
		t.Fatal("a bad success was accepted")
	}
}
