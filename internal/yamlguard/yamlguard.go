// Package yamlguard bounds YAML alias expansion. A document parsed into a
// yaml.Node keeps its aliases, but every walk or Decode of the tree
// expands them: nine levels of ten aliases each are 10^9 nodes from a few
// hundred bytes (the "billion laughs"). yaml.v3's own guard applies only
// to decoding into Go values, and allows millions of nodes first. Check
// counts the nodes of the tree as expanded, each anchor counted once, and
// refuses a document past a limit before anything walks it.
package yamlguard

import (
	"fmt"

	"gopkg.in/yaml.v3"
)

// DefaultLimit is the expanded nodes a document may have: far more than
// any map or knowledge-base file of this project holds, far less than
// what would cost memory.
const DefaultLimit = 1 << 22

// Check returns an error naming name and the line of the alias that takes
// the expanded document past limit nodes.
func Check(name string, doc *yaml.Node, limit int) error {
	memo := map[*yaml.Node]int{}
	var size func(n *yaml.Node, depth int) (int, error)
	size = func(n *yaml.Node, depth int) (int, error) {
		if n == nil {
			return 0, nil
		}
		if depth > 10000 {
			return 0, fmt.Errorf("%s:%d: YAML nested more than 10000 levels deep", name, n.Line)
		}
		if v, ok := memo[n]; ok {
			if v < 0 {
				return 0, fmt.Errorf("%s:%d: YAML alias refers to itself", name, n.Line)
			}
			return v, nil
		}
		memo[n] = -1
		total := 1
		if n.Kind == yaml.AliasNode {
			s, err := size(n.Alias, depth+1)
			if err != nil {
				return 0, err
			}
			total += s
		}
		for _, c := range n.Content {
			s, err := size(c, depth+1)
			if err != nil {
				return 0, err
			}
			total += s
			if total > limit {
				break
			}
		}
		if total > limit {
			return 0, fmt.Errorf("%s:%d: YAML aliases expand to more than %d nodes (refused: an alias bomb?)", name, n.Line, limit)
		}
		memo[n] = total
		return total, nil
	}
	_, err := size(doc, 0)
	return err
}
