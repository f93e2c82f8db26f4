package checkrun

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/termsafe"
)

// Options are check's flags that shape a run.
type Options struct {
	Format  string // text or json (JSON Lines)
	Out     string // the results file (-o); "" for none
	Plot    string // each episode's timeline plot (--plot), by batch.PlotPaths
	PerStep bool   // keep the per-step values in the results
	Details bool   // the full report of every episode, not a line each
	Stats   bool   // decoding and evaluation times
	Shard   batch.Shard
	Jobs    int
	// NoProgress hides the progress bar (shown on a terminal only).
	NoProgress bool
	Stdout     io.Writer
	Stderr     io.Writer
	// Mark colours the verdict word of an episode's line (SUCCESS, FAIL,
	// UNDETERMINED, ERROR, padded); nil leaves it plain.
	Mark func(verdict, mark string) string
	// Summaries print after the text summary of a run.
	Summaries []func(out, errw io.Writer, fresh []*batch.Outcome) error
	// AfterResult, when set (by a test), is called after each result is
	// recorded, with the number recorded so far.
	AfterResult func(n int)
}

// Run is one invocation's batch: the episodes to check now, the
// results file and what it already held.
type Run struct {
	opts     Options
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

// New prepares a run of checker over eps: it opens the results file
// (an error says -o/--output) and leaves out the episodes already in
// it. Close the Run when done.
func New(opts Options, checker *batch.Checker, eps []batch.Episode) (*Run, error) {
	c := &Run{opts: opts, checker: checker, todo: eps, shardInputs: len(eps)}
	if opts.Plot != "" {
		c.plots = batch.PlotPaths(opts.Plot, eps)
	}
	// A Finish set before (by an extension) runs first.
	if ext := c.checker.Finish; ext != nil {
		c.checker.Finish = func(ctx context.Context, t *batch.Task, o *batch.Outcome) {
			ext(ctx, t, o)
			c.finish(ctx, t, o)
		}
	} else {
		c.checker.Finish = c.finish
	}
	if opts.Out != "" {
		rf, err := batch.OpenResults(opts.Out, func(msg string) { fmt.Fprintln(opts.Stderr, "bddl: note:", termsafe.Text(msg)) })
		if err != nil {
			return nil, fmt.Errorf("-o/--output %v", err)
		}
		c.results = rf
		keys := make([]string, len(eps))
		for i, ep := range eps {
			keys[i] = ep.Key()
		}
		plan := batch.PlanResume(rf.Records(), keys)
		if skipped := len(plan.Done); skipped > 0 {
			fmt.Fprintf(opts.Stderr, "skipping %d %s already in %s\n", skipped, plural(skipped, "episode", "episodes"), opts.Out)
		}
		if plan.Retried > 0 {
			fmt.Fprintf(opts.Stderr, "retrying %d %s that ended in an error in %s\n", plan.Retried, plural(plan.Retried, "episode", "episodes"), opts.Out)
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

// Close closes the results file.
func (c *Run) Close() {
	if c.results != nil {
		c.results.Close()
	}
}

// finish draws an episode's plot and drops the per-step values unless
// --per-step asks for them; a plot that cannot be written is a
// problem the run fails with.
func (c *Run) finish(_ context.Context, t *batch.Task, o *batch.Outcome) {
	if c.plots != nil && o.Error == "" {
		if err := o.PlotTimeline(c.plots[t.Episode.Key()]); err != nil {
			o.Problems = append(o.Problems, "plot: "+err.Error())
		}
	}
	if !c.opts.PerStep {
		o.PerStep, o.Conjuncts = nil, nil
	}
}

// Run checks the episodes to do; results go to the results file as they
// complete and to stdout in input order.
func (c *Run) Run(ctx context.Context) ([]*batch.Outcome, error) {
	c.start = time.Now()
	var p *batch.Progress
	switch {
	case c.opts.NoProgress:
	case c.single:
		// One long episode: progress by bytes read.
		p = batch.NewBytesProgress(c.opts.Stderr, batch.FileSize(c.todo[0].Path), "checking")
		if p != nil {
			c.checker.Open.Count = p.Add
		}
	default:
		p = batch.NewProgress(c.opts.Stderr, int64(len(c.todo)), 2, "checking")
	}
	var fresh []*batch.Outcome
	recorded := 0
	work := func(ctx context.Context, ep batch.Episode) (*batch.Outcome, bool) {
		o := c.checker.Check(ctx, ep)
		return o, !o.Interrupted
	}
	err := batch.Run(ctx, batch.Pool{Jobs: c.opts.Jobs, Progress: p}, c.todo, work, batch.Handlers[*batch.Outcome]{
		Completed: func(i int, o *batch.Outcome) error {
			if c.results != nil {
				if err := c.results.Append(c.stamped(c.todo[i], o)); err != nil {
					return fmt.Errorf("writing %s: %w", c.opts.Out, err)
				}
			}
			recorded++
			if c.opts.AfterResult != nil {
				c.opts.AfterResult(recorded)
			}
			return nil
		},
		Ordered: func(_ int, o *batch.Outcome) error {
			fresh = append(fresh, o)
			for _, pr := range o.Problems {
				c.problems++
				fmt.Fprintf(c.opts.Stderr, "bddl: %s: %s\n", termsafe.Text(o.Episode), termsafe.Text(pr))
			}
			return c.print(o)
		},
	})
	if c.results != nil {
		if cerr := c.results.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("writing %s: %w", c.opts.Out, cerr)
		}
	}
	return fresh, err
}

// stamped is the line a results file gets for o: o with what resuming
// and merging need (stdout's lines stay as they were): the shard
// it was checked under and the number of episodes of that shard (so a
// merge can name the shards and episodes missing), the episode's cleaned
// absolute path (a run resumed from another directory finds it) and its
// path relative to its --episode argument (what merging matches on).
func (c *Run) stamped(ep batch.Episode, o *batch.Outcome) *batch.Outcome {
	extra := make(map[string]any, len(o.Extra)+4)
	for k, v := range o.Extra {
		extra[k] = v
	}
	shard := "0/1"
	if !c.opts.Shard.All() {
		shard = c.opts.Shard.String()
	}
	extra["shard"] = shard
	extra["shard_inputs"] = c.shardInputs
	extra["key"] = ep.Key()
	if rel := ep.ShardKey(); rel != "" {
		extra["rel"] = rel
	}
	return &batch.Outcome{Result: o.Result, Extra: extra, Problems: o.Problems}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
