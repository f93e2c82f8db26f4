package omnigibson

import (
	"math"
	"slices"
	"sort"

	"gonum.org/v1/gonum/spatial/r3"
)

// Offset estimation from the scene's own geometry.
//
// The files give each object's root link, and the knowledge base each
// model's bounding-box size, but not where the root link sits in that box
// (OmniGibson keeps it per model as the USD attribute ig:offsetBaseLink,
// objects/dataset_object.py, scaled_bbox_center_in_base_frame; a table's
// root link can sit near its top). A settled scene tells it, from three
// kinds of evidence, none of them the activity's literals:
//
//   - the ground: robots start standing on the floor, so the object under
//     a robot's start position whose box spans the robot's height is the
//     floor and its top is there; a flat object (groundCoverRatio) whose
//     box, centred on its root link, spans the ground is part of it too
//     (a floor slab, a lawn, paving), so its top is the ground as well;
//   - supports: an upright object at rest lies on the object below it, so
//     its box's bottom is at its support's top. The support is the
//     highest box top at most restSlack above the object's root link (the
//     root lies in the object, so nothing above it can hold it up) and no
//     lower than the object's height below it, whose footprint holds the
//     root's x, y and does not lie inside the object's own footprint (a
//     tray in a fridge, an egg in a basket is held by the object, it does
//     not hold it); the ground the robots stand on is a support for what
//     stands on it;
//   - the model recurs: a model's offset is the median of its objects'
//     votes, in the model's unscaled frame, and holds for every object of
//     the model.
//
// Supports move as their own models' offsets are found, so a vote is
// only taken once its support is settled: the ground first, then what
// stands on it, then what lies on that, round by round (the highest
// candidate support still unsettled makes an object wait). A model with
// no vote keeps its box centred on the root link. A shift larger than the
// object's half height (plus restSlack) would put the root link outside
// the box: the support was misjudged and the object does not vote.

const (
	// restSlack is how far beyond the half height a shift may go: the
	// simulator's objects settle with small penetrations and gaps, and
	// thin objects carry the largest relative error.
	restSlack = 0.02
	// uprightCos is how close to vertical an object's up axis must be for
	// it to vote (about 18°).
	uprightCos = 0.95
	// offsetRounds bounds the support rounds (the depth of a stack of
	// objects resting on each other).
	offsetRounds = 8
	// groundCoverRatio: how many times wider than tall, both ways, an
	// object spanning the ground level must be to be taken for part of
	// the ground.
	groundCoverRatio = 4
	// robotLevels: how far above the lowest robot start pose another
	// robot's root link may be and still stand on the same ground.
	robotLevels = 0.01
)

