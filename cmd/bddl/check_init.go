package main

import (
	"errors"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/initcheck"
)

// check --init answers "does :init hold on these instances?" in one
// command (internal/jobs/initcheck). It is added through
// checkExtensions, so check.go is untouched.

func init() {
	checkExtensions = append(checkExtensions, func(cmd *cobra.Command, o *checkOptions) {
		var on bool
		cmd.Flags().BoolVar(&on, "init", false, "only evaluate :init on the first step, literal by literal; PATHs may also be OmniGibson task folders, the sampled_task folder, *_instances folders or instance files (converted in memory)")
		cmd.Flags().BoolVar(&o.geometry.IgnoreError, "strict-geometry", false, "decide geometric atoms on estimated boxes with the thresholds alone (true or false), ignoring the boxes' recorded error (box_error)")
		cmd.Example += `
  bddl check --init BEHAVIOR-1K/joylo/sampled_task/cook_bacon BEHAVIOR-1K/joylo/sampled_task/freeze_pies
  bddl check --init BEHAVIOR-1K/joylo/sampled_task`
		run := cmd.RunE
		cmd.RunE = func(c *cobra.Command, args []string) error {
			if !on {
				return run(c, args)
			}
			o.episodes = append(o.episodes, args...)
			if done, err := checkLibero(c, o); done {
				return err
			}
			// Oopsie and Dora-record recordings are joined with their
			// tracks by check's own reader, which --init does not use:
			// say so rather than fail on their bytes as episode lines.
			if ins, err := batch.Expand(o.episodes, batch.ExpandOptions{What: "episodes", Match: batch.IsEpisodeFile,
				Describe: batch.EpisodeSuffixes()}); err == nil && hasRecordings(ins) {
				return misuse("--init does not read Oopsie or Dora-record recordings: run check without --init (its report says whether :init held), or convert them with 'bddl episode from-oopsie' / 'from-dora' first")
			}
			return runCheckInit(c, o, o.episodes)
		}
	})
}

// initResult is the "init" record (bddl schema init).
type initResult = initcheck.Result

// initIgnores are the flags of check that --init has no use for: they
// are refused, not ignored.
var initIgnores = []string{"per-step", "plot", "hold", "at-end", "lenient", "stats", "details", "negation", "strict-pairs",
	"touch-tolerance", "vertical-range", "horizontal-range", "nextto-ratio", "horizontal-rays", "overlap-fraction", "transitions"}

// refuseInitFlags refuses the flags --init has no use for.
func refuseInitFlags(cmd *cobra.Command) error {
	for _, name := range initIgnores {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			return misuse("--%s does not apply to --init, which evaluates :init on the first step only", name)
		}
	}
	return nil
}

func runCheckInit(cmd *cobra.Command, o *checkOptions, paths []string) error {
	if err := checkFormat(o.format); err != nil {
		return err
	}
	if err := refuseInitFlags(cmd); err != nil {
		return err
	}
	if len(paths) == 0 {
		return misuse("--init: name task folders, instance files or episode files")
	}
	if o.jobs < 0 {
		return misuse("--jobs must not be negative")
	}
	base, err := o.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	og := &fromOGOptions{globalOptions: o.globalOptions, activity: o.activity, library: o.library}
	jobs, err := initcheck.Jobs(paths, base, initcheck.Definitions{
		Activity:       o.activity,
		TaskDefinition: og.definitionPath,
		Read: func(path string) (*bddl.Problem, error) {
			p, _, err := og.readDefinition(path)
			return p, err
		},
		Geometry: o.geometry,
	})
	if err != nil {
		if ee := (*exitError)(nil); errors.As(err, &ee) {
			return err
		}
		return misuse("%v", err)
	}
	return runInit(o, jobs)
}

// runInit evaluates the jobs of check --init (BEHAVIOR-1K states or
// LIBERO episodes): --shard, -o and the report are the same for both.
func runInit(o *checkOptions, jobs []*initcheck.Job) error {
	shard, err := batch.ParseShard(o.shardSpec)
	if err != nil {
		return misuse("%v", err)
	}
	ctx, stop := o.interruptible()
	defer stop()
	failed, err := initcheck.Batch{Shard: shard, Jobs: o.jobs, Format: o.format, Out: o.out, NoProgress: o.noProgress,
		Stdout: o.streams.out, Stderr: o.err, Note: noter(o.err)}.Run(ctx, jobs)
	var oe *initcheck.OutputError
	var ie *initcheck.InterruptedError
	switch {
	case errors.As(err, &oe):
		return misuse("%v", oe)
	case errors.As(err, &ie):
		return &exitError{code: exitInterrupted, err: ie}
	case err != nil:
		return err
	case failed:
		return findings()
	}
	return nil
}
