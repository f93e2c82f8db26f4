package initcheck

import (
	"context"
	"fmt"
	"io"

	"github.com/openbddl/bddl/internal/jobs/batch"
)

// Batch is a whole check --init run: the shard's jobs, resumed from and
// appended to a results file, evaluated on a pool with a progress bar
// and summed up, BEHAVIOR-1K states and LIBERO episodes alike.
type Batch struct {
	Shard          batch.Shard
	Jobs           int    // workers
	Format         string // text or json
	Out            string // -o: the results file, "" for none
	NoProgress     bool
	Stdout, Stderr io.Writer
	Note           func(string) // notes on the results file
}

// OutputError is an error of the results file (-o): misuse.
type OutputError struct{ Err error }

func (e *OutputError) Error() string { return "-o " + e.Err.Error() }
func (e *OutputError) Unwrap() error { return e.Err }

// InterruptedError says how far a cancelled run got.
type InterruptedError struct{ Done, Of int }

func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted: %d of %d states checked", e.Done, e.Of)
}

// Run evaluates the jobs the shard keeps, except those the results file
// already has a verdict for, prints each Result and, as text, the
// summary. failed is true when some state's :init is not true; a
// cancelled ctx ends it with an *InterruptedError.
func (b Batch) Run(ctx context.Context, jobs []*Job) (failed bool, err error) {
	jobs = batch.Select(b.Shard, jobs, func(j *Job) string { return j.Rel })
	r := &Runner{Pool: batch.Pool{Jobs: b.Jobs}, Format: b.Format, Stdout: b.Stdout,
		OutName: b.Out, Shard: b.Shard, ShardInputs: len(jobs)}
	// -o: the records go to a results file too, and a run resumes from
	// it: states with a verdict in it are not evaluated again.
	var previous []Result
	if b.Out != "" {
		if r.Results, err = batch.OpenResults(b.Out, b.Note); err != nil {
			return false, &OutputError{err}
		}
		defer r.Results.Close()
		recs, err := batch.ReadResults(b.Out, func(string) {})
		if err != nil {
			return false, &OutputError{err}
		}
		all := len(jobs)
		jobs, previous = Resume(recs, batch.PathKey(b.Out), jobs)
		if len(previous) > 0 {
			fmt.Fprintf(b.Stderr, "bddl: note: %s: %d of %d states already checked; checking %d\n", b.Out, len(previous), all, len(jobs))
		}
	}
	if !b.NoProgress {
		r.Pool.Progress = batch.NewProgress(b.Stderr, int64(len(jobs)), 2, "checking :init")
	}
	fresh, err := r.Run(ctx, jobs)
	if err != nil {
		return false, err
	}
	results := append(previous, fresh...)
	if b.Format == "text" {
		WriteSummary(b.Stdout, results, len(previous))
	}
	if ctx.Err() != nil {
		return false, &InterruptedError{len(fresh), len(jobs)}
	}
	for _, r := range results {
		if r.Init != "true" {
			return true, nil
		}
	}
	return false, nil
}
