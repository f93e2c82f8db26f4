package main

import (
	"encoding/json"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/kb"
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
	if opts.family != "" && !transitions.IsFamily(opts.family) {
		return misuse("--family %q: use one of %s", opts.family, transitions.FamilyNames())
	}
	base, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	syn := kb.NoSynset
	if opts.synset != "" {
		id, ok := transitions.LookupSynset(base, opts.synset)
		if !ok {
			return misuse("--synset: %s", base.UnknownSynsetMessage(opts.synset))
		}
		syn = id
	}
	n := 0
	enc := json.NewEncoder(opts.streams.out)
	enc.SetEscapeHTML(false)
	for _, r := range transitions.Rules(base) {
		if opts.family != "" && string(r.Family) != opts.family || syn != kb.NoSynset && !r.Mentions(base, syn) {
			continue
		}
		n++
		if opts.format == "json" {
			if err := enc.Encode(r.Record()); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintln(opts.streams.out, r.Describe())
	}
	if n == 0 {
		fmt.Fprintln(opts.err, "bddl: no transition rule matches in", opts.kbSource())
		return findings()
	}
	return nil
}
