package episode

import "github.com/openbddl/bddl/predicates"

// Outcome is the part of a Result that a caller scoring many sessions
// every step reads (bddl serve's group.step columns).
type Outcome struct {
	Success        bool
	Goal           predicates.Truth // Result.GoalAtEnd
	Score          float64
	ChallengeScore float64
	Step           int64 // Result.EpisodeStep
}

// Outcome gives the fields of Result(false) that Outcome holds, with the
// same values, without building the Result (its copy, reason, duration
// and warnings cost more than the scores). ok is false when the
// recording stopped on an error or has no step yet: Result reports why.
func (st *Stepper) Outcome() (o Outcome, ok bool) {
	c := &st.c
	if st.stopped != nil || c.res.Steps == 0 {
		return Outcome{}, false
	}
	o = Outcome{Step: c.last.Step, Goal: c.lastGoal}
	o.Success = c.succeeded && c.r.Skipped() == 0 && (!c.opts.AtEnd || c.lastGoal == predicates.True)
	if lib, chal, err := c.prog.ScoreValues(c.s, c.baseline, &c.scores, c.lastGoal); err == nil {
		o.Score, o.ChallengeScore = lib, chal
	}
	if o.Success {
		o.Score, o.ChallengeScore = 1, 1
	}
	return o, true
}
