package libero

import (
	"fmt"
	"io"
)

// Verdict is a report's word, as BEHAVIOR-1K reports say it
// (episode.Result.Verdict): SUCCESS, FAIL or UNDETERMINED.
func Verdict(r Report) string {
	switch {
	case r.Success:
		return "SUCCESS"
	case r.GoalAtEnd == Unknown && len(r.Unsatisfied) == 0:
		return "UNDETERMINED"
	}
	return "FAIL"
}

// WriteLine writes one episode's line in a batch, marked as check marks
// BEHAVIOR-1K episodes; a failure names its first unsatisfied literal.
func WriteLine(w io.Writer, r Report) {
	reason, lits := r.Reason, r.Unsatisfied
	if !r.Success && len(lits) > 0 {
		reason += fmt.Sprintf(": %s (line %d: %s)", lits[0].Literal, lits[0].Line, lits[0].Detail)
	}
	fmt.Fprintf(w, "%-7s %s: %s\n", Verdict(r), r.Episode, reason)
}

// WriteText writes a report in full for people: the verdict, the goal
// and :init, the score, and the literals that did not hold.
func WriteText(w io.Writer, r Report) {
	lits := func(title string, ls []Literal) {
		if len(ls) == 0 {
			return
		}
		fmt.Fprintf(w, "  %s (%d)\n", title, len(ls))
		for _, x := range ls {
			fmt.Fprintf(w, "    %s  (%s:%d:%d)\n        %s: %s\n", x.Literal, r.Definition, x.Line, x.Col, x.Value, x.Detail)
		}
	}
	first := "never"
	if r.FirstSuccessStep != nil {
		first = fmt.Sprintf("step %d", *r.FirstSuccessStep)
	}
	fmt.Fprintf(w, "%s  %s\n  activity     %s\n  reason       %s\n  steps        %d, last step %d\n", Verdict(r), r.Episode, r.Activity, r.Reason, r.Steps, r.EpisodeStep)
	fmt.Fprintf(w, "  goal         first holds: %s; at the end: %s\n  init         %s at the first step\n  score        %.3f (challenge %.3f)\n", first, r.GoalAtEnd, r.Init, r.Score, r.ChallengeScore)
	lits(":init literals not true at the first step", r.InitFailures)
	lits("goal literals false at the end", r.Unsatisfied)
	lits("goal literals undetermined at the end", r.Undetermined)
}
