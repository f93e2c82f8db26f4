package main

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/jobs/episodes"
)

func init() { subcommands = append(subcommands, newEpisodeCmd) }

func newEpisodeCmd(g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "episode",
		Short: "Write and describe recorded episodes",
		Long: `Tools for the recorded-episode format that 'bddl check' reads: write the
symbolic episode of a definition's own :init, synthesize episodes for tests and
benchmarks, print the format's JSON Schema.`,
		Example: `  bddl episode from-init tidying_the_living_room -o init.jsonl
  bddl episode synth tidying_the_living_room --kind poses --steps 100000 -o poses.jsonl.gz
  bddl episode schema > episode.schema.json`,
	}
	cmd.AddCommand(newEpisodeFromInitCmd(g), newEpisodeSynthCmd(g), newEpisodeSchemaCmd(g), newEpisodeApplyRulesCmd(g), newEpisodeConvertCmd(g))
	cmd.AddCommand(newEpisodeFromOmniGibsonCmd(g))
	cmd.AddCommand(newEpisodeFromOopsieCmd(g), newEpisodeFromDoraCmd(g))
	return asGroup(cmd)
}

func newEpisodeFromInitCmd(g *globalOptions) *cobra.Command {
	opts := &episodeWriteOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "from-init ACTIVITY [-o FILE]",
		Short: "Write the closed-world symbolic episode of a definition's :init",
		Long: `Write a one-step, closed-world symbolic episode in which every :init literal
of the definition holds: the header lists every instance (future ones with
"exists": false) and step 0 records each init atom as a fact. Checking it
finds :init true. It is a starting point for hand-written episodes, tests and
benchmarks. ACTIVITY is a problem file or an activity name (--activities,
else the embedded examples). FILE ending in .gz is gzip-compressed; without
-o, or with -o -, the episode goes to stdout.`,
		Example: `  bddl episode from-init tidying_the_living_room -o init.jsonl
  bddl episode from-init defs/baking_cookies/problem0.bddl -o init.jsonl.gz`,
		Args:              exactArgs(1, "an activity (a definition file or a name)"),
		ValidArgsFunction: completeActivities(g, &opts.library),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.activity = args[0]
			return exitFor(episodes.FromInit(opts.source(), opts.out, opts.streams.out))
		},
	}
	cmd.Flags().StringVarP(&opts.out, "output", "o", "-", "the file to write (.gz: compressed; -: stdout)")
	cmd.Flags().StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find the activity by name in")
	opts.readFlags.add(cmd.Flags())
	return cmd
}

func newEpisodeSynthCmd(g *globalOptions) *cobra.Command {
	opts := &episodeWriteOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "synth ACTIVITY --kind symbolic|poses --steps N [-o FILE]",
		Short: "Write a synthetic episode for tests and benchmarks",
		Long: `Write a reproducible synthetic episode of an activity. symbolic: the :init
as in from-init, then each step changes one or two goal atoms (delta-encoded,
closed world). poses: the position and box of every object at every step, as a
float32 simulator prints them. It is input for 'bddl check --stats', not a
simulation: the goal is rarely reached.`,
		Example: `  bddl episode synth tidying_the_living_room --kind poses --steps 100000 -o poses.jsonl
  bddl check --stats --episode poses.jsonl`,
		Args:              exactArgs(1, "an activity (a definition file or a name)"),
		ValidArgsFunction: completeActivities(g, &opts.library),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.activity = args[0]
			return exitFor(episodes.Synth(opts.source(), opts.kind, opts.steps, opts.seed, opts.out, opts.streams.out, opts.err))
		},
	}
	cmd.Flags().StringVarP(&opts.out, "output", "o", "-", "the file to write (.gz: compressed; -: stdout)")
	cmd.Flags().StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find the activity by name in")
	opts.readFlags.add(cmd.Flags())
	cmd.Flags().StringVar(&opts.kind, "kind", "symbolic", "symbolic or poses")
	cmd.Flags().IntVar(&opts.steps, "steps", 1000, "number of steps")
	cmd.Flags().Uint64Var(&opts.seed, "seed", 1, "random seed")
	return cmd
}

func newEpisodeSchemaCmd(g *globalOptions) *cobra.Command {
	return &cobra.Command{
		Use:   "schema",
		Short: "Print the JSON Schema of the episode format",
		Long: `Print the JSON Schema (draft 2020-12) of the recorded-episode format: line 1
of an episode validates against its Header, every further line against its
Step.`,
		Example: `  bddl episode schema > episode.schema.json`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			_, err := g.out.Write(episode.Schema)
			return err
		},
	}
}
