package omnigibson

import (
	"math"

	"gonum.org/v1/gonum/spatial/r3"
)

// The error model of estimated boxes.
//
// Every box not placed by the dataset's exact offset carries how far it
// may be off (episode field box_error, predicates.State.SetBoxError), and
// a geometric atom is decided on it only beyond that error. The error
// comes from the evidence behind the box:
//
//   - a model whose objects voted (offsets.go): the votes' spread
//     (spreadK × their median absolute deviation, scaled), at least
//     errFloor, the penetrations and gaps of objects the simulator let
//     settle; one vote carries no spread and gets singleVote;
//   - a model with no vote keeps its box centred on the root link, which
//     may lie anywhere in the box: the error is centredFrac of the half
//     height;
//   - a size the inventory lacks (its category's median): sizeGuessFrac
//     of each half extent more;
//   - a model placed from one instance's state (settleMoved) whose
//     objects could have rested on an unsettled box above the support
//     taken: the height between the two (its ambiguity);
//   - the horizontal error is errFloor (the root link's horizontal offset
//     is not known; a support's footprint extended under a resting object
//     adds the extension).
//
// Then, per instance, what rests shows the estimate's error where it is
// (rest): a bound object at rest lies on what is under its centre. The
// boxes enclose the meshes, so an object whose box floats above the
// highest box under its centre is misplaced by at least that gap: within
// snapFrac of its height it is put down onto that box (it rests there),
// further its vertical error grows to the gap (unless a box shorter than a
// storey holds its centre, or a support at its bottom's height lies
// within reach of extendSupports). An object lying flat whose
// centre lies in a thin support's box (a dough in a baking sheet's box, a
// book in a desk mat's), its root link above the support's, rests on its
// top, whatever larger box holds both (an oven, a shelf). Sinking into a
// box is no evidence (a bowl's rim, a sofa's cushions rise around what
// they hold), but for a little into a solid fixture (sinkSnap).
// None of it reads the activity's literals.

const (
	errFloor      = 0.002
	spreadK       = 2.0
	singleVote    = 0.003
	centredFrac   = 0.1
	sizeGuessFrac = 0.25
	// snapFrac: the largest gap, as a fraction of the object's height
	// (at least restSlack), over which a floating object is put down.
	snapFrac = 0.5
	// thinSupport: the tallest box a flat object lying in it is taken to
	// lie on (a baking sheet, a tray, a mat), in metres; flatRatio: how
	// many times wider than tall, both ways, a flat object is.
	thinSupport = 0.05
	// rootSlack: how far below a thin support's root link a flat
	// object's may lie and still lie on it (a dough's root 2 mm above its
	// baking sheet's, a plate's 2.5 cm below the pie on it).
	rootSlack = 0.01
	// sinkSnap: how far an object may sink into a solid fixture's box
	// and be put back onto its top.
	sinkSnap    = 0.01
	flatRatio   = 2.0
	levelSlack  = 1.2
	besideSlack = 0.005
	// overShare: how much of a flat object's footprint must lie over a
	// thin support's for it to lie on it.
	overShare  = 0.8
	overLarger = 1.5
	// storey: a box at least this tall (a roof's, a building's) holds
	// whole rooms, not the objects lying in them.
	storey = 2.5
)

// modelError is the vertical error of a model's offset, unscaled, from
// the votes behind it; placedN are the votes settleMoved took in this
// instance.
func (c *Converter) modelError(m int, has []bool, placedN map[int]int) (float64, bool) {
	switch {
	case m < len(c.votes.n) && c.votes.n[m] > 1:
		// The median's error: spreadK standard errors, the votes'
		// deviation estimated robustly (1.4826 × their MAD).
		return spreadK * 1.4826 * c.votes.mad[m] / math.Sqrt(float64(c.votes.n[m])), true
	case m < len(c.votes.n) && c.votes.n[m] == 1, placedN[m] > 0:
		return 0, false // one vote: singleVote, in metres
	case m < len(has) && has[m]:
		return 0, false
	}
	return math.NaN(), false
}

