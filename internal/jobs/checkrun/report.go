package checkrun

import (
	"fmt"
	"io"
	"time"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/termsafe"
)

// print writes one result to stdout.
func (c *Run) print(o *batch.Outcome) error {
	w := c.opts.Stdout
	if c.opts.Format == "json" {
		line, err := batch.MarshalLine(o)
		if err != nil {
			return err
		}
		_, err = w.Write(line)
		return err
	}
	r := o.Result
	if c.single || c.opts.Details || c.opts.PerStep {
		if err := r.WriteText(w); err != nil {
			return err
		}
		if c.opts.Stats && r.Stats != nil {
			s := r.Stats
			fmt.Fprintf(w, "  stats        decoding %.3f s, evaluating %.3f s: %.0f steps/s, %.1f MB/s\n",
				s.DecodeSeconds, s.EvalSeconds, s.StepsPerSecond, s.MBPerSecond)
		}
		if !c.single {
			fmt.Fprintln(w)
		}
		return nil
	}
	// The verdict words of the full report (and of LIBERO's and view's):
	// SUCCESS, FAIL, UNDETERMINED, ERROR.
	v := r.Verdict()
	mark := fmt.Sprintf("%-7s", v)
	if c.opts.Mark != nil {
		mark = c.opts.Mark(v, mark)
	}
	_, err := fmt.Fprintf(w, "%s %s: %s\n", mark, termsafe.Text(r.Episode), termsafe.Text(r.Reason))
	return err
}

// Ending is how a run ended, for the command's exit status.
type Ending int

const (
	Clean       Ending = iota // every episode succeeded
	Failed                    // an episode failed or had an error, or a plot could not be written
	Interrupted               // stopped by a signal
)

// Report prints the summary of the results of the episodes checked now
// (fresh) and earlier, and says how the run ended.
func (c *Run) Report(fresh []*batch.Outcome, interrupted bool) (Ending, error) {
	opts := c.opts
	all := append([]batch.Record(nil), c.previous...)
	for _, o := range fresh {
		all = append(all, batch.RecordOf(o))
	}
	if opts.Format == "text" && !c.single {
		if err := batch.WriteSummary(opts.Stdout, all, len(c.previous)); err != nil {
			return Failed, err
		}
	}
	if opts.Format == "text" {
		for _, summary := range opts.Summaries {
			if err := summary(opts.Stdout, opts.Stderr, fresh); err != nil {
				return Failed, err
			}
		}
	}
	if opts.Stats {
		writeStats(opts.Stderr, fresh, time.Since(c.start))
	}
	if interrupted {
		fmt.Fprintf(opts.Stderr, "bddl: interrupted: %d of %d episodes checked", len(fresh), len(c.todo))
		if opts.Out != "" {
			fmt.Fprintf(opts.Stderr, "; %s is complete up to them: run the same command again to resume", opts.Out)
		}
		fmt.Fprintln(opts.Stderr)
		return Interrupted, nil
	}
	if c.problems > 0 {
		return Failed, nil
	}
	for _, r := range all {
		if !r.Success {
			return Failed, nil
		}
	}
	return Clean, nil
}

// writeStats prints the throughput of the episodes checked now.
func writeStats(w io.Writer, results []*batch.Outcome, wall time.Duration) {
	var steps int
	var bytes int64
	var dec, eval float64
	for _, r := range results {
		if r.Stats != nil {
			steps += r.Stats.Steps
			bytes += r.Stats.Bytes
			dec += r.Stats.DecodeSeconds
			eval += r.Stats.EvalSeconds
		}
	}
	per := 0.0
	if dec+eval > 0 {
		per = float64(steps) / (dec + eval)
	}
	fmt.Fprintf(w, "stats: %d episodes, %d steps, %.1f MB; decoding %.3f s, evaluating %.3f s (one core: %.0f steps/s); wall %.3f s (%.0f steps/s)\n",
		len(results), steps, float64(bytes)/1e6, dec, eval, per, wall.Seconds(), float64(steps)/max(wall.Seconds(), 1e-9))
}

// MarkIn is a Mark colouring SUCCESS green, ERROR red and the others
// yellow (each function colours a string; the palette decides whether
// it does anything).
func MarkIn(green, red, yellow func(string) string) func(verdict, mark string) string {
	return func(verdict, mark string) string {
		switch verdict {
		case "SUCCESS":
			return green(mark)
		case "ERROR":
			return red(mark)
		default:
			return yellow(mark)
		}
	}
}
