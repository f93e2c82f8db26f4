package omnigibson

import (
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/spatial/r3"
)

// Offset estimation from resting objects.
//
// The files give each object's root link, and the knowledge base each
// model's bounding-box size, but not where the root link sits in that box
// (a table's root link can be near its top). A settled scene tells it:
// an upright object at rest lies on the object below it, so its box's
// bottom is at its support's top. For every upright object we take as
// support the highest box top at most restSlack above its root (its
// footprint holding the root's x, y, and not lying inside the object's
// own footprint, as a tray in a fridge or an egg in a basket does; with no object under it,
// the ground the robots start on), and the shift along the object's up axis that puts its bottom
// there; a model's offset is the median shift over its objects, in the
// model's unscaled frame. The root link lies in the object, so a shift
// larger than the object's half height (plus restSlack) means the support
// was misjudged and the object does not vote. Supports move as their own
// models' offsets are found, so the estimate is repeated a few times.

const (
	// restSlack is how far beyond the half height a shift may go: the
	// simulator's objects settle with small penetrations and gaps, and
	// thin objects carry the largest relative error.
	restSlack = 0.02
	// uprightCos is how close to vertical an object's up axis must be for
	// it to vote (about 18°).
	uprightCos   = 0.95
	offsetRounds = 4
)

// placed is a scene object as the estimator sees it.
type placed struct {
	model  int // dense id of the object's model
	root   r3.Vec
	base   Box     // the box with the offset known so far (exact, or none)
	scaleZ float64 // the model's z scale
	exact  bool    // the offset is known (dataset); it never changes
}

// inside reports whether box a, seen from above, lies in box b: its
// footprint inside b's shrunk by a centimetre on each side, or, when a's
// footprint is at most half of b's, mostly (by half its area) inside b's.
// Such a box is held by b (a tray in a fridge, an egg in a basket whose
// rim it leans over), so it cannot be b's support.
func inside(alo, ahi, blo, bhi r3.Vec) bool {
	const m = 0.01
	if alo.X >= blo.X+m && alo.Y >= blo.Y+m && ahi.X <= bhi.X-m && ahi.Y <= bhi.Y-m {
		return true
	}
	areaA := (ahi.X - alo.X) * (ahi.Y - alo.Y)
	areaB := (bhi.X - blo.X) * (bhi.Y - blo.Y)
	w := min(ahi.X, bhi.X) - max(alo.X, blo.X)
	d := min(ahi.Y, bhi.Y) - max(alo.Y, blo.Y)
	return areaA <= areaB/2 && w > 0 && d > 0 && w*d >= areaA/2
}

// estimateOffsets returns, per model id (< nModels), the offset of the
// box centre from the root link along the model's z axis, unscaled, and
// whether the model's objects voted; ground is the floor height when
// known.
func estimateOffsets(sc *scratch, objs []placed, nModels int, ground float64, hasGround bool) ([]float64, []bool) {
	dz := resize(sc.dz, nModels)
	has := resize(sc.has, nModels)
	clear(dz)
	clear(has)
	lo := resize(sc.lo, len(objs))
	hi := resize(sc.hi, len(objs))
	votes := resize(sc.votes, nModels)
	order := resize(sc.order, len(objs)) // by falling box top
	sc.dz, sc.has, sc.lo, sc.hi, sc.votes, sc.order = dz, has, lo, hi, votes, order
	for round := 0; round < offsetRounds; round++ {
		for i := range objs {
			o := &objs[i]
			b := o.base
			if !o.exact {
				b.Center = r3.Add(b.Center, r3.Scale(dz[o.model]*o.scaleZ, b.Axes[2]))
			}
			lo[i], hi[i] = b.Enclosing()
		}
		for m := range votes {
			votes[m] = votes[m][:0]
		}
		for k := range order {
			order[k] = k
		}
		sort.Slice(order, func(a, b int) bool { return hi[order[a]].Z > hi[order[b]].Z })
		for i := range objs {
			o := &objs[i]
			up := o.base.Axes[2]
			if o.exact || up.Z < uprightCos {
				continue
			}
			// The highest top at most restSlack above the root: scan the
			// boxes by falling top from there.
			top, found := math.Inf(-1), false
			limit := o.root.Z + restSlack
			for k := sort.Search(len(order), func(k int) bool { return hi[order[k]].Z <= limit }); k < len(order); k++ {
				j := order[k]
				if j == i || o.root.X < lo[j].X || o.root.X > hi[j].X || o.root.Y < lo[j].Y || o.root.Y > hi[j].Y {
					continue
				}
				if inside(lo[j], hi[j], lo[i], hi[i]) {
					continue // inside the object (a tray in a fridge), not under it
				}
				top, found = hi[j].Z, true
				break
			}
			if !found && hasGround && ground <= o.root.Z+restSlack {
				// Nothing under it: it stands on the ground.
				top, found = ground, true
			}
			if !found {
				continue
			}
			vh := o.base.VerticalHalf()
			bottom := o.base.Center.Z - vh // with no offset
			shift := (top - bottom) / up.Z
			if math.Abs(shift) > vh+restSlack {
				continue
			}
			votes[o.model] = append(votes[o.model], shift/o.scaleZ)
		}
		changed := false
		for m, v := range votes {
			if len(v) == 0 {
				continue
			}
			slices.Sort(v)
			if !has[m] || dz[m] != v[len(v)/2] {
				changed = true
			}
			dz[m], has[m] = v[len(v)/2], true
		}
		if !changed {
			break // a fixed point: the supports no longer move
		}
	}
	return dz, has
}

// scratch is the storage one conversion reuses from the last (a
// Converter keeps a pool of them, one per concurrent conversion).
type scratch struct {
	items  []sceneItem
	placed []placed
	dz     []float64
	has    []bool
	lo, hi []r3.Vec
	votes  [][]float64
	order  []int
}

// resize returns s with length n, reusing its storage when it can.
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
