package main

import (
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/kb"
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

// kbTreeNode is a node of kb tree; its JSON form is one flat record per
// line, in the order of the text output, with its parent and depth.
type kbTreeNode struct {
	Name     string        `json:"name"`
	Type     string        `json:"type,omitempty"`
	Leaf     bool          `json:"leaf"`
	Parent   string        `json:"parent,omitempty"`
	Depth    int           `json:"depth"`
	Children []*kbTreeNode `json:"-"`
}

// kbMaxTreeDepth bounds the tree even for data with a cycle.
const kbMaxTreeDepth = 64

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
	limit := opts.depth
	if limit == 0 || limit > kbMaxTreeDepth {
		limit = kbMaxTreeDepth
	}
	var build func(id kb.SynsetID, level int) *kbTreeNode
	build = func(id kb.SynsetID, level int) *kbTreeNode {
		n := &kbTreeNode{Name: b.Name(id), Type: b.ObjectType(id), Leaf: b.IsLeaf(id), Depth: level}
		if level < limit {
			kids := append([]kb.SynsetID(nil), b.Children(id)...)
			sort.Slice(kids, func(i, j int) bool { return b.Name(kids[i]) < b.Name(kids[j]) })
			for _, c := range kids {
				child := build(c, level+1)
				child.Parent = n.Name
				n.Children = append(n.Children, child)
			}
		}
		return n
	}
	root := build(ids[0], 0)
	err = nil
	var write func(n *kbTreeNode, indent string)
	write = func(n *kbTreeNode, indent string) {
		if opts.format == "json" {
			if e := kbWriteJSON(opts.out, n); e != nil && err == nil {
				err = e
			}
		} else {
			line := indent + n.Name
			if n.Type != "" {
				line += "  " + n.Type
			}
			switch {
			case n.Leaf:
				line += "  (leaf)"
			case len(n.Children) == 0:
				line += "  ..." // below --depth
			}
			fmt.Fprintln(opts.out, line)
		}
		for _, c := range n.Children {
			write(c, indent+"  ")
		}
	}
	write(root, "")
	return err
}
