package main

import (
	"io"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/checkrun"
)

// newCheckRun builds check's checker from the flags (and the hooks its
// extensions add) and the run of it over eps (internal/jobs/checkrun).
func newCheckRun(opts *checkOptions, res *batch.Resolver, eps []batch.Episode) (*checkrun.Run, error) {
	checker := &batch.Checker{Resolver: res, Options: opts.episodeOptions(), Negation: opts.negation,
		Evaluate: opts.evaluate, Open: batch.OpenOptions{Stdin: opts.in}}
	for _, prep := range opts.prepare {
		if err := prep(checker); err != nil {
			return nil, err
		}
	}
	pal := paletteFor(opts.stdout())
	run, err := checkrun.New(checkrun.Options{
		Format: opts.format, Out: opts.out, Plot: opts.plot, PerStep: opts.perStep, Details: opts.details, Stats: opts.stats,
		Shard: opts.shard, Jobs: opts.jobs, NoProgress: opts.noProgress, Stdout: opts.stdout(), Stderr: opts.err,
		Mark:        func(verdict, mark string) string { return markVerdict(pal, verdict, mark) },
		Summaries:   opts.summaries,
		AfterResult: testAfterResult,
	}, checker, eps)
	if err != nil {
		return nil, misuse("%v", err)
	}
	return run, nil
}

// markVerdict colours the verdict word of check's lines: SUCCESS green,
// ERROR red, the others yellow.
func markVerdict(pal palette, verdict, mark string) string {
	switch verdict {
	case "SUCCESS":
		return pal.green(mark)
	case "ERROR":
		return pal.red(mark)
	default:
		return pal.yellow(mark)
	}
}

// checkEnding is the exit status of a run's ending.
func checkEnding(e checkrun.Ending, err error) error {
	switch {
	case err != nil:
		return err
	case e == checkrun.Interrupted:
		return &exitError{code: exitInterrupted}
	case e == checkrun.Failed:
		return findings()
	}
	return nil
}

// stdout is where results go (the -o/--output flag's field shadows the stream's name).
func (o *checkOptions) stdout() io.Writer { return o.streams.out }
