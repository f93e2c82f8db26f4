package episode

import (
	"errors"

	"github.com/openbddl/bddl/predicates"
)

// Stepper checks a recording one step at a time, for a caller that
// produces the steps as it goes (a policy rollout, bddl serve's
// sessions): after each step, Result is exactly what Check reports for
// the recording ended there. Check itself runs on a Stepper, so the two
// cannot drift apart.
type Stepper struct {
	c       checker
	bound   bool
	stopped error // the error that stopped a strict recording
}

func newStepper(prog *predicates.Program, r *Reader, opts CheckOptions) *Stepper {
	hold := max(opts.Hold, 1)
	res := &Result{
		Activity:  r.Header().Activity,
		Episode:   r.name,
		Hold:      hold,
		Negation:  prog.Options().Negation.String(),
		Conjuncts: ConjunctTexts(prog),
	}
	r.SetLenient(opts.Lenient)
	return &Stepper{c: checker{prog: prog, r: r, res: res, opts: opts, hold: hold}}
}

// NewStepper binds r (its header read, no step yet) to a fresh state of
// prog. Steps are then given with Feed (a line of the episode format)
// or read from r with Next.
func NewStepper(prog *predicates.Program, r *Reader, opts CheckOptions) (*Stepper, error) {
	st := newStepper(prog, r, opts)
	if err := st.c.bind(); err != nil {
		return nil, err
	}
	st.bound = true
	return st, nil
}

// Feed applies one step line (a line of the episode format, without its
// line ending) and evaluates the goal. A bad line is an *Error naming
// the step and field and leaves the state as it was; as in Check, it
// stops a strict recording (every later Feed returns the same error and
// Result reports it) and is skipped and counted in lenient mode.
func (st *Stepper) Feed(line []byte) (StepInfo, error) {
	if st.stopped != nil {
		return StepInfo{}, st.stopped
	}
	info, err := st.c.r.Feed(line)
	if err == nil {
		err = st.c.step(info)
	}
	if err != nil && !(st.c.opts.Lenient && isSkipped(err)) {
		st.stopped = err
	}
	return info, err
}

// FeedPrefix is Feed for a step object that begins buf (Reader.FeedPrefix):
// it returns the number of bytes the object took, 0 on an error.
func (st *Stepper) FeedPrefix(buf []byte) (int, StepInfo, error) {
	if st.stopped != nil {
		return 0, StepInfo{}, st.stopped
	}
	n, info, err := st.c.r.FeedPrefix(buf)
	if err == nil {
		err = st.c.step(info)
	}
	if err != nil {
		if !(st.c.opts.Lenient && isSkipped(err)) {
			st.stopped = err
		}
		return 0, info, err
	}
	return n, info, nil
}

// Goal is the goal's truth at the last step.
func (st *Stepper) Goal() predicates.Truth { return st.c.lastGoal }

// Steps is the number of steps evaluated.
func (st *Stepper) Steps() int { return st.c.res.Steps }

// State is the state after the last step (owned by the Stepper).
func (st *Stepper) State() *predicates.State { return st.c.s }

// Result is what Check reports for the recording as fed so far: scores,
// the first success step, :init, and with explain the literals
// unsatisfied or undetermined at the last step (explain false leaves
// them out, and ApproximateCount and UnknownCount zero, for speed).
func (st *Stepper) Result(explain bool) *Result {
	return st.c.result(st.stopped, explain)
}

// result builds the Result of a check that ended with err (nil: at the
// end of the recording), leaving the checker able to go on.
func (c *checker) result(err error, explain bool) *Result {
	res := new(Result)
	*res = *c.res
	res.Warnings = append(res.Warnings[:len(res.Warnings):len(res.Warnings)], c.r.Warnings()...)
	res.SkippedSteps = c.r.Skipped()
	res.SkipErrors = nil
	for _, e := range c.r.SkipErrors() {
		res.SkipErrors = append(res.SkipErrors, e.Error())
	}
	if err == nil && res.Steps == 0 {
		err = &Error{File: c.r.name, Line: c.r.Line() + 1, Msg: "no steps: a recording needs at least one step after the header"}
	}
	if err != nil {
		res.Interrupted = IsInterrupted(err)
		res.Error = err.Error()
		res.Reason = res.Error
		res.Success = false
		res.FirstSuccessStep = nil
		res.Score, res.ChallengeScore = 0, 0
		return res
	}
	c.finish(res, explain)
	return res
}

func isSkipped(err error) bool {
	var s *SkippedError
	return errors.As(err, &s)
}

// Init evaluates :init in the current state, with the literals that do
// not hold.
func (st *Stepper) Init() (predicates.Truth, []Literal) {
	v := st.c.prog.EvalInit(st.c.s)
	var out []Literal
	if v != predicates.True {
		for _, r := range st.c.prog.ExplainInit(st.c.s).Reasons() {
			out = append(out, literalOf(r))
		}
	}
	return v, out
}
