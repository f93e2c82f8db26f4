package episode

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"time"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/predicates"
)

// CheckOptions configure Check.
type CheckOptions struct {
	// Hold is the number of consecutive steps the goal must hold for the
	// episode to succeed (default 1). Consecutive means consecutive step
	// lines, whatever their step numbers; a skipped bad line breaks a run.
	Hold int
	// AtEnd also requires the goal to hold at the last step.
	AtEnd bool
	// PerStep keeps the truth of the goal and of each top-level conjunct
	// at every step (Result.PerStep).
	PerStep bool
	// Lenient skips bad steps, counting them, instead of stopping at the
	// first; an episode with a skipped step is never a success.
	Lenient bool
	// Timing measures decoding and evaluation apart (Result.Stats).
	Timing bool
	// AfterStep, when set, is called with the state after each step is
	// applied (and :init checked, at the first) and before the goal is
	// evaluated: the hook through which
	// transition rules update the state (bddl check --transitions). An
	// error stops the check as a bad recording does.
	AfterStep func(s *predicates.State, info StepInfo) error
}

// Check evaluates a recording against a compiled activity: :init at the
// first step, :goal at every step, then scores and explanations at the
// last step. It reads the steps from r (whose header has been read) into
// a fresh state of prog. Errors are reported in the Result (Error and
// Reason), never returned: a recording that could not be read in full is
// not a success. Cancelling ctx stops the check with an error result.
func Check(ctx context.Context, prog *predicates.Program, r *Reader, opts CheckOptions) *Result {
	st := newStepper(prog, r, opts)
	err := st.c.run(ctx)
	return st.c.result(err, true)
}

type checker struct {
	prog *predicates.Program
	r    *Reader
	res  *Result
	opts CheckOptions
	hold int

	s, baseline *predicates.State
	conj        []predicates.Truth
	perGoal     []predicates.Truth
	perConj     []predicates.Truth
	perInfo     []StepInfo

	first, last StepInfo
	lastGoal    predicates.Truth
	streak      int // consecutive steps the goal has held so far
	runAtEnd    int // consecutive steps the goal has held, at the end
	successAt   StepInfo
	succeeded   bool
	decode      time.Duration
	eval        time.Duration
	scores      predicates.ScoreMemo // a session's result per step
}

// bind loads the header into a fresh state.
func (c *checker) bind() error {
	c.s = c.prog.NewState()
	return c.r.Bind(c.s)
}

