package main

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/jobs/rules"
	"github.com/openbddl/bddl/transitions"
)

func init() { subcommands = append(subcommands, newTransitionCmd) }

func newTransitionCmd(g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "transition",
		Short: "List, explain and try the knowledge base's transition rules",
		Long: `Transition rules turn objects into others: slicing an apple into halves,
dicing, melting, cooking dough into cookies on a heat source, blending a
smoothie, mixing lemonade, cooking substances, washing and drying. These
commands show the rules of the knowledge base (--kb) as 'bddl check
--transitions' and 'bddl episode apply-rules' apply them.`,
		Example: `  bddl transition list --family heat_cook
  bddl transition list --synset apple.n.01 --format json
  bddl transition explain sugar_cookies
  bddl transition sample strawberry_smoothie -o smoothie/`,
	}
	cmd.AddCommand(newTransitionListCmd(g), newTransitionExplainCmd(g), newTransitionSampleCmd(g))
	return cmd
}

type transitionOptions struct {
	*globalOptions
	format   string
	family   string
	synset   string
	library  string
	seed     uint64
	outDir   string
	rulesOff bool
	variant  string
}

// ---------------------------------------------------------------------
// transition list

func newTransitionListCmd(g *globalOptions) *cobra.Command {
	opts := &transitionOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "list [--family F] [--synset S] [--format json]",
		Short: "List the transition rules of the knowledge base",
		Long: `List every transition rule, in the order rules are applied: the recipe files
(heat_cook, single_toggleable_machine, mixing_stick, substance_cooking,
substance_watercooking, washer) in file order, the slicing, dicing and
melting rules derived from the synsets' parameters, and the dryer.
--family keeps one family; --synset keeps the rules that take, make or need
the synset (or one of its descendants) as an input, output or equipment.
--format json writes one JSON object per rule (JSON Lines).

The exit status is 1 when no rule matches.`,
		Example: `  bddl transition list --family single_toggleable_machine
  bddl --kb BEHAVIOR-1K/bddl3/bddl transition list --synset apple.n.01 --format json`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error { return runTransitionList(opts) },
	}
	cmd.Flags().StringVar(&opts.family, "family", "", "only rules of this family ("+transitions.FamilyNames()+")")
	cmd.Flags().StringVar(&opts.synset, "synset", "", "only rules that take, make or need this synset")
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per rule)")
	return cmd
}

func runTransitionList(opts *transitionOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	return exitFor(rules.List(opts.ruleKB(), opts.family, opts.synset, opts.format == "json", opts.streams.out, opts.err))
}

// rules is the knowledge base the rules are read from.
func (g *globalOptions) ruleKB() rules.KB { return rules.KB{Load: g.loadKB, Source: g.kbSource} }
