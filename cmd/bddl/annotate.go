package main

import (
	"context"
	"time"

	"github.com/openbddl/bddl/internal/jobs/episodes"
	"github.com/spf13/cobra"
)

func init() {
	subcommands = append(subcommands, newAnnotateCmd, newAnnotationsCmd)
}

type annotateOptions struct {
	episodeWriteOptions
	recordingFlags
	annotator string
	force     bool
	hold      int
	format    string
	// now is the annotations' timestamp (tests fix it).
	now func() time.Time
}

func newAnnotateCmd(g *globalOptions) *cobra.Command {
	opts := &annotateOptions{episodeWriteOptions: episodeWriteOptions{globalOptions: g}, now: time.Now}
	cmd := &cobra.Command{
		Use:   "annotate PATH... --activity ACTIVITY --annotator NAME",
		Short: "Write BDDL verdicts on robot recordings where annotation tools look",
		Long: `Annotate checks each Oopsie episode (*.h5, *.hdf5) and Dora-record episode
(a folder with metadata.json; sessions and trees are walked) against the
activity, joined with its object track as 'bddl check' does, and writes the
verdict as annotator NAME:

  Oopsie       episode_annotations/NAME/ in the episode file, with the
               attributes source ("bddl"), timestamp (ISO 8601), success (1.0
               or 0.0), failure_description, taxonomy and additional_notes
  Dora-record  NAME_annotation.json beside metadata.json, the same record

failure_description is the first goal literal that does not hold at the end,
in words; taxonomy is {"failure_category": "none" | "goal-not-reached" |
"init-not-satisfied" | "undetermined", "severity": 1 - the goal's score}.
A recording that cannot be read in full is annotated "undetermined".

An existing annotation by NAME is refused unless --force. Writes are atomic:
an Oopsie file is rewritten beside itself, read back and compared with the
original object by object through the reader before it replaces it, so a
failure leaves it untouched.

The exit status is 0 when every episode was annotated, 1 when one was not, 2
on misuse.`,
		Example: `  bddl annotate oopsie_session/ --activity putting_the_apple_on_the_table --annotator bddl
  bddl annotate dora-record/session_1/ --map robot.yaml --annotator bddl --force
  bddl annotations compare oopsie_session/ --annotator bddl --against human`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAnnotate(cmd.Context(), opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.activity, "activity", "", "the activity: a problem file or a name (default: the map's activity:)")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find the activity by name in")
	f.StringVar(&opts.annotator, "annotator", "bddl", "the annotator's name: the group (Oopsie) or file prefix (Dora-record) written")
	f.BoolVar(&opts.force, "force", false, "replace an existing annotation by the same annotator")
	f.IntVar(&opts.hold, "hold", 1, "the goal must hold for N consecutive steps")
	f.StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per episode, JSON Lines)")
	opts.recordingFlags.add(f, true)
	opts.readFlags.add(f)
	return cmd
}

func runAnnotate(ctx context.Context, opts *annotateOptions, paths []string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	return exitFor(episodes.Annotate(ctx, opts.source(), opts.recordingFlags.settings(), paths,
		episodes.Annotation{Annotator: opts.annotator, Force: opts.force, Hold: opts.hold, Now: opts.now},
		episodes.Output{JSON: opts.format == "json", Stdout: opts.streams.out, Stderr: opts.err}))
}

func newAnnotationsCmd(g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "annotations",
		Short: "Compare the annotations of robot recordings",
		Long: `Tools for the annotations of robot recordings: Oopsie's episode_annotations
groups and Dora-record's <annotator>_annotation.json files.`,
		Example: `  bddl annotations compare oopsie_session/ --against human`,
	}
	cmd.AddCommand(newAnnotationsCompareCmd(g))
	return asGroup(cmd)
}

type compareOptions struct {
	*globalOptions
	annotator, against, format string
}

func newAnnotationsCompareCmd(g *globalOptions) *cobra.Command {
	opts := &compareOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "compare PATH... [--annotator NAME] [--against NAME|human]",
		Short: "Measure how an annotator agrees with the others (Cohen's kappa)",
		Long: `Compare reads the annotations of every Oopsie episode and Dora-record
episode under the paths and, for each pair of --annotator (default bddl) and
another annotator (--against NAME; "human": every annotator whose source is
human; default: every other), over the episodes both judged: the confusion
matrix of their verdicts (success = success ≥ 0.5), the raw agreement, Cohen's
kappa ((po - pe) / (1 - pe); null when both gave a single verdict throughout)
and the episodes where they disagree, with both descriptions.

The exit status is 0 when a pair was compared, 1 when no episode has
annotations by both annotators of any pair, 2 on misuse.`,
		Example: `  bddl annotations compare oopsie_session/ --annotator bddl --against human
  bddl annotations compare dora-record/ --against human --format json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAnnotationsCompare(opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.annotator, "annotator", "bddl", "the annotator compared with the others")
	f.StringVar(&opts.against, "against", "", `the annotator to compare with, or "human" for every human one (default: every other)`)
	f.StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per pair, JSON Lines)")
	return cmd
}

func runAnnotationsCompare(opts *compareOptions, paths []string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	return exitFor(episodes.Compare(paths, opts.annotator, opts.against, episodes.Output{JSON: opts.format == "json", Stdout: opts.streams.out, Stderr: opts.err}))
}