func (c *checker) run(ctx context.Context) error {
	if err := c.bind(); err != nil {
		return err
	}
	timing := c.opts.Timing
	var t0 time.Time
	if timing {
		t0 = time.Now()
	}
	for n := 0; ; n++ {
		if n&1023 == 1023 && ctx.Err() != nil {
			return fmt.Errorf("interrupted at step %d: %w", c.last.Step, ctx.Err())
		}
		info, err := c.r.Next()
		var t1 time.Time
		if timing {
			t1 = time.Now()
			c.decode += t1.Sub(t0)
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		if err := c.step(info); err != nil {
			return err
		}
		if timing {
			t0 = time.Now()
			c.eval += t0.Sub(t1)
		}
	}
}

// step evaluates the state after the step info was applied to it.
func (c *checker) step(info StepInfo) error {
	if c.res.Steps == 0 {
		c.firstStep(info)
	}
	if c.opts.AfterStep != nil {
		if err := c.opts.AfterStep(c.s, info); err != nil {
			return err
		}
	}
	v := c.prog.Eval(c.s)
	if c.opts.PerStep {
		c.conj = c.prog.EvalConjuncts(c.s, c.conj[:0])
		c.perGoal = append(c.perGoal, v)
		c.perConj = append(c.perConj, c.conj...)
		c.perInfo = append(c.perInfo, info)
	}
	if info.Skipped > 0 {
		c.streak = 0
	}
	switch v {
	case predicates.True:
		c.streak++
	case predicates.Unknown:
		c.res.UnknownSteps++
		c.streak = 0
	default:
		c.streak = 0
	}
	if !c.succeeded && c.streak >= c.hold {
		c.succeeded, c.successAt = true, info
		_, st := c.prog.EvalStats(c.s)
		c.res.SuccessApproximateCount = st.Approximate
	}
	c.last, c.lastGoal, c.runAtEnd = info, v, c.streak
	c.res.Steps++
	return nil
}

// firstStep keeps the baseline of the challenge score and checks :init.
func (c *checker) firstStep(info StepInfo) {
	c.first = info
	c.baseline = c.prog.NewState()
	if err := c.baseline.CopyFrom(c.s); err != nil {
		c.baseline = nil
	}
	// The baseline is never changed again: the scores read its literals once.
	if c.scores.FixBaseline(c.prog, c.baseline) != nil {
		c.scores = predicates.ScoreMemo{}
	}
	c.res.Init = c.prog.EvalInit(c.s)
	c.res.InitOK = c.res.Init == predicates.True
	if !c.res.InitOK {
		for _, r := range c.prog.ExplainInit(c.s).Reasons() {
			c.res.InitFailures = append(c.res.InitFailures, literalOf(r))
		}
	}
}

// finish computes into res what is reported about the last step;
// explain adds the unsatisfied and undetermined literals.
func (c *checker) finish(res *Result, explain bool) {
	res.EpisodeStep = c.last.Step
	res.GoalAtEnd = c.lastGoal
	res.HoldsAtEnd = c.lastGoal == predicates.True
	res.Duration = c.duration()
	if c.succeeded {
		step := c.successAt.Step
		res.FirstSuccessStep = &step
	}
	res.Success = c.succeeded && res.SkippedSteps == 0 && (!c.opts.AtEnd || res.HoldsAtEnd)

	if explain {
		trace := c.prog.Explain(c.s)
		for _, r := range trace.Reasons() {
			switch r.Value {
			case predicates.False:
				res.Unsatisfied = append(res.Unsatisfied, literalOf(r))
			case predicates.Unknown:
				res.Undetermined = append(res.Undetermined, literalOf(r))
			}
		}
		res.ApproximateCount = trace.Stats.Approximate
		res.UnknownCount = trace.Stats.Unknown + trace.Stats.Uncertain
		res.UncertainCount = trace.Stats.Uncertain
	}

	success := c.lastGoal // the goal on c.s, evaluated by step
	if c.res.Steps == 0 {
		success = c.prog.Eval(c.s)
	}
	if sc, err := c.prog.ScoresKnowing(c.s, c.baseline, &c.scores, success); err == nil {
		res.Score = sc.Library.Value
		if sc.HasChallenge {
			res.ChallengeScore = sc.Challenge.Value
		}
	} else {
		res.Warnings = append(res.Warnings, "scores: "+err.Error())
	}
	if res.Success {
		res.Score, res.ChallengeScore = 1, 1
	}
	res.Reason = c.reason(res)
	if c.opts.PerStep {
		c.perStep(res)
	}
	if c.opts.Timing {
		total := (c.decode + c.eval).Seconds()
		st := &Stats{Steps: res.Steps, Bytes: c.r.Bytes(), DecodeSeconds: c.decode.Seconds(), EvalSeconds: c.eval.Seconds()}
		if total > 0 {
			st.StepsPerSecond = float64(res.Steps) / total
			st.MBPerSecond = float64(st.Bytes) / 1e6 / total
		}
		res.Stats = st
	}
}

func (c *checker) duration() *float64 {
	var d float64
	switch {
	case c.first.HasT && c.last.HasT:
		d = c.last.T - c.first.T
	case c.r.Header().DT > 0:
		d = float64(c.last.Step-c.first.Step) * c.r.Header().DT
	default:
		return nil
	}
	if math.IsNaN(d) || math.IsInf(d, 0) {
		return nil
	}
	return &d
}

func (c *checker) perStep(res *Result) {
	k := c.prog.NumConjuncts()
	res.PerStep = make([]StepTruth, len(c.perGoal))
	for i, v := range c.perGoal {
		st := StepTruth{Step: c.perInfo[i].Step, Goal: v, Conjuncts: c.perConj[i*k : (i+1)*k : (i+1)*k]}
		switch dt := c.r.Header().DT; {
		case c.perInfo[i].HasT:
			t := c.perInfo[i].T
			st.T = &t
		case dt > 0: // no recorded time: the step number times dt, as duration reads it
			t := float64(c.perInfo[i].Step) * dt
			st.T = &t
		}
		res.PerStep[i] = st
	}
}

// reason explains the outcome in one line.
func (c *checker) reason(res *Result) string {
	var b strings.Builder
	switch {
	case res.Success:
		fmt.Fprintf(&b, "goal satisfied at step %d", *res.FirstSuccessStep)
		if c.hold > 1 {
			fmt.Fprintf(&b, " (held %d consecutive steps)", c.hold)
		}
		if res.HoldsAtEnd {
			b.WriteString(" and still holds at the end")
		} else {
			fmt.Fprintf(&b, "; no longer holds at the end (%s)", c.lastGoal)
		}
	case res.SkippedSteps > 0:
		fmt.Fprintf(&b, "not a success: %d bad %s skipped", res.SkippedSteps, pluralWord(res.SkippedSteps, "step", "steps"))
		if len(res.SkipErrors) > 0 {
			fmt.Fprintf(&b, " (first: %s)", res.SkipErrors[0])
		}
		if res.FirstSuccessStep != nil {
			fmt.Fprintf(&b, "; on the valid steps the goal held from step %d", *res.FirstSuccessStep)
		}
	case c.succeeded && c.opts.AtEnd:
		fmt.Fprintf(&b, "goal satisfied at step %d but not at the end (%s)", *res.FirstSuccessStep, c.lastGoal)
	case c.lastGoal == predicates.Unknown && len(res.Unsatisfied) == 0:
		b.WriteString("goal undetermined")
	case res.UnknownSteps == res.Steps && c.lastGoal == predicates.Unknown:
		b.WriteString("goal undetermined")
	default:
		b.WriteString("goal not satisfied")
		if c.hold > 1 && res.HoldsAtEnd {
			fmt.Fprintf(&b, " for %d consecutive steps (it holds at the last %d)", c.hold, c.runAtEnd)
		}
	}
	if !res.Success {
		var parts []string
		if n := len(res.Unsatisfied); n > 0 {
			parts = append(parts, fmt.Sprintf("%d unsatisfied: %s", n, res.Unsatisfied[0].short()))
		}
		if n := len(res.Undetermined); n > 0 {
			parts = append(parts, fmt.Sprintf("%d undetermined: %s", n, res.Undetermined[0].short()))
		}
		if len(parts) > 0 {
			b.WriteString(" at the end; ")
			b.WriteString(strings.Join(parts, "; "))
		}
	}
	return b.String()
}

// short renders a literal compactly for the one-line reason.
func (l Literal) short() string {
	s := l.Ground
	if l.Detail != "" {
		s += " (" + l.Detail + ")"
	}
	return s
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// ConjunctTexts returns the goal's top-level conjuncts as written, in
// the order EvalConjuncts reports them.
func ConjunctTexts(prog *predicates.Program) []string {
	goal := prog.Problem().Goal
	n := prog.NumConjuncts()
	if and, ok := goal.(*bddl.And); ok && len(and.Xs) == n {
		out := make([]string, n)
		for i, x := range and.Xs {
			out[i] = bddl.String(x)
		}
		return out
	}
	if n == 1 && goal != nil {
		return []string{bddl.String(goal)}
	}
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("conjunct %d", i+1)
	}
	return out
}

// IsInterrupted reports whether a result's error is a cancellation.
func IsInterrupted(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