// placed is a scene object as the estimator sees it.
type placed struct {
	world  int // which scene it is in: supports are searched within it
	model  int // dense id of the object's model
	root   r3.Vec
	base   Box     // the box centred on the root link (or exact)
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

// voteStats are the evidence behind each model's offset: how many of
// its objects voted, and how far their votes spread (the median absolute
// deviation from the median, unscaled).
type voteStats struct {
	n   []int
	mad []float64
}

// estimateOffsets returns, per model id (< nModels), the offset of the
// box centre from the root link along the model's z axis, unscaled, and
// whether the model's objects voted. robots are the start poses of each
// world, the scene an object is in (placed.world; the ground is the
// lowest of them); a model's votes come from every world, its supports
// from its own. st, when not nil, receives the votes' statistics.
func estimateOffsets(objs []placed, nModels int, robots [][]RobotPose, st *voteStats) ([]float64, []bool) {
	if st != nil {
		st.n, st.mad = make([]int, nModels), make([]float64, nModels)
	}
	dz := make([]float64, nModels)
	settled := make([]bool, nModels)
	votes := make([][]float64, nModels)
	boxes := make([]Box, len(objs)) // as placed
	lo := make([]r3.Vec, len(objs))
	hi := make([]r3.Vec, len(objs))
	order := make([]int, len(objs)) // by falling box top
	grounds := make([]float64, len(robots))
	hasGrounds := make([]bool, len(robots))
	for w, rs := range robots {
		grounds[w], hasGrounds[w] = groundLevel(rs)
	}
	groundOf := func(i int) (float64, bool) {
		if w := objs[i].world; w < len(grounds) {
			return grounds[w], hasGrounds[w]
		}
		return 0, false
	}

	// shiftTo is the vote that puts object i's box top (or bottom) at z.
	shiftTo := func(i int, z float64, top bool) (float64, bool) {
		o := &objs[i]
		up := o.base.Axes[2]
		if o.exact || up.Z < uprightCos {
			return 0, false
		}
		vh := o.base.VerticalHalf()
		edge := o.base.Center.Z - vh
		if top {
			edge = o.base.Center.Z + vh
		}
		shift := (z - edge) / up.Z
		if math.Abs(shift) > vh+restSlack {
			return 0, false
		}
		return shift / o.scaleZ, true
	}
	settle := func() bool {
		changed := false
		for m, v := range votes {
			if len(v) == 0 || settled[m] {
				continue
			}
			slices.Sort(v)
			dz[m], settled[m], changed = v[len(v)/2], true, true
			if st != nil {
				st.n[m], st.mad[m] = len(v), medianDeviation(v, dz[m])
			}
		}
		for m := range votes {
			votes[m] = votes[m][:0]
		}
		return changed
	}
	place := func() {
		for i := range objs {
			o := &objs[i]
			b := o.base
			if !o.exact {
				b.Center = r3.Add(b.Center, r3.Scale(dz[o.model]*o.scaleZ, b.Axes[2]))
			}
			boxes[i] = b
			lo[i], hi[i] = b.Enclosing()
		}
		for k := range order {
			order[k] = k
		}
		sort.Slice(order, func(a, b int) bool { return hi[order[a]].Z > hi[order[b]].Z })
	}

	// groundVote: the object under robot pose r of world w whose box
	// spans the robot's height is the ground there; its top is the pose's.
	groundVote := func(w int, r RobotPose) {
		best, bestGap := -1, math.Inf(1)
		for i := range objs {
			if objs[i].world != w || r.Pos[0] < lo[i].X || r.Pos[0] > hi[i].X || r.Pos[1] < lo[i].Y || r.Pos[1] > hi[i].Y ||
				r.Pos[2] < lo[i].Z-restSlack || r.Pos[2] > hi[i].Z+restSlack {
				continue
			}
			if g := math.Abs(hi[i].Z - r.Pos[2]); g < bestGap {
				best, bestGap = i, g
			}
		}
		if best >= 0 {
			// Robots' root links sit a few millimetres above the floor,
			// each model its own (0 to 6 mm in the shared templates):
			// one within robotLevels of the lowest stands on the same
			// ground.
			z := r.Pos[2]
			if hasGrounds[w] && z-grounds[w] <= robotLevels {
				z = grounds[w]
			}
			if s, ok := shiftTo(best, z, true); ok {
				votes[objs[best].model] = append(votes[objs[best].model], s)
			}
		}
	}

	// The ground: what the robots stand on, and what lies below it.
	place()
	for w, rs := range robots {
		for _, r := range rs {
			groundVote(w, r)
		}
	}
	for i := range objs {
		// Ground cover (a floor slab, a lawn, paving): flat, wider
		// than groundCoverRatio times its height both ways, its box
		// (centred) reaching below and above the ground.
		ground, hasGround := groundOf(i)
		h := hi[i].Z - lo[i].Z
		if hasGround && lo[i].Z < ground-restSlack && hi[i].Z > ground-restSlack &&
			hi[i].X-lo[i].X > groundCoverRatio*h && hi[i].Y-lo[i].Y > groundCoverRatio*h {
			if s, ok := shiftTo(i, ground, true); ok {
				votes[objs[i].model] = append(votes[objs[i].model], s)
			}
		}
	}
	settle()

	// Supports, round by round.
	relaxed := false
	for round := 0; round < offsetRounds; round++ {
		place()
		waiting := false
		for i := range objs {
			o := &objs[i]
			if o.exact || settled[o.model] || o.base.Axes[2].Z < uprightCos {
				continue
			}
			ground, hasGround := groundOf(i)
			limit := o.root.Z + restSlack
			lowest := o.root.Z - 2*o.base.VerticalHalf() - restSlack
			top, found, ready := math.Inf(-1), false, true
			for k := sort.Search(len(order), func(k int) bool { return hi[order[k]].Z <= limit }); k < len(order); k++ {
				j := order[k]
				if hi[j].Z < lowest {
					break
				}
				if j == i || objs[j].world != o.world || o.root.X < lo[j].X || o.root.X > hi[j].X || o.root.Y < lo[j].Y || o.root.Y > hi[j].Y {
					continue
				}
				if inside(lo[j], hi[j], lo[i], hi[i]) {
					continue // held by the object (a tray in a fridge), not under it
				}
				top, found = faceTop(&boxes[j], hi[j].Z, o.root.X, o.root.Y), true
				ready = objs[j].exact || settled[objs[j].model] || relaxed
				break
			}
			if hasGround && o.root.Z >= ground-restSlack && ground >= lowest && ground > top {
				top, found, ready = ground, true, true // it stands on the ground
			}
			if !found {
				continue
			}
			if !ready {
				waiting = true
				continue
			}
			if s, ok := shiftTo(i, top, false); ok {
				votes[o.model] = append(votes[o.model], s)
			}
		}
		changed := settle()
		switch {
		case changed:
			relaxed = false
		case waiting && !relaxed:
			relaxed = true // a cycle of unsettled supports: take them as they are
		default:
			return dz, settled
		}
	}
	return dz, settled
}

// medianDeviation is the median of |v - m|.
func medianDeviation(v []float64, m float64) float64 {
	d := make([]float64, len(v))
	for i, x := range v {
		d[i] = math.Abs(x - m)
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// scratch is the storage one conversion reuses from the last (a
// Converter keeps a pool of them, one per concurrent conversion).
type scratch struct {
	items []sceneItem
}

// settleMoved estimates, from one instance's own state, the offsets of
// the models of bound objects the template gave no vote (an object that
// sat inside a container in the template may rest on a table in the
// instance): each such upright object votes with its highest settled
// support, as estimateOffsets does, and a model's offset for this
// instance is the median of its objects' votes. It returns, per model it
// placed, the number of votes and their ambiguity: how far above the
// support taken the top of an unsettled box lay that could have held the
// object instead (a baking sheet sampled with the dough on it, its own
// offset unknown): the vote cannot tell which of the two the object rests
// on, so the box may be off by that much.
func settleMoved(items []sceneItem, has []bool, ground float64, hasGround bool) (map[int]int, map[int]float64) {
	votes := map[int][]float64{}
	ambiguity := map[int]float64{}
	for i := range items {
		it := &items[i]
		if it.instKey == "" || !it.hasBox || it.exact || has[it.model] || it.box.Axes[2].Z < uprightCos {
			continue
		}
		root := vec(it.state.Pos)
		vh := it.box.VerticalHalf()
		limit, lowest := root.Z+restSlack, root.Z-2*vh-restSlack
		ilo, ihi := it.box.Enclosing()
		top, found := math.Inf(-1), false
		unsettled := math.Inf(-1) // the highest unsettled box that could hold it
		for j := range items {
			s := &items[j]
			if j == i || !s.hasBox {
				continue
			}
			lo, hi := s.box.Enclosing()
			if hi.Z > limit || hi.Z < lowest ||
				root.X < lo.X || root.X > hi.X || root.Y < lo.Y || root.Y > hi.Y || inside(lo, hi, ilo, ihi) {
				continue
			}
			if !(s.exact || has[s.model]) {
				unsettled = max(unsettled, hi.Z)
				continue
			}
			top, found = max(top, faceTop(&s.box, hi.Z, root.X, root.Y)), true
		}
		if hasGround && root.Z >= ground-restSlack && ground >= lowest && ground > top {
			top, found = ground, true
		}
		if !found {
			continue
		}
		if unsettled > top {
			ambiguity[it.model] = max(ambiguity[it.model], (unsettled-top)/it.obj.Scale[2])
		}
		shift := (top - (it.box.Center.Z - vh)) / it.box.Axes[2].Z
		if math.Abs(shift) > vh+restSlack {
			continue
		}
		votes[it.model] = append(votes[it.model], shift/it.obj.Scale[2])
	}
	placedN := make(map[int]int, len(votes))
	for m, v := range votes {
		placedN[m] = len(v)
		slices.Sort(v)
		dz := v[len(v)/2]
		for i := range items {
			if it := &items[i]; it.model == m && it.hasBox && !it.exact {
				it.box.Center = r3.Add(it.box.Center, r3.Scale(dz*it.obj.Scale[2], it.box.Axes[2]))
			}
		}
	}
	return placedN, ambiguity
}