// boxErrors gives every estimated box its error, before the instance's
// own evidence (rest). ambiguity is settleMoved's, per model, unscaled.
func (c *Converter) boxErrors(items []sceneItem, has []bool, placedN map[int]int, ambiguity map[int]float64) {
	for i := range items {
		it := &items[i]
		if !it.hasBox || it.exact {
			continue
		}
		vh := it.box.VerticalHalf()
		v := centredFrac * vh
		if c.opts.Offsets == OffsetsSupport {
			if e, multi := c.modelError(it.model, has, placedN); !math.IsNaN(e) {
				v = errFloor + e*it.obj.Scale[2]
				if !multi {
					v = singleVote
				}
			}
			v += ambiguity[it.model] * it.obj.Scale[2]
		}
		h := errFloor
		if it.sizeGuessed {
			h += sizeGuessFrac * max(it.box.Half.X, it.box.Half.Y)
			v += sizeGuessFrac * vh
		}
		it.errH, it.errV = max(it.errH, h), max(it.errV, v)
	}
}

// rest applies the instance's evidence of rest to the bound objects
// (doc above), after their boxes are placed and before supports are
// extended under them.
func rest(items []sceneItem, ground float64, hasGround bool) {
	type encl struct{ lo, hi r3.Vec }
	boxes := make([]encl, len(items))
	for j := range items {
		if items[j].hasBox {
			boxes[j].lo, boxes[j].hi = items[j].box.Enclosing()
		}
	}
	for i := range items {
		it := &items[i]
		if it.instKey == "" || !it.hasBox || it.exact || it.obj.FixedBase ||
			(it.state.HasAttached && it.state.AttachedUUID >= 0) {
			continue
		}
		c := it.box.Center
		lo, hi := boxes[i].lo, boxes[i].hi
		height := hi.Z - lo.Z
		flat := hi.X-lo.X > flatRatio*height && hi.Y-lo.Y > flatRatio*height
		top, found, enclosed := math.Inf(-1), false, false
		sunk := false
		fixture := false // what gave top is a solid fixture (or the ground)
		thin := -1
		for j := range items {
			s := &items[j]
			if j == i || !s.hasBox {
				continue
			}
			b := boxes[j]
			if c.X < b.lo.X || c.X > b.hi.X || c.Y < b.lo.Y || c.Y > b.hi.Y {
				continue
			}
			switch {
			case b.hi.Z <= c.Z:
				if t := surfaceUnder(&s.box, b.hi.Z, &it.box, lo.Z); t > top {
					top, found = t, true
					fixture = s.obj.FixedBase && !s.container && s.box.Axes[2].Z >= uprightCos
				}
			case b.lo.Z <= c.Z:
				// A level thin support: its enclosure no taller than its
				// box by more than levelSlack (a tilted tray's is).
				// Lying on it: its footprint mostly over the support's,
				// which is the larger, its bottom not below the
				// support's (beyond the boxes' slack) and its root link
				// above the support's (a plate level with a pie's box
				// bottom, its root lower, holds the pie).
				if flat && it.box.Axes[2].Z >= uprightCos && b.hi.Z-b.lo.Z <= thinSupport &&
					b.hi.Z-b.lo.Z <= 2*s.box.Half.Z*levelSlack && lo.Z > b.lo.Z-besideSlack && it.state.Pos[2] > s.state.Pos[2]-rootSlack && over(lo, hi, b.lo, b.hi) && !inside(b.lo, b.hi, lo, hi) {
					thin = j
				} else if b.hi.Z-b.lo.Z < storey {
					// A box around its centre holds it (a shelf, a
					// basket, a fridge); a roof's or a room's box,
					// taller than a storey, holds the table it lies on
					// too.
					enclosed = true
				}
				// Its root link above a solid fixture's top, its box's
				// centre below it: the box is not where the object is.
				if root := it.state.Pos; s.obj.FixedBase && !s.container && s.box.Axes[2].Z >= uprightCos &&
					root[2] > b.hi.Z && root[0] >= b.lo.X && root[0] <= b.hi.X && root[1] >= b.lo.Y && root[1] <= b.hi.Y {
					sunk = true
				}
			}
		}
		if sunk {
			// It holds its root link, so may lie anywhere around it.
			r := it.state.Pos
			it.errV = max(it.errV, math.Abs(c.Z-r[2])+(hi.Z-lo.Z)/2)
			it.errH = max(it.errH, math.Abs(c.X-r[0])+(hi.X-lo.X)/2, math.Abs(c.Y-r[1])+(hi.Y-lo.Y)/2)
			continue // nothing below tells where it is
		}
		if hasGround && ground <= c.Z && ground > top {
			top, found, fixture = ground, true, true
		}
		switch {
		case thin >= 0:
			// Lying flat in a thin support's box: on its top.
			shiftUp(it, boxes[thin].hi.Z-lo.Z)
		case !found:
		default:
			gap := lo.Z - top
			switch {
			case gap <= 0 && gap >= -sinkSnap && fixture:
				// Sunk a little into a solid fixture (a countertop, a
				// floor), no rim or cushion around it: it rests on its
				// top, like one floating a little above it.
				shiftUp(it, -gap)
				it.errV = errFloor
			case gap <= 0:
				// Sinking into a box is no evidence against the estimate
				// (rims and cushions rise around what they hold), and
				// none for it either.
			case gap <= max(restSlack, snapFrac*height):
				// At rest on the box under it: its place relative to
				// that box is known; its own offset no longer counts.
				shiftUp(it, -gap)
				it.errV = errFloor
			case !enclosed && !nearSupport(items, i, c, lo.Z):
				// In a box that holds it (a shelf, a basket), what is
				// under its centre need not be what it rests on; beside
				// a support at its bottom's height, it rests on that
				// (extendSupports reaches under it). Beside a box
				// spanning its bottom's height, it may lie on something
				// in that box (a desk's shelf board) whose edge the box
				// does not show: its horizontal error reaches that box.
				it.errV = max(it.errV, gap)
				if d, ok := besideBox(items, i, c, lo.Z); ok {
					it.errH = max(it.errH, d+errFloor)
				}
			}
		}
	}
}

