package serve

import (
	"bytes"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/predicates"
)

// TestAppendRecordMatchesJSON checks the hand-written record encoder
// against encoding/json on every field it writes, and that it declines
// (ok false) what it does not write exactly.
func TestAppendRecordMatchesJSON(t *testing.T) {
	t.Parallel()
	dur, step := 2.5, int64(7)
	tiny, huge := 1e-7, 1.5e21
	base := func() *episode.Result {
		return &episode.Result{Activity: "cleaning_shoes", Episode: "session", Score: 2.0 / 3, ChallengeScore: 1.0 / 6,
			Reason: "goal not satisfied", EpisodeStep: 3, GoalAtEnd: predicates.Unknown, Init: predicates.False,
			Steps: 4, UnknownSteps: 1, Hold: 1, Negation: "reference"}
	}
	cases := []struct {
		name string
		edit func(r *episode.Result)
		ok   bool
	}{
		{"lean", func(*episode.Result) {}, true},
		{"success", func(r *episode.Result) {
			r.Success, r.Score, r.ChallengeScore, r.FirstSuccessStep, r.HoldsAtEnd = true, 1, 1, &step, true
			r.GoalAtEnd, r.InitOK, r.Init = predicates.True, true, predicates.True
		}, true},
		{"duration", func(r *episode.Result) { r.Duration = &dur }, true},
		{"tiny duration", func(r *episode.Result) { r.Duration = &tiny }, true},
		{"huge duration", func(r *episode.Result) { r.Duration = &huge }, true},
		{"negative step", func(r *episode.Result) { r.EpisodeStep = -3 }, true},
		{"whole numbers", func(r *episode.Result) {
			d := 999999999999999.0
			r.Score, r.ChallengeScore, r.Duration = 1, 0, &d
		}, true},
		{"minus zero", func(r *episode.Result) { z := math.Copysign(0, -1); r.Duration = &z }, true},
		{"1e15", func(r *episode.Result) { d := 1e15; r.Duration = &d }, true},
		{"1e20", func(r *episode.Result) { d := 1e20; r.Duration = &d }, true},
		{"counts", func(r *episode.Result) {
			r.ApproximateCount, r.UnknownCount, r.SuccessApproximateCount, r.SkippedSteps = 2, 3, 4, 5
		}, true},
		{"error", func(r *episode.Result) { r.Error, r.Reason = "x.jsonl:3: bad step", "x.jsonl:3: bad step" }, true},
		{"warnings", func(r *episode.Result) { r.Warnings = []string{"one", "two"}; r.SkipErrors = []string{"e"} }, true},
		{"conjuncts", func(r *episode.Result) { r.Conjuncts = []string{"(cooked ?a)"} }, true},
		{"quote", func(r *episode.Result) { r.Reason = `a "quoted" reason` }, false},
		{"unicode", func(r *episode.Result) { r.Activity = "café" }, false},
		{"html", func(r *episode.Result) { r.Warnings = []string{"a < b & c"} }, true},
		{"nan", func(r *episode.Result) { r.Score = math.NaN() }, false},
		{"unsatisfied", func(r *episode.Result) { r.Unsatisfied = []episode.Literal{{}} }, false},
		{"firings", func(r *episode.Result) { r.Firings = []episode.RuleFiring{{Rule: "r"}} }, false},
		{"stats", func(r *episode.Result) { r.Stats = &episode.Stats{} }, false},
	}
	for _, c := range cases {
		r := base()
		c.edit(r)
		got, ok := appendRecord(nil, r)
		if ok != c.ok {
			t.Errorf("%s: ok = %v, want %v", c.name, ok, c.ok)
		}
		if !ok {
			continue
		}
		want, err := batch.MarshalLine(r)
		if err != nil {
			t.Fatal(err)
		}
		if want = bytes.TrimRight(want, "\n"); !bytes.Equal(got, want) {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, want)
		}
	}
	// Scores and durations of every magnitude.
	rng := rand.New(rand.NewPCG(1, 2))
	for range 5000 {
		r := base()
		r.Score = rng.Float64()
		d := math.Pow(10, rng.Float64()*50-25) * (rng.Float64() - 0.3)
		r.Duration = &d
		got, _ := appendRecord(nil, r)
		want, _ := batch.MarshalLine(r)
		if want = bytes.TrimRight(want, "\n"); !bytes.Equal(got, want) {
			t.Fatalf("score %v duration %v:\n got %s\nwant %s", r.Score, d, got, want)
		}
	}
}
