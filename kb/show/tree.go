package show

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"

	"github.com/openbddl/bddl/kb"
)

// Node is a node of the hierarchy below a synset; its JSON form is one
// flat record per line, in the order of the text output, with its parent
// and depth.
type Node struct {
	Name     string  `json:"name"`
	Type     string  `json:"type,omitempty"`
	Leaf     bool    `json:"leaf"`
	Parent   string  `json:"parent,omitempty"`
	Depth    int     `json:"depth"`
	Children []*Node `json:"-"`
}

// MaxDepth bounds the tree even for data with a cycle.
const MaxDepth = 64

// Tree is the hierarchy below id, depth levels deep (0 or more than
// MaxDepth: MaxDepth), children sorted by name. A synset with several
// hypernyms appears under each.
func Tree(b *kb.Base, id kb.SynsetID, depth int) *Node {
	limit := depth
	if limit <= 0 || limit > MaxDepth {
		limit = MaxDepth
	}
	var build func(id kb.SynsetID, level int) *Node
	build = func(id kb.SynsetID, level int) *Node {
		n := &Node{Name: b.Name(id), Type: b.ObjectType(id), Leaf: b.IsLeaf(id), Depth: level}
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
	return build(id, 0)
}

// WriteTree writes the tree below root: indented text, each node with its
// object type, leaves marked "(leaf)" and nodes cut off by the depth
// "..."; or, as format "json", one JSON record per node in the same
// order.
func WriteTree(w io.Writer, root *Node, format string) error {
	var err error
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	var write func(n *Node, indent string)
	write = func(n *Node, indent string) {
		if format == "json" {
			if e := enc.Encode(n); e != nil && err == nil {
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
				line += "  ..." // below the depth asked for
			}
			fmt.Fprintln(w, line)
		}
		for _, c := range n.Children {
			write(c, indent+"  ")
		}
	}
	write(root, "")
	return err
}
