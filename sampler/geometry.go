package sampler

import (
	"math"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// The kinematic tests on boxes, as package predicates decides them for a
// state with axis-aligned boxes (SEMANTICS.md A4), so that placement can
// check a candidate spot before the whole state is verified by the
// evaluator itself. The final verification is the evaluator's: a
// difference between the two shows up as an internal failure there.

const geomEps = 1e-9

type geometry struct {
	touch, vertical, horizontal, nextRatio, overlap, stand float64
	rays                                                   [][2]float64
}

func newGeometry(o predicates.Options) geometry {
	g := o.Geometry
	def := func(v, d float64) float64 {
		if v == 0 || math.IsNaN(v) {
			return d
		}
		return v
	}
	n := g.HorizontalRays
	if n <= 0 {
		n = predicates.DefaultHorizontalRays
	}
	geo := geometry{
		touch:      def(g.TouchTolerance, predicates.DefaultTouchTolerance),
		vertical:   def(g.VerticalRange, predicates.DefaultVerticalRange),
		horizontal: def(g.HorizontalRange, predicates.DefaultHorizontalRange),
		nextRatio:  def(g.NextToRatio, predicates.DefaultNextToRatio),
		overlap:    def(g.OverlapFraction, predicates.DefaultOverlapFraction),
		stand:      def(g.StandTolerance, predicates.DefaultStandTolerance),
	}
	for k := 0; k < n; k++ {
		th := 2 * math.Pi * float64(k) / float64(n)
		geo.rays = append(geo.rays, [2]float64{math.Cos(th), math.Sin(th)})
	}
	return geo
}

func boxGap(a, b predicates.Box) float64 {
	var s float64
	for k := 0; k < 3; k++ {
		g := max(0, max(a.Min[k], b.Min[k])-min(a.Max[k], b.Max[k]))
		s += g * g
	}
	return math.Sqrt(s)
}

// verticalHit: does the vertical ray from a's centre (up or down) meet b?
func (g *geometry) verticalHit(a, b predicates.Box, upward bool) bool {
	c := a.Center()
	if c[0] < b.Min[0]-geomEps || c[0] > b.Max[0]+geomEps || c[1] < b.Min[1]-geomEps || c[1] > b.Max[1]+geomEps {
		return false
	}
	lo, hi := c[2], c[2]+g.vertical
	if !upward {
		lo, hi = c[2]-g.vertical, c[2]
	}
	return b.Max[2] >= lo-geomEps && b.Min[2] <= hi+geomEps
}

func (g *geometry) horizontalHit(a, b predicates.Box) bool {
	c := a.Center()
	if c[2] < b.Min[2]-geomEps || c[2] > b.Max[2]+geomEps {
		return false
	}
	for _, d := range g.rays {
		tmin, tmax := 0.0, g.horizontal
		hit := true
		for k := 0; k < 2; k++ {
			lo, hi := b.Min[k]-geomEps, b.Max[k]+geomEps
			if math.Abs(d[k]) < 1e-12 {
				if c[k] < lo || c[k] > hi {
					hit = false
					break
				}
				continue
			}
			t1, t2 := (lo-c[k])/d[k], (hi-c[k])/d[k]
			if t1 > t2 {
				t1, t2 = t2, t1
			}
			tmin, tmax = max(tmin, t1), min(tmax, t2)
			if tmin > tmax {
				hit = false
				break
			}
		}
		if hit {
			return true
		}
	}
	return false
}

// verticalPair is the evaluator's (verticalPair in
// predicates/pred_kinematic.go): whether b is below and whether above a,
// by vertical rays from a's centre; where a's centre lies inside b's box
// both rays start inside it, and a is taken to stand beneath b when its
// bottom is at b's, else to rest in or on b, unless b is an enclosure.
func (g *geometry) verticalPair(a, b predicates.Box, enclosure bool) (below, above bool) {
	below, above = g.verticalHit(a, b, false), g.verticalHit(a, b, true)
	if !(below && above) || enclosure {
		return below, above
	}
	c := a.Center()
	for k := 0; k < 3; k++ {
		if c[k] < b.Min[k] || c[k] > b.Max[k] {
			return below, above
		}
	}
	if a.Min[2] <= b.Min[2]+g.stand {
		return false, true
	}
	return true, false
}

// holds decides a kinematic predicate over two boxes; enclosure says
// whether b is openable (a fridge, a cabinet), which decides ontop and
// under where a's centre lies inside b's box.
func (g *geometry) holds(pred string, a, b predicates.Box, enclosure bool) bool {
	switch pred {
	case "touching":
		return boxGap(a, b) <= g.touch
	case "ontop":
		below, above := g.verticalPair(a, b, enclosure)
		return boxGap(a, b) <= g.touch && below && !above
	case "under":
		below, above := g.verticalPair(a, b, enclosure)
		return above && !below && !g.verticalHit(b, a, true)
	case "nextto":
		ea, eb := a.Extent(), b.Extent()
		if boxGap(a, b) > g.nextRatio*(ea[0]+ea[1]+ea[2]+eb[0]+eb[1]+eb[2]) {
			return false
		}
		return g.horizontalHit(a, b) || g.horizontalHit(b, a)
	case "inside":
		c := a.Center()
		for k := 0; k < 3; k++ {
			if c[k] < b.Min[k]-geomEps || c[k] > b.Max[k]+geomEps {
				return false
			}
		}
		return true
	case "overlaid":
		if boxGap(a, b) > g.touch {
			return false
		}
		eb := b.Extent()
		area := eb[0] * eb[1]
		w := min(a.Max[0], b.Max[0]) - max(a.Min[0], b.Min[0])
		d := min(a.Max[1], b.Max[1]) - max(a.Min[1], b.Min[1])
		return area > 0 && w > 0 && d > 0 && w*d/area > g.overlap
	case "draped":
		return boxGap(a, b) <= g.touch && a.Center()[2] < b.Max[2]
	}
	return true
}

// literalsHold checks every kinematic literal between object i and the
// objects already placed. attached is a recorded pointer, not geometry.
// enclosure reports whether instance i is openable, as the evaluator
// decides ontop and under inside its box.
func (pl *plan) enclosure(i int) bool {
	syn := pl.inst[i].syn
	return syn != kb.NoSynset && pl.s.base.Has(syn, kb.Openable)
}

func (pl *plan) literalsHold(i int) bool {
	for _, k := range pl.bySub[i] {
		l := &pl.lits[k]
		if l.b < 0 || !isKinematic(l.name) || l.name == "attached" || l.name == "onfloor" {
			continue
		}
		a, b := &pl.inst[l.a], &pl.inst[l.b]
		if !a.placed || !b.placed {
			continue
		}
		v := a.exists && b.exists && l.a != l.b && pl.geo.holds(l.name, a.box, b.box, pl.enclosure(l.b))
		if v == l.neg {
			return false
		}
	}
	return true
}
