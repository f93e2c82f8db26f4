package batch

import (
	"fmt"
	"io"
	"sort"
	"text/tabwriter"

	"github.com/openbddl/bddl/internal/termsafe"
)

// WriteSummary prints the success rate and mean scores per activity.
// Episodes that ended in an error are counted in ERRORS and kept out of
// the rate and the means: an error is not a score of 0. previous says
// how many came from earlier runs.
func WriteSummary(w io.Writer, recs []Record, previous int) error {
	type agg struct {
		n, ok, errors    int
		score, challenge float64
	}
	byAct := map[string]*agg{}
	var names []string
	var total agg
	for _, r := range recs {
		a := byAct[r.Activity]
		if a == nil {
			a = &agg{}
			byAct[r.Activity] = a
			names = append(names, r.Activity)
		}
		for _, x := range []*agg{a, &total} {
			if r.Errored() {
				x.errors++
				continue
			}
			x.n++
			if r.Success {
				x.ok++
			}
			x.score += r.Score
			x.challenge += r.ChallengeScore
		}
	}
	sort.Strings(names)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ACTIVITY\tEPISODES\tSUCCESS\tRATE\tMEAN SCORE\tMEAN CHALLENGE\tERRORS")
	row := func(name string, a *agg) {
		if name == "" {
			name = "(unknown)"
		}
		if a.n == 0 {
			fmt.Fprintf(tw, "%s\t%d\t%d\t-\t-\t-\t%d\n", termsafe.Text(name), 0, 0, a.errors)
			return
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%.3f\t%.3f\t%d\n", termsafe.Text(name), a.n, a.ok,
			100*float64(a.ok)/float64(a.n), a.score/float64(a.n), a.challenge/float64(a.n), a.errors)
	}
	for _, n := range names {
		row(n, byAct[n])
	}
	if len(names) > 1 {
		row("all", &total)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if previous > 0 {
		fmt.Fprintf(w, "(%d of the %d episodes from earlier runs)\n", previous, total.n+total.errors)
	}
	return nil
}

// RecordOf is the record of a fresh outcome.
func RecordOf(o *Outcome) Record {
	r := o.Result
	return Record{Episode: r.Episode, Activity: r.Activity, Success: r.Success, Score: r.Score,
		ChallengeScore: r.ChallengeScore, Error: r.Error, Key: PathKey(r.Episode)}
}