// surfaceUnder is where a box whose lowest point is at aLo, lowered
// straight down, meets an upright support's top face: the support's
// enclosure top hi, less where the face slopes away under a (a desk
// tilted by a fraction of a degree is millimetres lower at one end of
// its top than its enclosure, and what rests there touches the face).
func surfaceUnder(s *Box, hi float64, a *Box, aLo float64) float64 {
	if s.Axes[2].Z < uprightCos {
		return hi
	}
	top := math.Inf(-1)
	for _, p := range a.Corners() {
		top = max(top, topFaceAt(s, p[0], p[1])-(p[2]-aLo))
	}
	return min(top, hi)
}

// faceTop is the top of a support whose enclosure's top is hi at x, y:
// its top face there when it is upright (a fixture tilted by a fraction
// of a degree is lower there than its enclosure's top).
func faceTop(s *Box, hi, x, y float64) float64 {
	if s.Axes[2].Z < uprightCos {
		return hi
	}
	return min(hi, topFaceAt(s, x, y))
}

// topFaceAt is the height of an upright box's top face (its plane) at
// x, y.
func topFaceAt(s *Box, x, y float64) float64 {
	n := s.Axes[2]
	p0 := r3.Add(s.Center, r3.Scale(s.Half.Z, n))
	return p0.Z - (n.X*(x-p0.X)+n.Y*(y-p0.Y))/n.Z
}

// shiftUp moves an item's box up by dz (down when negative).
func shiftUp(it *sceneItem, dz float64) {
	it.box.Center.Z += dz
}

// over reports whether footprints a and b overlap by overShare of the
// smaller, a not much the larger (a dough about the size of its sheet).
func over(alo, ahi, blo, bhi r3.Vec) bool {
	areaA := (ahi.X - alo.X) * (ahi.Y - alo.Y)
	areaB := (bhi.X - blo.X) * (bhi.Y - blo.Y)
	w := min(ahi.X, bhi.X) - max(alo.X, blo.X)
	d := min(ahi.Y, bhi.Y) - max(alo.Y, blo.Y)
	return areaA <= overLarger*areaB && w > 0 && d > 0 && w*d >= overShare*min(areaA, areaB)
}
