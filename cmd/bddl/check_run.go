package main

import (
	"fmt"
	"io"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/checkrun"
)

// testAfterResult, when set by a test, is called after each result is
// recorded, with the number recorded so far.
var testAfterResult func(n int)

func runCheck(opts *checkOptions) error {
	if err := opts.validateFlags(); err != nil {
		return err
	}
	opts.noteProjectWrites("check")
	compile, err := opts.compileOptions()
	if err != nil {
		return err
	}
	note := noter(opts.err)
	inputs, err := checkrun.Inputs(opts.episodes, opts.out, note)
	if err != nil {
		return misuse("%v", err)
	}
	for _, hook := range opts.inputs {
		if inputs, err = hook(inputs); err != nil {
			return err
		}
	}
	ctx, stop := opts.interruptible()
	defer stop()
	eps := batch.Select(opts.shard, batch.Episodes(ctx, inputs), batch.Episode.ShardKey)

	// Episodes bddl wrote carry a copy of their definition that names
	// where it came from: its BEHAVIOR-1K tree gives the knowledge base.
	paths := make([]string, 0, len(inputs))
	for _, in := range inputs {
		paths = append(paths, in.Path)
	}
	opts.hints = append(opts.hints, copySources(paths)...)
	base, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	res := guardedResolver(base, compile)
	parse, err := opts.readFlags.options()
	if err != nil {
		return err
	}
	res.SetParse(parse, warnText(opts.err))
	if opts.library != "" {
		if err := res.AddLibrary(opts.library, note); err != nil {
			return misuse("--activities %v", err)
		}
	}
	if opts.activity != "" {
		// A definition named on the command line must be usable: fail
		// before reading any episode.
		if err := res.SetActivity(ctx, opts.activity, opts.in, note); err != nil {
			if ctx.Err() != nil {
				return &exitError{code: exitInterrupted, err: fmt.Errorf("interrupted while reading --activity %s", opts.activity)}
			}
			return opts.reportDefinitionError(err)
		}
	}

	run, err := newCheckRun(opts, res, eps)
	if err != nil {
		return err
	}
	defer run.Close()
	if len(eps) == 0 {
		fmt.Fprintf(opts.err, "bddl: shard %s holds none of the %d episodes: nothing to check\n", opts.shard, len(inputs))
		return nil
	}
	fresh, err := run.Run(ctx)
	if err != nil {
		return err
	}
	interrupted := ctx.Err() != nil
	stop()
	return checkEnding(run.Report(fresh, interrupted))
}

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
		Mark:        checkrun.MarkIn(pal.green, pal.red, pal.yellow),
		Summaries:   opts.summaries,
		AfterResult: testAfterResult,
	}, checker, eps)
	if err != nil {
		return nil, misuse("%v", err)
	}
	return run, nil
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
