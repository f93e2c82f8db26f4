package episode

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/openbddl/bddl/internal/termsafe"
)

// Verdict is the result's word in reports: SUCCESS, FAIL, ERROR or
// UNDETERMINED (the goal unknown at the end and nothing false).
func (r *Result) Verdict() string {
	switch {
	case r.Success:
		return "SUCCESS"
	case r.Error != "":
		return "ERROR"
	case r.GoalAtEnd.String() == "unknown" && len(r.Unsatisfied) == 0:
		return "UNDETERMINED"
	}
	return "FAIL"
}

// WriteText renders a result for a person: the verdict and its reason,
// when the goal was reached, :init at the first step, the scores, the
// literals that do not hold at the end with the recorded values they
// were decided on, and, when recorded, the per-step table.
func (r *Result) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s  %s\n", r.Verdict(), termsafe.Text(r.Episode))
	fmt.Fprintf(&b, "  activity     %s\n", termsafe.Text(r.Activity))
	fmt.Fprintf(&b, "  reason       %s\n", termsafe.Text(r.Reason))
	if r.Error == "" {
		steps := fmt.Sprintf("%d", r.Steps)
		if r.Steps > 0 {
			steps += fmt.Sprintf(", last step %d", r.EpisodeStep)
		}
		if r.Duration != nil {
			steps += fmt.Sprintf(", %.3g s simulated", *r.Duration)
		}
		if r.UnknownSteps > 0 {
			steps += fmt.Sprintf("; goal undetermined at %d", r.UnknownSteps)
		}
		fmt.Fprintf(&b, "  steps        %s\n", steps)
		first := "never"
		if r.FirstSuccessStep != nil {
			first = "step " + strconv.FormatInt(*r.FirstSuccessStep, 10)
			if r.Hold > 1 {
				first += fmt.Sprintf(" (after %d consecutive steps)", r.Hold)
			}
		}
		fmt.Fprintf(&b, "  goal         first holds: %s; at the end: %s\n", first, r.GoalAtEnd)
		fmt.Fprintf(&b, "  init         %s at the first step\n", r.Init)
		fmt.Fprintf(&b, "  score        %.3f (challenge %.3f)\n", r.Score, r.ChallengeScore)
		fmt.Fprintf(&b, "  decisions    %d approximate (box geometry), %d unknown", r.ApproximateCount, r.UnknownCount)
		if r.UncertainCount > 0 {
			fmt.Fprintf(&b, " (%d within the boxes' error)", r.UncertainCount)
		}
		b.WriteString(", at the end")
		if r.SuccessApproximateCount > 0 {
			fmt.Fprintf(&b, "; %d approximate at the success step", r.SuccessApproximateCount)
		}
		b.WriteByte('\n')
		if r.SkippedSteps > 0 {
			fmt.Fprintf(&b, "  skipped      %d bad %s\n", r.SkippedSteps, pluralWord(r.SkippedSteps, "step", "steps"))
			for _, e := range r.SkipErrors {
				fmt.Fprintf(&b, "    %s\n", termsafe.Text(e))
			}
		}
		writeLiterals(&b, "unsatisfied at the end", r.Unsatisfied)
		writeLiterals(&b, "undetermined at the end", r.Undetermined)
		writeLiterals(&b, ":init literals not true at the first step", r.InitFailures)
		writeFirings(&b, r.Firings)
	}
	if len(r.Warnings) > 0 {
		b.WriteString("  warnings\n")
		for _, s := range r.Warnings {
			fmt.Fprintf(&b, "    %s\n", termsafe.Text(s))
		}
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	if len(r.PerStep) > 0 {
		return r.writePerStep(w)
	}
	return nil
}

func writeLiterals(b *strings.Builder, title string, lits []Literal) {
	if len(lits) == 0 {
		return
	}
	fmt.Fprintf(b, "  %s (%d)\n", title, len(lits))
	for _, l := range lits {
		fmt.Fprintf(b, "    %s", termsafe.Text(l.Literal))
		if l.Ground != l.Literal {
			fmt.Fprintf(b, "  [%s]", termsafe.Text(l.Ground))
		}
		if l.Line > 0 {
			fmt.Fprintf(b, "  (line %d of the definition)", l.Line)
		}
		b.WriteByte('\n')
		if l.Detail != "" {
			fmt.Fprintf(b, "        %s\n", termsafe.Text(l.Detail))
		}
	}
}

func writeFirings(b *strings.Builder, fs []RuleFiring) {
	if len(fs) == 0 {
		return
	}
	fmt.Fprintf(b, "  rules fired (%d)\n", len(fs))
	for _, f := range fs {
		fmt.Fprintf(b, "    step %d  %s %s", f.Step, f.Family, f.Rule)
		if f.Container != "" {
			fmt.Fprintf(b, " in %s", f.Container)
		}
		if len(f.Consumed) > 0 {
			fmt.Fprintf(b, ": %s", strings.Join(f.Consumed, ", "))
		}
		if len(f.Produced) > 0 {
			fmt.Fprintf(b, " → %s", strings.Join(f.Produced, ", "))
		}
		b.WriteByte('\n')
	}
}

// writePerStep prints the goal's and each conjunct's truth per step,
// after a legend of the conjuncts.
func (r *Result) writePerStep(w io.Writer) error {
	var b strings.Builder
	b.WriteString("  conjuncts\n")
	for i, c := range r.Conjuncts {
		fmt.Fprintf(&b, "    c%d  %s\n", i+1, c)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprint(tw, "  step\tt\tgoal")
	for i := range r.Conjuncts {
		fmt.Fprintf(tw, "\tc%d", i+1)
	}
	fmt.Fprintln(tw)
	for _, st := range r.PerStep {
		t := "-"
		if st.T != nil {
			t = strconv.FormatFloat(*st.T, 'f', 3, 64)
		}
		fmt.Fprintf(tw, "  %d\t%s\t%s", st.Step, t, st.Goal)
		for _, c := range st.Conjuncts {
			fmt.Fprintf(tw, "\t%s", c)
		}
		fmt.Fprintln(tw)
	}
	return tw.Flush()
}
