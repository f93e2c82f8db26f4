package libero

import (
	"fmt"

	"github.com/openbddl/bddl/bddl"
)

// Report is the outcome of checking one episode, as the record bddl check
// prints for BEHAVIOR-1K episodes (bddl schema result): the same field
// names and meanings, LIBERO's success rule.
type Report struct {
	Activity string `json:"activity"` // the definition checked against
	Episode  string `json:"episode"`
	// Success: every goal atom true at one step (_check_success).
	Success bool `json:"success"`
	// Score is 1 on success, else the share of goal atoms true at the
	// last step (LIBERO itself has no partial credit).
	Score            float64 `json:"score"`
	ChallengeScore   float64 `json:"challenge_score"`
	Reason           string  `json:"reason"`
	EpisodeStep      int     `json:"episode_step"`
	Duration         *int    `json:"duration"` // null: the episode gives no time
	FirstSuccessStep *int    `json:"first_success_step"`
	HoldsAtEnd       bool    `json:"holds_at_end"`
	GoalAtEnd        Truth   `json:"goal_at_end"`
	// Init is :init's conjunction at the first step; InitFailures the
	// atoms not true there.
	InitOK       bool      `json:"init_ok"`
	Init         Truth     `json:"init"`
	InitFailures []Literal `json:"init_failures,omitempty"`
	Unsatisfied  []Literal `json:"unsatisfied,omitempty"`
	Undetermined []Literal `json:"undetermined,omitempty"`
	Steps        int       `json:"steps"`
	Hold         int       `json:"hold"`
	Negation     string    `json:"negation"`
	Problem      string    `json:"problem,omitempty"`
	// Definition is the definition file checked against (Activity is
	// the task's name).
	Definition string `json:"definition,omitempty"`
	// InitLiterals is the number of :init's atoms.
	InitLiterals int `json:"-"`
}

// Literal is an atom's value at a step with what decided it.
type Literal struct {
	Literal string   `json:"literal"`
	Ground  string   `json:"ground"`
	Objects []string `json:"objects"`
	Value   Truth    `json:"value"`
	Source  string   `json:"source"` // "libero"
	Detail  string   `json:"detail,omitempty"`
	Line    int32    `json:"line"`
	Col     int32    `json:"col"`
}

func literals(atoms []*bddl.Atom, rs []Result, keep func(Truth) bool) []Literal {
	var out []Literal
	for i, r := range rs {
		if !keep(r.Truth) {
			continue
		}
		objs := []string{}
		for _, a := range atoms[i].Args {
			objs = append(objs, a.Name)
		}
		out = append(out, Literal{Literal: r.Atom, Ground: r.Atom, Objects: objs, Value: r.Truth, Source: "libero",
			Detail: r.Reason, Line: r.Line, Col: r.Col})
	}
	return out
}

// Check evaluates :init at the first step and the goal at every step.
func Check(t *Task, steps []Step) Report {
	c := NewChecker(t)
	for i := range steps {
		c.Step(&steps[i])
	}
	return c.Report()
}

// Checker checks an episode step by step (Step), in constant memory: each
// step's goal is decided without reasons; the reasons are given for the
// first step's :init and the last step's goal only.
type Checker struct {
	t    *Task
	ev   *Evaluator
	goal []*bddl.Atom
	r    Report
	last Step
	opts CheckOptions
	run  int // consecutive steps the goal has held
	from int // the step that run started at
}

// NewChecker returns a checker of episodes of the task.
func NewChecker(t *Task) *Checker { return NewCheckerOptions(t, CheckOptions{}) }

// CheckOptions are check's success rule: LIBERO's own is the zero value
// (the goal at one step).
type CheckOptions struct {
	Hold  int  // the goal must hold for Hold consecutive steps (0 or 1: one step)
	AtEnd bool // and hold at the last step
}

// NewCheckerOptions returns a checker with a stricter success rule.
func NewCheckerOptions(t *Task, o CheckOptions) *Checker {
	if o.Hold < 1 {
		o.Hold = 1
	}
	return &Checker{t: t, ev: NewEvaluator(t), goal: t.GoalAtoms(), opts: o,
		r: Report{Hold: o.Hold, Negation: "reference", Problem: t.Problem.Name.Name, Init: Unknown, GoalAtEnd: Unknown}}
}

// Step takes the next step of the episode. The checker keeps s's maps
// (not s itself) until the next call.
func (c *Checker) Step(s *Step) {
	r := &c.r
	if r.Steps == 0 {
		initAtoms := c.t.InitAtoms()
		init := c.ev.EvalAtoms(initAtoms, s)
		r.Init = All(init)
		r.InitOK = r.Init == True
		r.InitFailures = literals(initAtoms, init, func(x Truth) bool { return x != True })
	}
	r.Steps++
	r.EpisodeStep = s.Step
	c.last = *s
	if c.ev.Conjunction(c.goal, s) != True {
		c.run = 0
		return
	}
	if c.run == 0 {
		c.from = s.Step
	}
	c.run++
	if r.FirstSuccessStep == nil && c.run >= c.opts.Hold {
		st := c.from
		r.FirstSuccessStep = &st
		r.Success = true
	}
}

// Report is the outcome after the steps taken so far.
func (c *Checker) Report() Report {
	r := c.r
	if r.Steps == 0 {
		r.Reason = "the episode has no step"
		return r
	}
	last := c.ev.EvalAtoms(c.goal, &c.last)
	r.GoalAtEnd = All(last)
	r.HoldsAtEnd = r.GoalAtEnd == True
	if c.opts.AtEnd && !r.HoldsAtEnd {
		r.Success = false
	}
	r.Unsatisfied = literals(c.goal, last, func(x Truth) bool { return x == False })
	r.Undetermined = literals(c.goal, last, func(x Truth) bool { return x == Unknown })
	switch {
	case r.Success:
		r.Score, r.ChallengeScore = 1, 1
		if c.opts.Hold > 1 {
			r.Reason = fmt.Sprintf("goal satisfied from step %d for %d steps and %s", *r.FirstSuccessStep, c.opts.Hold, map[bool]string{true: "still holds at the end", false: "no longer holds at the end"}[r.HoldsAtEnd])
			break
		}
		end := "still holds at the end"
		if !r.HoldsAtEnd {
			end = "no longer holds at the end"
		}
		r.Reason = fmt.Sprintf("goal satisfied at step %d and %s", *r.FirstSuccessStep, end)
	case r.FirstSuccessStep != nil: // --at-end
		r.Reason = fmt.Sprintf("goal satisfied at step %d but not at the end", *r.FirstSuccessStep)
		fallthrough
	default:
		n := 0
		for _, x := range last {
			if x.Truth == True {
				n++
			}
		}
		if len(last) > 0 {
			r.Score = float64(n) / float64(len(last))
			r.ChallengeScore = r.Score
		}
		if r.Reason == "" {
			r.Reason = fmt.Sprintf("goal never satisfied; at the end %d unsatisfied, %d undetermined", len(r.Unsatisfied), len(r.Undetermined))
		}
	}
	return r
}
