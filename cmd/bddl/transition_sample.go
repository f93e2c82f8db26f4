package main

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/jobs/rules"
	"github.com/openbddl/bddl/transitions"
)

// ---------------------------------------------------------------------
// transition sample

func newTransitionSampleCmd(g *globalOptions) *cobra.Command {
	opts := &transitionOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "sample RULE [--seed N] [-o DIR] [--rules-off]",
		Short: "Write a minimal episode in which a rule fires, and the state after it",
		Long: `Build the smallest scene in which a rule fires (its inputs in a fitting
container on an active heat source, in a machine that is switched on, under
a knife, ...) as an activity definition and a recorded episode: the steps
up to the trigger, the last with the rule's outcome written as ordinary
recorded fields. Checking the episode finds the goal (the rule's outputs
exist with their states) true. With --rules-off the outcome is left out, as
a simulator with transition rules off records it: the goal then holds only
under 'bddl check --transitions'.

Without -o the episode goes to stdout, its header naming the sample's
problem and carrying the definition in "meta"; with -o DIR the definition
is written to DIR/problem0.bddl and the episode to DIR/sample.jsonl, ready
for 'bddl check --episode DIR/sample.jsonl'. --variant builds one of the
negative cases instead (the rule must not fire): ` + transitions.VariantNames() + `.`,
		Example: `  bddl transition sample sugar_cookies -o cookies/ && bddl check --episode cookies/sample.jsonl
  bddl transition sample apple.n.01-slicing --rules-off -o slicing/ && bddl check --transitions --episode slicing/sample.jsonl`,
		Args: exactArgs(1, "a transition rule name (bddl transition list shows them)"),
		RunE: func(_ *cobra.Command, args []string) error { return runTransitionSample(opts, args[0]) },
	}
	cmd.Flags().Uint64Var(&opts.seed, "seed", 1, "random seed for the positions")
	cmd.Flags().StringVarP(&opts.outDir, "output", "o", "", "write DIR/problem0.bddl and DIR/sample.jsonl (default: the episode on stdout)")
	cmd.Flags().BoolVar(&opts.rulesOff, "rules-off", false, "leave the rule's outcome out of the episode, as recorded with rules off")
	cmd.Flags().StringVar(&opts.variant, "variant", "positive", "positive, or a negative case")
	return cmd
}

func runTransitionSample(opts *transitionOptions, name string) error {
	return exitFor(rules.Sample(opts.ruleKB(), rules.SampleRequest{Rule: name, Variant: opts.variant, Seed: opts.seed,
		OutDir: opts.outDir, RulesOff: opts.rulesOff, Stdout: opts.streams.out, Stderr: opts.err}))
}
