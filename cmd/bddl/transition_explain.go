package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/transitions"
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

func findRule(opts *transitionOptions, base *kb.Base, name string) (transitions.Rule, error) {
	r, ok := transitions.FindRule(base, name)
	if ok {
		return r, nil
	}
	return r, misuse("no transition rule %q in %s%s", name, opts.kbSource(), ruleHint(base, name))
}

// ruleHint is the did-you-mean of an unknown rule name: the rules whose
// names are closest by edit distance, else those containing the name,
// else where to find the list.
func ruleHint(base *kb.Base, name string) string {
	var names []string
	for _, x := range transitions.Rules(base) {
		names = append(names, x.Name, string(x.Family)+"/"+x.Name)
	}
	if strings.Contains(name, "/") {
		if h := didYouMean(name, names); h != "" {
			return h
		}
	}
	if h := didYouMean(name, names); h != "" {
		return h
	}
	if close := transitions.SimilarRules(base, name); len(close) > 0 {
		return "; did you mean " + strings.Join(close, ", ") + "?"
	}
	return "; 'bddl transition list' shows them"
}

func runTransitionExplain(opts *transitionOptions, name string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	base, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	r, err := findRule(opts, base, name)
	if err != nil {
		return err
	}
	lib := activities.Examples()
	where := "the embedded examples"
	if opts.library != "" {
		// Read as the reference reads, so official activities with a
		// defect it passes over are searched too.
		if lib, err = activities.LoadDirWith(opts.library, bddl.Options{Mode: bddl.Reference}); err != nil {
			return misuse("--activities %s: %v", opts.library, err)
		}
		where = opts.library
	}
	needed := activitiesNeeding(base, lib, r)
	if opts.format == "json" {
		enc := json.NewEncoder(opts.streams.out)
		enc.SetEscapeHTML(false)
		return enc.Encode(transitions.NewExplainRecord(base, r, needed))
	}
	fmt.Fprint(opts.streams.out, transitions.Explain(base, r))
	transitions.WriteNeededBy(opts.streams.out, r, needed, where)
	return nil
}

// activitiesNeeding lists the activities that declare a future instance
// an output of the rule can bind to.
func activitiesNeeding(base *kb.Base, lib *activities.Library, r transitions.Rule) []string {
	var out []string
	for _, a := range lib.Activities {
		if a.Problem != nil && !a.Diagnostics.HasErrors() && transitions.Needs(base, r, a.Problem) {
			out = append(out, a.ID())
		}
	}
	return out
}
