package sampler

import (
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// fitNeed is an object that found no room in or on a container or
// support (by instance name) at its model's size: the relation and the
// object's size. A swap for another container prefers one it fits.
type fitNeed struct {
	container string
	rel       string
	size      [3]float64
}

// fitsAll reports whether every need fits a container or support of
// synset syn with this box, each alone: inside, its footprint within the
// inner box at yaw 0° or 90° and its height within the inner height; on
// top, its footprint within the top face. Other relations do not depend
// on the size in this way and always fit.
func fitsAll(b *kb.Base, syn kb.SynsetID, box predicates.Box, needs []fitNeed) bool {
	for _, n := range needs {
		var e [3]float64
		switch n.rel {
		case "inside":
			e = innerOfBox(b, syn, box).Extent()
		case "ontop":
			e = box.Extent()
			e[2] = n.size[2] // the height does not matter on top
		default:
			continue
		}
		s := n.size
		if s[2] > e[2] || !(s[0] <= e[0] && s[1] <= e[1] || s[1] <= e[0] && s[0] <= e[1]) {
			return false
		}
	}
	return true
}
