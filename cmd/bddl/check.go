package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/checkrun"
	"github.com/openbddl/bddl/predicates"
)

func init() { subcommands = append(subcommands, newCheckCmd) }

// exitInterrupted is the exit status of a batch stopped by SIGINT or
// SIGTERM.
const exitInterrupted = batch.ExitInterrupted

type checkOptions struct {
	*globalOptions
	batchFlags
	readFlags
	activity   string
	library    string // --activities: a BEHAVIOR-1K activity_definitions tree
	episodes   []string
	format     string
	out        string
	perStep    bool
	details    bool
	hold       int
	atEnd      bool
	negation   string
	strictPair bool
	geometry   predicates.Geometry
	lenient    bool
	plot       string
	stats      bool

	// evaluate, when set (by a flag another file adds), replaces
	// batch.DefaultEvaluate.
	evaluate batch.Evaluate
	// prepare are run on the checker before any episode is read; a flag
	// added by a checkExtension sets hooks there (Evaluate, Finish).
	prepare []func(c *batch.Checker) error
	// inputs are run on the expanded inputs, before the activity is
	// read: an extension may drop inputs or set options from them.
	inputs []func(in []batch.Input) ([]batch.Input, error)
	// summaries print after the text summary of a run.
	summaries []func(out, errw io.Writer, fresh []*batch.Outcome) error
}

// checkExtensions let other files add flags to check without editing
// this one: each is called with the command and its options when the
// command is built, registers its flags, and may append to opts.prepare.
//
//	func init() {
//		checkExtensions = append(checkExtensions, func(cmd *cobra.Command, o *checkOptions) {
//			var on bool
//			cmd.Flags().BoolVar(&on, "transitions", false, "...")
//			o.prepare = append(o.prepare, func(c *batch.Checker) error {
//				if on { c.Evaluate = withTransitions }
//				return nil
//			})
//		})
//	}
var checkExtensions []func(cmd *cobra.Command, opts *checkOptions)

