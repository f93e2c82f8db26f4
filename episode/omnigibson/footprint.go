package omnigibson

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// Footprints from resting objects.
//
// The reference decides ontop by a ray cast down from the object's box
// centre onto its support's meshes (object_states/adjacency.py,
// VerticalAdjacency). An object at rest has a support under that centre;
// when no box at its bottom's height holds its centre, the box of the
// nearest one there is misplaced sideways (its root link is not the centre
// of its footprint either, and the files do not say by how much: floors,
// lawns and countertops show it). That box is extended towards the centre,
// by at most maxExtend of its own extent on each axis, so that the ray
// meets it as the simulator's did. The evidence is where the object rests,
// never the activity's literals, and an extended box is approximate like
// every estimated one.

// maxExtend is the largest extension of a support's footprint, as a
// fraction of its extent along that axis; groundExtend that of ground
// cover (a flat object whose top is the ground: floors, lawns, paving,
// which tile a garden or a house in overlapping patches). Every patch of
// ground cover within reach is extended, as the reference's downward ray
// meets every mesh under the object, not only the nearest.
const (
	// besideReach: how far from a box an object's centre may lie for
	// the object to be taken to lie on something in that box.
	besideReach  = 0.05
	maxExtend    = 0.15
	groundExtend = 0.25
	extendMargin = 0.01
)

// restingOn is one object to find a support for: its box centre and
// bottom height.
type restingOn struct {
	center r3.Vec
	bottom float64
	self   int // its index in items, -1 for the agent
}

// extendSupports extends the footprints of the supports under the resting
// objects (the bound ones and the agent) whose centre no support's
// footprint holds.
func extendSupports(items []sceneItem, agent *Box, ground float64, hasGround bool) {
	var rest []restingOn
	for i := range items {
		it := &items[i]
		if it.instKey == "" || !it.hasBox || it.obj.FixedBase {
			continue
		}
		lo, _ := it.box.Enclosing()
		rest = append(rest, restingOn{center: it.box.Center, bottom: lo.Z, self: i})
	}
	if agent != nil {
		lo, _ := agent.Enclosing()
		rest = append(rest, restingOn{center: agent.Center, bottom: lo.Z, self: -1})
	}
	if len(rest) == 0 {
		return
	}
	// The candidate supports: upright boxes, with their enclosures.
	type cand struct {
		j      int
		lo, hi r3.Vec
	}
	cands := make([]cand, 0, len(items))
	for j := range items {
		if s := &items[j]; s.hasBox && s.box.Axes[2].Z >= uprightCos {
			lo, hi := s.box.Enclosing()
			cands = append(cands, cand{j, lo, hi})
		}
	}
	for _, r := range rest {
		best, bestD := -1, math.Inf(1)
		var bestEx [2]float64
		held := false
		for k := range cands {
			j, lo, hi := cands[k].j, cands[k].lo, cands[k].hi
			if j == r.self || math.Abs(hi.Z-r.bottom) > restSlack {
				continue
			}
			s := &items[j]
			d := r3.Sub(r.center, s.box.Center)
			ex := [2]float64{math.Abs(r3.Dot(d, s.box.Axes[0])) - s.box.Half.X, math.Abs(r3.Dot(d, s.box.Axes[1])) - s.box.Half.Y}
			if ex[0] <= 0 && ex[1] <= 0 {
				held = true
				continue
			}
			h := hi.Z - lo.Z
			if hasGround && math.Abs(hi.Z-ground) <= restSlack && hi.X-lo.X > groundCoverRatio*h && hi.Y-lo.Y > groundCoverRatio*h {
				if ex[0] <= groundExtend*2*s.box.Half.X && ex[1] <= groundExtend*2*s.box.Half.Y {
					extendBox(&s.box, r.center, ex) // ground cover
				}
				continue
			}
			if ex[0] > maxExtend*2*s.box.Half.X || ex[1] > maxExtend*2*s.box.Half.Y {
				continue
			}
			if dist := math.Hypot(max(ex[0], 0), max(ex[1], 0)); dist < bestD {
				best, bestD, bestEx = j, dist, ex
			}
		}
		if held || best < 0 {
			continue
		}
		extendBox(&items[best].box, r.center, bestEx)
	}
}

// extendBox moves the sides of b that face p out past p by extendMargin,
// keeping the opposite sides where they are: the support reaches under
// the resting object's centre, and the margin keeps that evidence clear of
// the boxes' horizontal error (uncertainty.go).
func extendBox(b *Box, p r3.Vec, ex [2]float64) {
	const margin = extendMargin
	d := r3.Sub(p, b.Center)
	for k := 0; k < 2; k++ {
		if ex[k] <= 0 {
			continue
		}
		ax := b.Axes[k]
		side := math.Copysign(1, r3.Dot(d, ax))
		grow := ex[k] + margin
		if k == 0 {
			b.Half.X += grow / 2
		} else {
			b.Half.Y += grow / 2
		}
		b.Center = r3.Add(b.Center, r3.Scale(side*grow/2, ax))
	}
}

// nearSupport reports whether an upright box other than items[self] has
// its top within restSlack of bottom and a footprint that, extended as
// extendSupports may extend it, holds c: the object rests on it, though
// no box holds its centre yet.
func nearSupport(items []sceneItem, self int, c r3.Vec, bottom float64) bool {
	for j := range items {
		s := &items[j]
		if j == self || !s.hasBox || s.box.Axes[2].Z < uprightCos {
			continue
		}
		if _, hi := s.box.Enclosing(); math.Abs(hi.Z-bottom) > restSlack {
			continue
		}
		d := r3.Sub(c, s.box.Center)
		ex := [2]float64{math.Abs(r3.Dot(d, s.box.Axes[0])) - s.box.Half.X, math.Abs(r3.Dot(d, s.box.Axes[1])) - s.box.Half.Y}
		if ex[0] <= groundExtend*2*s.box.Half.X && ex[1] <= groundExtend*2*s.box.Half.Y {
			return true
		}
	}
	return false
}

// besideBox is the horizontal distance from c to the nearest footprint of
// a box other than items[self] that spans the height z and lies within
// besideReach of c.
func besideBox(items []sceneItem, self int, c r3.Vec, z float64) (float64, bool) {
	best, found := math.Inf(1), false
	for j := range items {
		s := &items[j]
		if j == self || !s.hasBox {
			continue
		}
		lo, hi := s.box.Enclosing()
		if z < lo.Z || z > hi.Z {
			continue
		}
		dx := max(lo.X-c.X, 0, c.X-hi.X)
		dy := max(lo.Y-c.Y, 0, c.Y-hi.Y)
		if d := math.Hypot(dx, dy); d <= besideReach && d < best {
			best, found = d, true
		}
	}
	return best, found
}
