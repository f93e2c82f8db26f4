package episode

import (
	"strings"

	"github.com/openbddl/bddl/predicates"
)

// Result is the outcome of checking one recording. Its JSON form is one
// line of a results file: the names shared with RoboLab's
// episode_results.jsonl (activity, episode, success, score, reason,
// episode_step, duration) mean what they mean there; the rest are ours.
type Result struct {
	Activity string `json:"activity"`
	Episode  string `json:"episode"`
	// Success is true only when the goal held for Hold consecutive steps
	// of a recording read without any error or skipped step.
	Success bool `json:"success"`
	// Score and ChallengeScore are the library and challenge scores
	// (SEMANTICS.md A7) at the last step, or 1 on success.
	Score          float64 `json:"score"`
	ChallengeScore float64 `json:"challenge_score"`
	// Reason says in one line why the episode succeeded or not.
	Reason string `json:"reason"`
	// EpisodeStep is the number of the last step read.
	EpisodeStep int64 `json:"episode_step"`
	// Duration is the simulated seconds from the first to the last step:
	// from t when recorded, else from the step numbers and dt; null when
	// neither is recorded.
	Duration *float64 `json:"duration"`

	// FirstSuccessStep is the step at which the goal had held for Hold
	// consecutive steps for the first time (with Hold 1: the first step
	// at which it holds); null if never.
	FirstSuccessStep *int64 `json:"first_success_step"`
	// HoldsAtEnd reports whether the goal holds at the last step.
	HoldsAtEnd bool             `json:"holds_at_end"`
	GoalAtEnd  predicates.Truth `json:"goal_at_end"`
	// InitOK reports whether :init held at the first step; Init is its
	// three-valued truth and InitFailures the literals that did not hold.
	InitOK       bool             `json:"init_ok"`
	Init         predicates.Truth `json:"init"`
	InitFailures []Literal        `json:"init_failures,omitempty"`
	// Unsatisfied and Undetermined are the goal's ground literals that
	// are false or unknown at the last step.
	Unsatisfied  []Literal `json:"unsatisfied,omitempty"`
	Undetermined []Literal `json:"undetermined,omitempty"`
	// ApproximateCount and UnknownCount count the goal's atoms decided
	// by box geometry (an approximation) and left undetermined, over an
	// exhaustive evaluation of the last step; UncertainCount of the
	// undetermined ones are box geometry within the boxes' error.
	// SuccessApproximateCount counts the approximate decisions at the
	// first success step.
	ApproximateCount        int `json:"approximate_count"`
	UnknownCount            int `json:"unknown_count"`
	UncertainCount          int `json:"uncertain_count,omitempty"`
	SuccessApproximateCount int `json:"success_approximate_count,omitempty"`
	// Steps is the number of steps evaluated; UnknownSteps of them had an
	// undetermined goal. SkippedSteps were bad and skipped (--lenient).
	Steps        int      `json:"steps"`
	UnknownSteps int      `json:"unknown_steps"`
	SkippedSteps int      `json:"skipped_steps"`
	SkipErrors   []string `json:"skip_errors,omitempty"`
	Hold         int      `json:"hold"`
	Negation     string   `json:"negation"`
	// Error is set when the recording could not be read or checked; the
	// episode is then not a success.
	Error    string   `json:"error,omitempty"`
	Warnings []string `json:"warnings,omitempty"`
	// Interrupted marks a check stopped by its context: not a result to
	// keep (a resumed run checks the episode again).
	Interrupted bool `json:"-"`

	// Conjuncts are the goal's top-level conjuncts as written; PerStep
	// has the truth of the goal and of each conjunct at every step (with
	// CheckOptions.PerStep).
	Conjuncts []string `json:"conjuncts,omitempty"`
	// Firings are the transition rules applied (CheckOptions.AfterStep,
	// bddl check --transitions), with the step each fired at.
	Firings []RuleFiring `json:"firings,omitempty"`
	PerStep []StepTruth  `json:"per_step,omitempty"`
	Stats   *Stats       `json:"stats,omitempty"`
}

// RuleFiring is one transition rule that fired at a step: the rule and
// its family, the container (machine, or the object sliced), and the
// instances consumed and produced ("name (generated)" for an output the
// activity has no instance for).
type RuleFiring struct {
	Step      int64    `json:"step"`
	Rule      string   `json:"rule"`
	Family    string   `json:"family"`
	Container string   `json:"container,omitempty"`
	Consumed  []string `json:"consumed,omitempty"`
	Produced  []string `json:"produced,omitempty"`
}

// Literal is a ground literal of the goal or :init and why it has its
// value: the recorded values it was decided on.
type Literal struct {
	// Literal is as written in the definition, Ground with its
	// variables bound; Objects are the ground arguments.
	Literal string           `json:"literal"`
	Ground  string           `json:"ground"`
	Objects []string         `json:"objects"`
	Value   predicates.Truth `json:"value"`
	Source  string           `json:"source"`
	Detail  string           `json:"detail,omitempty"`
	Line    int              `json:"line,omitempty"`
}

// StepTruth is the goal's truth and each top-level conjunct's at a step.
type StepTruth struct {
	Step      int64              `json:"step"`
	T         *float64           `json:"t,omitempty"`
	Goal      predicates.Truth   `json:"goal"`
	Conjuncts []predicates.Truth `json:"conjuncts"`
}

// Stats are the time spent reading and evaluating (CheckOptions.Timing).
type Stats struct {
	Steps          int     `json:"steps"`
	Bytes          int64   `json:"bytes"`
	DecodeSeconds  float64 `json:"decode_seconds"`
	EvalSeconds    float64 `json:"eval_seconds"`
	StepsPerSecond float64 `json:"steps_per_second"`
	MBPerSecond    float64 `json:"mb_per_second"`
}

// literalOf converts a predicates reason.
func literalOf(r predicates.Reason) Literal {
	return Literal{
		Literal: r.Literal,
		Ground:  r.Ground,
		Objects: groundArgs(r.Args),
		Value:   r.Value,
		Source:  r.Source.String(),
		Detail:  r.Detail,
		Line:    int(r.Range.Start.Line),
	}
}

// groundArgs extracts the arguments of "(pred a b)" or "(not (pred a b))".
// groundArgs never returns nil, so JSON reports say [] rather than null.
func groundArgs(args []string) []string {
	if args == nil {
		return []string{}
	}
	return args
}

// String renders a literal for reports: "(cooked ?x) for a: detail".
func (l Literal) String() string {
	var b strings.Builder
	b.WriteString(l.Literal)
	if l.Ground != l.Literal && l.Ground != "" {
		b.WriteString(" as ")
		b.WriteString(l.Ground)
	}
	if l.Detail != "" {
		b.WriteString(": ")
		b.WriteString(l.Detail)
	}
	return b.String()
}
