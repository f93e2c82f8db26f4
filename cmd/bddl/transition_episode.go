package main

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/episodes"
	"github.com/openbddl/bddl/internal/jobs/rules"
	"github.com/openbddl/bddl/predicates"
)

// The commands that apply transition rules to recorded episodes:
// bddl check --transitions and bddl episode apply-rules.

// ---------------------------------------------------------------------
// bddl check --transitions

// --transitions is added to check through checkExtensions: the
// evaluation then applies the rules after each step.
func init() {
	checkExtensions = append(checkExtensions, func(cmd *cobra.Command, o *checkOptions) {
		var on bool
		var list string
		cmd.Flags().BoolVar(&on, "transitions", false,
			"apply the knowledge base's transition rules after each recorded step, before evaluating (for recordings made with rules off)")
		cmd.Flags().StringVar(&list, "transition-options", "", transitionOptionsHelp)
		o.prepare = append(o.prepare, func(c *batch.Checker) error { return exitFor(rules.PrepareCheck(c, on, list)) })
	})
}

// transitionOptionsHelp documents --transition-options, the engine's
// deliberate deviations from the reference (docs/transitions.md).
const transitionOptionsHelp = "comma-separated deviations from the reference's rules: same-step (outputs get their states and place on the step the rule fires), " +
	"gpu-dynamics (the washer wets its load), max-anonymous=N (anonymous objects, the undeclared intermediates later rules take, kept at once; default 64, -1 none), fixed=NAME / movable=NAME (whether an instance is fixed-base)"

// ---------------------------------------------------------------------
// bddl episode apply-rules

type applyRulesOptions struct {
	*globalOptions
	out      string
	activity string
	library  string
	options  string
}

func newEpisodeApplyRulesCmd(g *globalOptions) *cobra.Command {
	opts := &applyRulesOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "apply-rules EPISODE -o OUT",
		Short: "Write an episode with the transition rules' outcomes added as recorded fields",
		Long: `Read a recording made with transition rules off, apply the knowledge base's
rules after each step as 'bddl check --transitions' does, and write the
recording with each rule's outcome added to the step it fired at as
ordinary recorded fields: "exists" of the objects consumed and created, the
boxes of created objects, and facts (cooked, contains, ontop, ...). The
result checks the same without --transitions. The firings are listed on
stderr. OUT ending in .gz is compressed; it is replaced atomically.

The activity is --activity, else the one the header names. The exit status
is 1 when no rule fired (OUT is written all the same).`,
		Example: `  bddl episode apply-rules run.jsonl -o run-rules.jsonl
  bddl --kb BEHAVIOR-1K/bddl3/bddl episode apply-rules run.jsonl.gz -o out.jsonl.gz --activities BEHAVIOR-1K/bddl3/bddl/activity_definitions`,
		Args: exactArgs(1, "an episode file"),
		RunE: func(_ *cobra.Command, args []string) error { return runApplyRules(opts, args[0]) },
	}
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "the episode to write (required; .gz: compressed)")
	cmd.Flags().StringVar(&opts.activity, "activity", "", "activity definition: a problem file or an activity name (default: the one the header names)")
	cmd.Flags().StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find the activity by name in")
	cmd.Flags().StringVar(&opts.options, "transition-options", "", transitionOptionsHelp)
	return cmd
}

func runApplyRules(opts *applyRulesOptions, path string) error {
	return exitFor(episodes.Apply(episodes.ApplyRules{Episode: path, Out: opts.out, Activity: opts.activity, Library: opts.library,
		Options: opts.options, Note: noter(opts.err), Stdin: opts.in, Stderr: opts.err,
		Open: func() (*batch.Resolver, error) {
			base, err := opts.loadKB()
			if err != nil {
				return nil, misuse("%v", err)
			}
			return guardedResolver(base, predicates.Options{}), nil
		}}))
}
