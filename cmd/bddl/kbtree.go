package main

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/kb/show"
)

// ---------------------------------------------------------------------
// kb tree

type kbTreeOptions struct {
	*globalOptions
	format string
	depth  int
}

func newKBTreeCmd(g *globalOptions) *cobra.Command {
	opts := &kbTreeOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "tree SYNSET",
		Short: "Print the hierarchy below a synset",
		Long: `Print the hyponyms of SYNSET as an indented tree, each with its object type;
leaves are marked "(leaf)" and synsets cut off by --depth "...". A synset
with several hypernyms appears under each. --format json prints one record
per synset (name, type, leaf, parent, depth) in the same order.`,
		Example: `  bddl kb tree food.n.02
  bddl kb tree --depth 1 entity.n.01
  bddl kb tree container.n.01 --format json`,
		Args:              exactArgs(1, "a synset name, e.g. food.n.01"),
		ValidArgsFunction: completeSynsets(g),
		RunE:              func(_ *cobra.Command, args []string) error { return runKBTree(opts, args[0]) },
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	cmd.Flags().IntVar(&opts.depth, "depth", 0, "levels to print below SYNSET (0: all)")
	return cmd
}

func runKBTree(opts *kbTreeOptions, name string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	if opts.depth < 0 {
		return misuse("--depth must not be negative")
	}
	b, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	ids, unknown := kbLookupSynsets(opts.globalOptions, b, []string{name})
	if unknown {
		return findings()
	}
	return show.WriteTree(opts.out, show.Tree(b, ids[0], opts.depth), opts.format)
}
