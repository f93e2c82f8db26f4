package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/kb/show"
)

// ---------------------------------------------------------------------
// kb show

type kbShowOptions struct {
	*globalOptions
	format string
	all    bool
}

func newKBShowCmd(g *globalOptions) *cobra.Command {
	opts := &kbShowOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "show SYNSET...",
		Short: "Show what the knowledge base knows about synsets",
		Long: `Show a synset: its hypernyms and hyponyms, its properties with their
parameters (own, or inherited from the kind of thing it is), its thresholds,
the object categories and models that can stand for it (with bounding-box
sizes), the scene rooms containing it, and the transition rules that consume,
produce or need it. Instance names (apple.n.01_1) are accepted.

An unknown synset is reported on stderr with a did-you-mean; the exit status
is then 1.`,
		Example: `  bddl kb show apple.n.01
  bddl kb show oven.n.01 water.n.06 --format json
  bddl --kb BEHAVIOR-1K/bddl3/bddl kb show half__apple.n.01`,
		Args:              minArgs(1, "a synset name, e.g. apple.n.01"),
		ValidArgsFunction: completeSynsets(g),
		RunE:              func(_ *cobra.Command, args []string) error { return runKBShow(opts, args) },
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	cmd.Flags().BoolVar(&opts.all, "all", false, "list every model and room (text output shows the first 10)")
	return cmd
}

// showRecord is a synset's record; the server answers with it too.
var showRecord = show.Synset

func runKBShow(opts *kbShowOptions, names []string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	b, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	ids, unknown := kbLookupSynsets(opts.globalOptions, b, names)
	for i, id := range ids {
		rec := showRecord(b, id)
		if opts.format == "json" {
			if err := jsonLines(opts.out).Encode(rec); err != nil {
				return err
			}
			continue
		}
		if i > 0 {
			fmt.Fprintln(opts.out)
		}
		show.WriteText(opts.out, b, id, rec, opts.all)
	}
	if unknown {
		return findings()
	}
	return nil
}
