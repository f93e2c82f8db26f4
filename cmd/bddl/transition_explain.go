package main

import (
	"github.com/openbddl/bddl/internal/jobs/rules"
	"github.com/spf13/cobra"
)

// ---------------------------------------------------------------------
// transition explain

func newTransitionExplainCmd(g *globalOptions) *cobra.Command {
	opts := &transitionOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "explain RULE",
		Short: "Say in plain words what a rule needs and makes, and which activities need it",
		Long: `Explain a rule (by name; FAMILY/NAME when two families share a name): what
it needs (inputs with their states, container, heat source, machine or
tool), when it fires, what it makes and where, and which activities' goals
need it: those that declare a future instance of one of its outputs (in the
--activities library, else the embedded examples).`,
		Example: `  bddl transition explain sugar_cookies
  bddl --kb BEHAVIOR-1K/bddl3/bddl transition explain apple.n.01-slicing --activities BEHAVIOR-1K/bddl3/bddl/activity_definitions`,
		Args: exactArgs(1, "a transition rule name (bddl transition list shows them)"),
		RunE: func(_ *cobra.Command, args []string) error { return runTransitionExplain(opts, args[0]) },
	}
	cmd.Flags().StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory whose activities to search")
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object)")
	return cmd
}

func runTransitionExplain(opts *transitionOptions, name string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	return exitFor(rules.Explain(opts.ruleKB(), name, opts.library, opts.format == "json", opts.streams.out))
}