func newCheckCmd(g *globalOptions) *cobra.Command {
	opts := &checkOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "check [--activity FILE|DIR|NAME] --episode FILE|DIR|GLOB... [flags]",
		Short: "Check goal success on recorded episodes",
		Long: `Check streams recorded episodes (JSON Lines, optionally gzip-compressed; the
format is in docs/episode-format.md and 'bddl episode schema'), evaluates :init at the
first step and :goal at every step, and reports for each episode: success,
the first step at which the goal holds and whether it still holds at the end,
whether :init held at the first step (and which literals did not), the
library and challenge scores, the goal literals unsatisfied or undetermined
at the end with the objects and recorded values they were decided on, and
how many decisions were approximate (box geometry) or unknown.

The activity is --activity, else the one each episode's header names.
--activity takes a problem file (a pipe such as <(cmd) too), an activity
directory (<activity>/problem<N>.bddl), a tree of activities (searched for
the name each header gives) or a name in the --activities library or the
embedded examples. A path in a header is read relative to the episode's
directory, and only inside the episode's tree or the libraries given.

--episode takes files ("-" for standard input), directories (walked for
*.jsonl and *.jsonl.gz, symbolic links followed) and globs, where **
crosses directories ('runs/**/*.jsonl.gz'); it may be repeated, and
further arguments are episodes too. Episodes are checked in parallel;
--shard I/N checks a deterministic 1/N of them, so N machines cover every
episode once ('bddl results merge' joins their -o files).

An episode succeeds when its goal holds for --hold consecutive steps of a
recording read without error; a bad line (malformed JSON, an unknown
instance, a wrong type, a step number that does not increase, NaN, a box
with min > max) stops it with an error naming file, line, step and field,
and it is not a success. --lenient skips bad steps and counts them; an
episode with skipped steps is not a success either.

-o/--output FILE appends one JSON line per episode (the fields are in the
docs/check.md) under an exclusive lock: a second run on the same FILE is refused.
A run skips the episodes already in FILE (matched by absolute path) and
retries those that ended in an error, so an interrupted run resumes; the
first Ctrl-C finishes the line being written and leaves FILE valid, a
second exits at once.

The exit status is 0 when every episode succeeded, 1 when one failed or
had an error (or a plot could not be written), 2 on misuse, 130 when
interrupted.`,
		Example: `  bddl check --activity tidying_the_living_room --episode activities/examples/tidying_the_living_room/episodes/poses.jsonl
  bddl check --per-step --plot timeline.svg --episode run7.jsonl.gz
  bddl check --activities behavior1k/activity_definitions --episode 'runs/**/*.jsonl.gz' -o results.jsonl
  bddl check --shard 0/4 --episode runs/ -o results-0.jsonl     # one of 4 machines
  bddl check --format json --hold 10 --negation strict --episode runs/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.episodes = append(opts.episodes, args...)
			if done, err := checkLibero(cmd, opts); done {
				return err
			}
			return runCheck(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.activity, "activity", "", "activity definition: a problem file, an activity directory or tree, or a name (default: the one each episode names)")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find activities by name in")
	f.StringArrayVar(&opts.episodes, "episode", nil, "an episode file, a directory of them, or a glob (repeatable; - for standard input)")
	f.StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per episode, JSON Lines)")
	addOutputFlag(f, &opts.out, "", "append one JSON line per episode to this file, skipping the episodes already in it", "out")
	f.BoolVar(&opts.perStep, "per-step", false, "add the goal's and each top-level conjunct's truth at every step")
	f.BoolVar(&opts.details, "details", false, "print the full report of every episode, not one line each, when checking several")
	f.IntVar(&opts.hold, "hold", 1, "the goal must hold for N consecutive steps")
	f.BoolVar(&opts.atEnd, "at-end", false, "also require the goal to hold at the last step")
	f.StringVar(&opts.negation, "negation", "reference", "negation: reference (plain NOT, as the simulator) or strict (not open = closed, ...)")
	f.BoolVar(&opts.strictPair, "strict-pairs", false, "forpairs/fornpairs need a one-to-one matching, not the reference's cover test")
	f.Float64Var(&opts.geometry.TouchTolerance, "touch-tolerance", predicates.DefaultTouchTolerance, "largest box separation (m) that counts as touching (0: boxes must overlap)")
	f.Float64Var(&opts.geometry.VerticalRange, "vertical-range", predicates.DefaultVerticalRange, "length (m) of the vertical rays of ontop and under")
	f.Float64Var(&opts.geometry.HorizontalRange, "horizontal-range", predicates.DefaultHorizontalRange, "length (m) of nextto's horizontal rays")
	f.Float64Var(&opts.geometry.NextToRatio, "nextto-ratio", predicates.DefaultNextToRatio, "nextto's gap limit as a fraction of the sum of both boxes' six extents")
	f.IntVar(&opts.geometry.HorizontalRays, "horizontal-rays", predicates.DefaultHorizontalRays, "number of horizontal ray directions of nextto")
	f.Float64Var(&opts.geometry.OverlapFraction, "overlap-fraction", predicates.DefaultOverlapFraction, "share of the parent's footprint a cloth must cover for overlaid")
	f.BoolVar(&opts.lenient, "lenient", false, "skip bad steps and count them instead of stopping the episode")
	f.StringVar(&opts.plot, "plot", "", "draw each episode's timeline of goal conjuncts to FILE.svg or FILE.png")
	f.BoolVar(&opts.stats, "stats", false, "report time spent decoding vs evaluating, and steps per second")
	opts.batchFlags.add(f, "episodes")
	opts.readFlags.add(f)
	_ = cmd.RegisterFlagCompletionFunc("activity", completeActivities(g, &opts.library))
	for _, ext := range checkExtensions {
		ext(cmd, opts)
	}
	return cmd
}

func (o *checkOptions) validateFlags() error {
	if err := checkFormat(o.format); err != nil {
		return err
	}
	if err := o.batchFlags.parse(); err != nil {
		return err
	}
	if o.hold < 1 {
		return misuse("--hold must be at least 1, not %d", o.hold)
	}
	if o.plot != "" {
		switch strings.ToLower(filepath.Ext(o.plot)) {
		case ".svg", ".png":
		default:
			return misuse("--plot %s: the file must end in .svg or .png", o.plot)
		}
	}
	if len(o.episodes) == 0 {
		return misuse("no episodes: give --episode FILE|DIR|GLOB")
	}
	return nil
}

// compileOptions turns the flags into predicates options.
func (o *checkOptions) compileOptions() (predicates.Options, error) {
	opts, err := checkrun.CompileOptions(o.negation, o.strictPair, o.geometry)
	if err != nil {
		return opts, misuse("%v", err)
	}
	return opts, nil
}

// reportDefinitionError prints a definition's problems and returns the
// misuse exit.
func (o *checkOptions) reportDefinitionError(err error) error {
	if ds, ok := bddl.AsDiagnostics(err); ok {
		_ = ds.WriteText(o.err)
		return &exitError{code: exitMisuse, err: fmt.Errorf("--activity %s cannot be checked against: %d problem(s) in the definition", o.activity, len(ds))}
	}
	return misuse("--activity %v", err)
}

// episodeOptions are the per-episode check options.
func (o *checkOptions) episodeOptions() episode.CheckOptions {
	return episode.CheckOptions{Hold: o.hold, AtEnd: o.atEnd, PerStep: o.perStep || o.plot != "",
		Lenient: o.lenient, Timing: o.stats}
}
