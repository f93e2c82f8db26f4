package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/termsafe"
)

// checkRun is one invocation's batch: the episodes to check now, the
// results file and what it already held.
type checkRun struct {
	opts     *checkOptions
	checker  *batch.Checker
	todo     []batch.Episode
	previous []batch.Record // earlier results of the episodes asked for
	results  *batch.ResultsFile
	plots    map[string]string
	single   bool
	start    time.Time
	problems int // plots that could not be written
	// shardInputs is the number of episodes of this shard, resumed
	// ones included.
	shardInputs int
}

func newCheckRun(opts *checkOptions, res *batch.Resolver, eps []batch.Episode) (*checkRun, error) {
	c := &checkRun{opts: opts, todo: eps, shardInputs: len(eps)}
	c.checker = &batch.Checker{Resolver: res, Options: opts.episodeOptions(), Negation: opts.negation,
		Evaluate: opts.evaluate, Open: batch.OpenOptions{Stdin: opts.in}}
	for _, prep := range opts.prepare {
		if err := prep(c.checker); err != nil {
			return nil, err
		}
	}
	if opts.plot != "" {
		c.plots = batch.PlotPaths(opts.plot, eps)
	}
	// A Finish an extension set in prepare runs first.
	if ext := c.checker.Finish; ext != nil {
		c.checker.Finish = func(ctx context.Context, t *batch.Task, o *batch.Outcome) {
			ext(ctx, t, o)
			c.finish(ctx, t, o)
		}
	} else {
		c.checker.Finish = c.finish
	}
	if opts.out != "" {
		rf, err := batch.OpenResults(opts.out, noter(opts.err))
		if err != nil {
			return nil, misuse("-o/--output %v", err)
		}
		c.results = rf
		keys := make([]string, len(eps))
		for i, ep := range eps {
			keys[i] = ep.Key()
		}
		plan := batch.PlanResume(rf.Records(), keys)
		if skipped := len(plan.Done); skipped > 0 {
			fmt.Fprintf(opts.err, "skipping %d %s already in %s\n", skipped, plural(skipped, "episode", "episodes"), opts.out)
		}
		if plan.Retried > 0 {
			fmt.Fprintf(opts.err, "retrying %d %s that ended in an error in %s\n", plan.Retried, plural(plan.Retried, "episode", "episodes"), opts.out)
		}
		c.previous = plan.Done
		c.todo = c.todo[:0:0]
		for _, i := range plan.Todo {
			c.todo = append(c.todo, eps[i])
		}
	}
	c.single = len(c.todo) == 1 && len(c.previous) == 0
	return c, nil
}

func (c *checkRun) close() {
	if c.results != nil {
		c.results.Close()
	}
}

// finish draws an episode's plot and drops the per-step values unless
// --per-step asks for them; a plot that cannot be written is a
// problem the run fails with.
func (c *checkRun) finish(_ context.Context, t *batch.Task, o *batch.Outcome) {
	if c.plots != nil && o.Error == "" {
		if err := o.PlotTimeline(c.plots[t.Episode.Key()]); err != nil {
			o.Problems = append(o.Problems, "plot: "+err.Error())
		}
	}
	if !c.opts.perStep {
		o.PerStep, o.Conjuncts = nil, nil
	}
}

// run checks the episodes to do; results go to the results file as they
// complete and to stdout in input order.
func (c *checkRun) run(ctx context.Context) ([]*batch.Outcome, error) {
	c.start = time.Now()
	var p *batch.Progress
	if c.single && !c.opts.noProgress {
		// One long episode: progress by bytes read.
		p = batch.NewBytesProgress(c.opts.err, batch.FileSize(c.todo[0].Path), "checking")
		if p != nil {
			c.checker.Open.Count = p.Add
		}
	} else {
		p = c.opts.progress(c.opts.err, len(c.todo), 2, "checking")
	}
	var fresh []*batch.Outcome
	recorded := 0
	work := func(ctx context.Context, ep batch.Episode) (*batch.Outcome, bool) {
		o := c.checker.Check(ctx, ep)
		return o, !o.Interrupted
	}
	err := batch.Run(ctx, c.opts.pool(p), c.todo, work, batch.Handlers[*batch.Outcome]{
		Completed: func(i int, o *batch.Outcome) error {
			if c.results != nil {
				if err := c.results.Append(c.stamped(c.todo[i], o)); err != nil {
					return fmt.Errorf("writing %s: %w", c.opts.out, err)
				}
			}
			recorded++
			if testAfterResult != nil {
				testAfterResult(recorded)
			}
			return nil
		},
		Ordered: func(_ int, o *batch.Outcome) error {
			fresh = append(fresh, o)
			for _, pr := range o.Problems {
				c.problems++
				fmt.Fprintf(c.opts.err, "bddl: %s: %s\n", termsafe.Text(o.Episode), termsafe.Text(pr))
			}
			return c.print(o)
		},
	})
	if c.results != nil {
		if cerr := c.results.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("writing %s: %w", c.opts.out, cerr)
		}
	}
	return fresh, err
}

// print writes one result to stdout.
func (c *checkRun) print(o *batch.Outcome) error {
	w := c.opts.stdout()
	if c.opts.format == "json" {
		line, err := batch.MarshalLine(o)
		if err != nil {
			return err
		}
		_, err = w.Write(line)
		return err
	}
	r := o.Result
	if c.single || c.opts.details || c.opts.perStep {
		if err := r.WriteText(w); err != nil {
			return err
		}
		if c.opts.stats && r.Stats != nil {
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
	pal := paletteFor(w)
	v := r.Verdict()
	mark := fmt.Sprintf("%-7s", v)
	switch v {
	case "SUCCESS":
		mark = pal.green(mark)
	case "ERROR":
		mark = pal.red(mark)
	default:
		mark = pal.yellow(mark)
	}
	_, err := fmt.Fprintf(w, "%s %s: %s\n", mark, termsafe.Text(r.Episode), termsafe.Text(r.Reason))
	return err
}

// report prints the summary and returns the exit status.
func (c *checkRun) report(fresh []*batch.Outcome, interrupted bool) error {
	opts := c.opts
	all := append([]batch.Record(nil), c.previous...)
	for _, o := range fresh {
		all = append(all, batch.RecordOf(o))
	}
	if opts.format == "text" && !c.single {
		if err := batch.WriteSummary(opts.stdout(), all, len(c.previous)); err != nil {
			return err
		}
	}
	if opts.format == "text" {
		for _, summary := range opts.summaries {
			if err := summary(opts.stdout(), opts.err, fresh); err != nil {
				return err
			}
		}
	}
	if opts.stats {
		writeCheckStats(opts.err, fresh, time.Since(c.start))
	}
	if interrupted {
		fmt.Fprintf(opts.err, "bddl: interrupted: %d of %d episodes checked", len(fresh), len(c.todo))
		if opts.out != "" {
			fmt.Fprintf(opts.err, "; %s is complete up to them: run the same command again to resume", opts.out)
		}
		fmt.Fprintln(opts.err)
		return &exitError{code: exitInterrupted}
	}
	if c.problems > 0 {
		return findings()
	}
	for _, r := range all {
		if !r.Success {
			return findings()
		}
	}
	return nil
}

// writeCheckStats prints the throughput of the episodes checked now.
func writeCheckStats(w io.Writer, results []*batch.Outcome, wall time.Duration) {
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

// stdout is where results go (the -o/--output flag's field shadows the stream's name).
func (o *checkOptions) stdout() io.Writer { return o.streams.out }
