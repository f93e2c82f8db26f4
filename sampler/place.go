package sampler

import (
	"math"
	"slices"
	"sort"

	"github.com/openbddl/bddl/internal/r3"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// Placement (SEMANTICS.md B §3.3 phases 6 and 9, without physics): each
// object not bound to a scene object is placed by one positive kinematic
// literal of which it is the first argument (its parent literal), parents
// first and larger objects first, at a random free spot with a random
// yaw, never overlapping anything already there except the containers it
// is in. Every other kinematic literal over placed objects, positive or
// negated, must hold at the chosen spot. Candidates come from the parent
// literal's region, first at random, then on a grid, so an object that
// fits anywhere is found.

const (
	clothThickness = 0.005 // an overlaid or draped cloth lying flat
	overlapEps     = 1e-6
	randomTries    = 24
	gridCells      = 16 // per axis, at most
	touchGap       = 0.005
)

// parentPriority orders the relations an object can be placed by.
var parentPriority = map[string]int{"inside": 0, "ontop": 1, "onfloor": 1, "overlaid": 2, "draped": 3, "under": 4, "attached": 5, "touching": 6, "nextto": 7}

func (pl *plan) place() *Failure {
	// The parent literal of each object to place.
	parentLit := make([]int, len(pl.inst))
	for i := range parentLit {
		parentLit[i] = -1
	}
	for k := range pl.lits {
		l := &pl.lits[k]
		pr, ok := parentPriority[l.name]
		if l.neg || !ok || l.b < 0 || l.a == l.b {
			continue
		}
		in := &pl.inst[l.a]
		if in.bound != nil || in.substance || !in.exists {
			continue
		}
		if cur := parentLit[l.a]; cur < 0 || pr < parentPriority[pl.lits[cur].name] {
			parentLit[l.a] = k
		}
	}
	for i := range pl.inst {
		in := &pl.inst[i]
		if in.bound == nil && !in.substance && in.exists && parentLit[i] >= 0 {
			in.parent, in.rel = pl.lits[parentLit[i]].b, pl.lits[parentLit[i]].name
			if pl.inst[in.parent].substance {
				return failf(Unsupported, &pl.lits[parentLit[i]], nil, "a substance cannot hold an object")
			}
		}
	}
	// Ready objects are placed in rounds: those whose parent is placed,
	// cloth lying on a parent first, then by decreasing volume.
	for {
		var ready []int
		pending := 0
		for i := range pl.inst {
			in := &pl.inst[i]
			if in.placed || in.substance || !in.exists {
				continue
			}
			pending++
			if in.parent < 0 || pl.inst[in.parent].placed {
				ready = append(ready, i)
			}
		}
		if pending == 0 {
			return nil
		}
		if len(ready) == 0 {
			var names []string
			for i := range pl.inst {
				if in := &pl.inst[i]; !in.placed && !in.substance && in.exists {
					names = append(names, in.name)
				}
			}
			return &Failure{Kind: Contradiction, Objects: names, Message: "these objects are placed relative to each other in a cycle"}
		}
		sort.SliceStable(ready, func(x, y int) bool {
			a, b := &pl.inst[ready[x]], &pl.inst[ready[y]]
			ca, cb := a.rel == "overlaid" || a.rel == "draped", b.rel == "overlaid" || b.rel == "draped"
			if ca != cb {
				return ca
			}
			va, vb := a.size[0]*a.size[1]*a.size[2], b.size[0]*b.size[1]*b.size[2]
			if va != vb {
				return va > vb
			}
			return ready[x] < ready[y]
		})
		for _, i := range ready {
			if fail := pl.placeOne(i, parentLit[i]); fail != nil {
				return fail
			}
		}
	}
}

// region is where a placement relation allows an object's centre: a
// rectangle at a height.
type region struct {
	minX, minY, maxX, maxY float64
	z                      float64
	room                   *Room
	floor                  bool
	// inner: the object's whole footprint must lie within the rectangle
	// (a container's inside); support: at least supportRatio of it must
	// (a rigid object standing on a support, as the reference's ray grid
	// needs 80 % of its rays to hit the support, SEMANTICS.md B §2.2).
	inner, support bool
}

func (pl *plan) roomOf(i int) *Room {
	for i >= 0 {
		if r := pl.inst[i].room; r != nil {
			return r
		}
		i = pl.inst[i].parent
	}
	return nil
}

// defaultRoom is where objects with no parent go: the first chosen room,
// else the scene's first.
func (pl *plan) defaultRoom() *Room {
	if len(pl.rooms) > 0 {
		return pl.rooms[0]
	}
	if len(pl.scene.Rooms) > 0 {
		return pl.scene.Rooms[0]
	}
	return nil
}

func floorRegion(r *Room) region {
	return region{minX: r.Floor.Min[0], minY: r.Floor.Min[1], maxX: r.Floor.Max[0], maxY: r.Floor.Max[1], z: r.Floor.Max[2], room: r, floor: true}
}

// topRegion is the top face of object p, raised by any cloth lying on it.
func (pl *plan) topRegion(p int) region {
	b := pl.inst[p].box
	z := b.Max[2]
	if f, ok := pl.surface(p); ok {
		z = b.Min[2] + f*(b.Max[2]-b.Min[2])
	}
	rg := region{minX: b.Min[0], minY: b.Min[1], maxX: b.Max[0], maxY: b.Max[1], z: z + pl.inst[p].flatCloth, room: pl.roomOf(p), support: true}
	if bo := pl.inst[p].bound; bo != nil && bo.Kind == FloorPart {
		rg.floor, rg.support = true, false
	}
	return rg
}

// surface is the support surface of object p's model within its box,
// as a fraction of its height, when the scene files read record one
// (Scene.Surfaces): a bed's mattress below its headboard's top.
func (pl *plan) surface(p int) (float64, bool) {
	if len(pl.surfaces) == 0 || pl.inst[p].model == "" {
		return 0, false
	}
	f, ok := pl.surfaces[pl.inst[p].model]
	return f, ok
}

// supportOf is the surface object p stands on: its parent's top when it
// was placed on top of something, else its room's floor.
func (pl *plan) supportOf(p int) region {
	in := &pl.inst[p]
	if in.parent >= 0 && (in.rel == "ontop" || in.rel == "onfloor") {
		return pl.topRegion(in.parent)
	}
	r := pl.roomOf(p)
	if r == nil {
		r = pl.defaultRoom()
	}
	return floorRegion(r)
}

func (pl *plan) placeOne(i, pk int) *Failure {
	in := &pl.inst[i]
	var lit *literal
	if pk >= 0 {
		lit = &pl.lits[pk]
	}
	if in.parent < 0 {
		r := pl.defaultRoom()
		if r == nil {
			return &Failure{Kind: NoRoom, Objects: []string{in.name}, Message: "the scene has no room to put " + in.name + " in"}
		}
		if pl.tryRegion(i, floorRegion(r)) {
			in.room = r
			return nil
		}
		return &Failure{Kind: NoSpace, Objects: []string{in.name}, Message: "no free floor in " + r.Name + " for " + in.name}
	}
	p := in.parent
	if pl.attempt(i, p) {
		in.room = pl.roomOf(p)
		return nil
	}
	// No spot. A cloth folds, halving its footprint each time, unless a
	// literal wants it unfolded; a rigid object tries the other models of
	// its synset that are smaller, then, as the reference does (SEMANTICS.md
	// B §3.3 phase 6), is shrunk, to half its size at most, unless the
	// request forbids it.
	rigid := !in.cloth && !in.agent && in.rel != "attached" && in.st.attached < 0 && !pl.isAttachParent(i)
	switch {
	case in.cloth && pl.mayFold(i):
		for level := 1; level <= maxFolds; level++ {
			in.st.foldLevel = level
			if pl.attempt(i, p) {
				in.room = pl.roomOf(p)
				return nil
			}
		}
		in.st.foldLevel = 0
	case rigid:
		if pl.otherModel(i, p) {
			in.room = pl.roomOf(p)
			return nil
		}
		// Another container before shrinking (sampleIn swaps it).
		if pl.deferShrink && pl.noteFull(p, true) {
			pl.out.deferred = true
			pl.out.need = fitNeed{container: pl.inst[p].name, rel: in.rel, size: pl.dims(i)}
			return failf(NoSpace, lit, nil, "no free spot for %s %s %s at its model's size", in.name, in.rel, pl.inst[p].name)
		}
		if pl.req.NoShrink {
			break
		}
		orig := in.size
		for _, f := range shrinkSteps {
			in.size = [3]float64{orig[0] * f, orig[1] * f, orig[2] * f}
			in.scale = f
			if pl.attempt(i, p) {
				in.room = pl.roomOf(p)
				return nil
			}
		}
		in.size, in.scale = orig, 0
	}
	pl.noteFull(p, false)
	if f := pl.explainNoSpace(i, lit); f != nil {
		return f
	}
	if pl.req.NoShrink && rigid {
		return failf(NoSpace, lit, nil, "no free spot for %s %s %s at its model's size (shrinking is off)", in.name, in.rel, pl.inst[p].name)
	}
	return failf(NoSpace, lit, nil, "no free spot for %s %s %s", in.name, in.rel, pl.inst[p].name)
}

// noteFull records container (or support) p as full in pl.out: the
// scene object bound to it, or, with models (before shrinking), when the
// sampler chose its model, that model. Before shrinking it records only
// what there is another to swap for (another free scene object of the
// synset in its room, another model), and reports whether it did.
func (pl *plan) noteFull(p int, models bool) bool {
	c := &pl.inst[p]
	if b := c.bound; b != nil {
		if b.Kind != Furniture {
			return false
		}
		if !models {
			pl.out.full = b // the last resort failed: leave it out next
			return true
		}
		if c.room == nil {
			return false
		}
		for _, o := range pl.candidatesIn(c.room, c.syn, nil) {
			if o != b && pl.boundTo(o) < 0 {
				pl.out.full = b
				return true
			}
		}
		return false
	}
	if !models || c.model == "" || c.agent || c.cloth || c.substance || pl.isAttachParent(p) || c.st.attached >= 0 {
		return false
	}
	if !pl.otherContainerModel(p) {
		return false
	}
	pl.out.fullInst, pl.out.fullModel = c.name, c.model
	return true
}

// maxFolds is how many times a cloth may be folded in half to fit.
const maxFolds = 4

// shrinkSteps are the scales a rigid object is shrunk to, in turn, when
// nothing else fits: the reference's DYNAMIC_SCALE_INCREMENT 0.1 down to
// MIN_DYNAMIC_SCALE 0.5 (bddl_utils.py, BDDLSampler._sample_conditions).
var shrinkSteps = []float64{0.9, 0.8, 0.7, 0.6, 0.5}

// maxOtherModels bounds how many smaller models are tried for an object
// that finds no spot.
const maxOtherModels = 6

// isAttachParent reports whether some literal attaches an object to i:
// its model was chosen to fit the child's, so it keeps it.
func (pl *plan) isAttachParent(i int) bool {
	for _, k := range pl.bySub[i] {
		if l := &pl.lits[k]; l.name == "attached" && l.b == i {
			return true
		}
	}
	return false
}

// otherModel tries the smaller models of object i's synset (each of its
// dimensions at most the current one's, with the meta links its literals
// need), largest first, and keeps the first that finds a spot.
func (pl *plan) otherModel(i, p int) bool {
	in := &pl.inst[i]
	if in.syn == kb.NoSynset || in.bound != nil {
		return false
	}
	b := pl.s.base
	var nd needs
	if i < len(pl.need) {
		nd = pl.need[i]
	}
	checkLinks := pl.s.metaLinksKnown()
	cur := sorted3(in.size)
	type cand struct {
		m   kb.Model
		vol float64
	}
	var cands []cand
	sl := pl.list.of(in.synset)
	for _, c := range b.CategoriesOf(in.syn) {
		for _, m := range b.Models(c) {
			if m.Name == in.model || !sl.allows(m.Name) || !m.HasSize || m.Size[0] <= 0 || m.Size[1] <= 0 || m.Size[2] <= 0 {
				continue
			}
			if checkLinks && nd.fillable && !m.HasMetaLink("fillable") && !m.HasMetaLink("openfillable") {
				continue
			}
			if checkLinks && nd.toggle && !m.HasMetaLink("togglebutton") {
				continue
			}
			size, _ := pl.modelSize(m)
			if ms := sorted3(size); ms[0] > cur[0] || ms[1] > cur[1] || ms[2] > cur[2] || !(sl.narrows() || pl.recorded(m) || pl.plausible(in.syn, m.Size)) {
				continue
			}
			cands = append(cands, cand{m, size[0] * size[1] * size[2]})
		}
	}
	sort.Slice(cands, func(x, y int) bool {
		if cands[x].vol != cands[y].vol {
			return cands[x].vol > cands[y].vol
		}
		return cands[x].m.Name < cands[y].m.Name
	})
	saved := *in
	for k, c := range cands {
		if k == maxOtherModels {
			break
		}
		in.category, in.model = c.m.Category, c.m.Name
		in.size, in.modelScale = pl.modelSize(c.m)
		if pl.attempt(i, p) {
			return true
		}
	}
	in.category, in.model, in.size, in.modelScale = saved.category, saved.model, saved.size, saved.modelScale
	return false
}

// sorted3 is a size's dimensions in increasing order.
func sorted3(s [3]float64) [3]float64 {
	a := s
	sort.Float64s(a[:])
	return a
}

// mayFold reports whether no literal asks cloth i to stay unfolded.
func (pl *plan) mayFold(i int) bool {
	for _, k := range pl.bySub[i] {
		l := &pl.lits[k]
		if l.a == i && ((l.name == "unfolded" && !l.neg) || (l.name == "folded" && l.neg)) {
			return false
		}
	}
	return true
}

// attempt tries to place object i by its relation to p.
func (pl *plan) attempt(i, p int) bool {
	in := &pl.inst[i]
	var ok bool
	switch in.rel {
	case "ontop", "onfloor":
		ok = pl.placeAdjacent(i, p, false) || pl.tryRegion(i, pl.topRegion(p))
	case "inside":
		ok = pl.placeInside(i, p)
	case "under":
		ok = pl.placeUnder(i, p)
	case "overlaid":
		ok = pl.placeOverlaid(i, p)
	case "draped":
		ok = pl.placeDraped(i, p)
	case "attached":
		ok = pl.tryRegion(i, pl.topRegion(p)) || pl.placeBeside(i, p, 0, true)
	case "touching":
		ok = pl.tryRegion(i, pl.topRegion(p)) || pl.placeBeside(i, p, touchGap, false)
	case "nextto":
		ok = pl.placeBeside(i, p, -1, false)
	}
	return ok
}

// explainNoSpace names the literal that rules out every spot when the
// object would otherwise fit.
func (pl *plan) explainNoSpace(i int, parentLit *literal) *Failure {
	in := &pl.inst[i]
	p := in.parent
	switch in.rel {
	case "inside":
		inner := pl.innerOf(p)
		e := inner.Extent()
		if min(in.size[0], in.size[1]) > max(e[0], e[1]) || in.size[2]/2 > pl.inst[p].box.Max[2]-inner.Min[2] {
			return failf(NoSpace, parentLit, nil, "%s (%.2f × %.2f × %.2f m) does not fit inside %s (inner %.2f × %.2f × %.2f m)",
				in.name, in.size[0], in.size[1], in.size[2], pl.inst[p].name, e[0], e[1], e[2])
		}
	case "under":
		pb := pl.inst[p].box
		return failf(NoSpace, parentLit, nil, "%s's box reaches down to %.2f m, leaving no room below it for %s (%.2f m tall) in box geometry",
			pl.inst[p].name, pb.Min[2], in.name, in.size[2])
	}
	return nil
}

// dims is the object's size for a placement: a folded cloth takes half
// its footprint.
func (pl *plan) dims(i int) [3]float64 {
	s := pl.inst[i].size
	folds := pl.inst[i].st.foldLevel
	if pl.inst[i].cloth && pl.folded(i) {
		folds++
	}
	// The inventory's height of a cloth is that of its loose, crumpled
	// mesh, more than a folded stack's: folding keeps it.
	for range folds {
		if s[0] >= s[1] {
			s[0] /= 2
		} else {
			s[1] /= 2
		}
	}
	return s
}

func (pl *plan) folded(i int) bool {
	for _, k := range pl.bySub[i] {
		l := &pl.lits[k]
		if l.a == i && ((l.name == "folded" && !l.neg) || (l.name == "unfolded" && l.neg)) {
			return true
		}
	}
	return false
}

// tryRegion looks for a free spot for object i with its centre over the
// region, standing on it: random spots with random yaw, then a grid.
func (pl *plan) tryRegion(i int, rg region) bool {
	size := pl.dims(i)
	// Only the bodies near the region can be in the way, in its room or a
	// neighbouring one.
	if rg.room != nil {
		reach := max(size[0], size[1])
		zone := mkBox(rg.minX-reach, rg.minY-reach, rg.z-overlapEps, rg.maxX+reach, rg.maxY+reach, rg.z+size[2])
		pl.near = pl.nearBodies(zone, rg.room, pl.near[:0])
		pl.nearRoom = rg.room
		defer func() { pl.nearRoom = nil }()
	}
	for t := 0; t < randomTries; t++ {
		yaw := uniform(pl.rng, -math.Pi, math.Pi)
		if t >= randomTries/2 {
			yaw = float64(t%2) * math.Pi / 2
		}
		box, ok := pl.randomIn(rg, size, yaw)
		if ok && pl.accept(i, box, yaw, rg) {
			return true
		}
	}
	for k, yaw := range []float64{0, math.Pi / 2, 0, math.Pi / 2} {
		probe := yawBox(size, yaw, r3.Vec{})
		e := probe.Extent()
		if k >= 2 {
			if rg.inner || rg.support && !pl.inst[i].cloth {
				break
			}
			// Overhanging: only the centre over the region, as the
			// vertical ray of ontop needs.
			e = [3]float64{}
		}
		xs := gridSteps(rg.minX, rg.maxX, e[0])
		ys := gridSteps(rg.minY, rg.maxY, e[1])
		for _, x := range xs {
			for _, y := range ys {
				box := yawBox(size, yaw, r3.Vec{X: x, Y: y, Z: rg.z})
				if pl.accept(i, box, yaw, rg) {
					return true
				}
			}
		}
	}
	return false
}

// gridSteps are centre coordinates along one axis for an object of extent
// e in [lo, hi]: the whole object inside when it fits, else the middle.
func gridSteps(lo, hi, e float64) []float64 {
	a, b := lo+e/2, hi-e/2
	if a > b {
		return []float64{(lo + hi) / 2}
	}
	n := min(gridCells, int((b-a)/max(e/2, 0.01))+1)
	out := make([]float64, 0, n+1)
	for k := 0; k <= n; k++ {
		if n == 0 {
			out = append(out, a)
			break
		}
		out = append(out, a+(b-a)*float64(k)/float64(n))
	}
	return out
}

// randomIn is a random spot in the region for an object of this size and
// yaw: its footprint inside the region when it fits, else centred.
func (pl *plan) randomIn(rg region, size [3]float64, yaw float64) (predicates.Box, bool) {
	probe := yawBox(size, yaw, r3.Vec{})
	e := probe.Extent()
	pick := func(lo, hi, ext float64) float64 {
		a, b := lo+ext/2, hi-ext/2
		if a >= b {
			return (lo + hi) / 2
		}
		return uniform(pl.rng, a, b)
	}
	x, y := pick(rg.minX, rg.maxX, e[0]), pick(rg.minY, rg.maxY, e[1])
	return yawBox(size, yaw, r3.Vec{X: x, Y: y, Z: rg.z}), true
}

// accept places object i at box if the spot is free and every kinematic
// literal between i and the objects already placed holds there.
func (pl *plan) accept(i int, box predicates.Box, yaw float64, rg region) bool {
	in := &pl.inst[i]
	if rg.inner && (box.Min[0] < rg.minX-geomEps || box.Min[1] < rg.minY-geomEps || box.Max[0] > rg.maxX+geomEps || box.Max[1] > rg.maxY+geomEps) {
		return false
	}
	if rg.support && !in.cloth && footprintOn(box, rg) < supportRatio {
		return false
	}
	if rg.room != nil {
		// An object is in the room its support is in: its footprint on
		// that room's floor (a draped cloth hangs down a side, an attached
		// item from its parent).
		f := rg.room.Floor
		if in.rel == "draped" || in.rel == "attached" {
			c := box.Center()
			if c[0] < f.Min[0] || c[0] > f.Max[0] || c[1] < f.Min[1] || c[1] > f.Max[1] {
				return false
			}
		} else if box.Min[0] < f.Min[0]-geomEps || box.Min[1] < f.Min[1]-geomEps || box.Max[0] > f.Max[0]+geomEps || box.Max[1] > f.Max[1]+geomEps {
			return false
		}
		if rg.floor {
			for _, k := range rg.room.Keepout {
				if overlaps(box, k) {
					return false
				}
			}
		}
		if !pl.free(i, box, rg.room) {
			return false
		}
	}
	old := in.box
	in.box, in.placed = box, true
	if !pl.literalsHold(i) {
		in.box, in.placed = old, false
		return false
	}
	in.yaw = yaw
	if rg.room != nil {
		pl.bodies[rg.room] = append(pl.roomBodies(rg.room), body{box: box, inst: i})
	}
	return true
}

// supportRatio is the least fraction of a rigid object's footprint over
// its support.
const supportRatio = 0.8

// footprintOn is the fraction of box's footprint over the region's
// rectangle.
func footprintOn(box predicates.Box, rg region) float64 {
	w := min(box.Max[0], rg.maxX) - max(box.Min[0], rg.minX)
	d := min(box.Max[1], rg.maxY) - max(box.Min[1], rg.minY)
	a := (box.Max[0] - box.Min[0]) * (box.Max[1] - box.Min[1])
	if w <= 0 || d <= 0 || a <= 0 {
		return 0
	}
	return w * d / a
}

// nearBodies appends to dst the bodies of every room whose floor comes
// near zone that overlap it: the neighbouring rooms' furniture, doors and
// windows are in the way too, not their floors and ceilings (a simulator
// scene's floor objects reach under the rooms next to theirs).
func (pl *plan) nearBodies(zone predicates.Box, own *Room, dst []body) []body {
	for _, r := range pl.scene.Rooms {
		f := r.Floor
		if f.Max[0] < zone.Min[0]-roomReach || f.Min[0] > zone.Max[0]+roomReach || f.Max[1] < zone.Min[1]-roomReach || f.Min[1] > zone.Max[1]+roomReach {
			continue
		}
		for _, b := range pl.roomBodies(r) {
			if overlaps(zone, b.box) && (r == own || !b.slab) {
				dst = append(dst, b)
			}
		}
	}
	return dst
}

// roomReach is how far past its floor a room's objects may stand (walls,
// doors set in them).
const roomReach = 0.5

func (pl *plan) roomBodies(r *Room) []body {
	bs, ok := pl.bodies[r]
	if !ok {
		bs = make([]body, 0, len(r.Objects)+8)
		for _, o := range r.Objects {
			if o.Task && pl.boundTo(o) < 0 {
				continue
			}
			bs = append(bs, body{box: o.Box, inst: pl.boundTo(o), slab: o.Kind == FloorPart || o.Kind == CeilingPart})
		}
		pl.bodies[r] = bs
	}
	return bs
}

func (pl *plan) boundTo(o *SceneObject) int {
	for i := range pl.inst {
		if pl.inst[i].bound == o {
			return i
		}
	}
	return -1
}

// free reports whether box overlaps nothing in the room but the
// containers object i is (transitively) in.
func (pl *plan) free(i int, box predicates.Box, r *Room) bool {
	var bodies []body
	if pl.nearRoom == r {
		bodies = pl.near
	} else {
		bodies = pl.nearBodies(box, r, nil)
	}
	in := &pl.inst[i]
	for _, b := range bodies {
		if b.inst == i || !overlaps(box, b.box) {
			continue
		}
		if b.inst >= 0 && (pl.contains(b.inst, i) || pl.contains(i, b.inst)) {
			continue
		}
		if underfoot(box, b.box) && (b.inst < 0 || pl.inst[b.inst].bound != nil) {
			continue
		}
		// On a support surface within the support's box: the box is not
		// the support's shape there.
		if b.inst >= 0 && b.inst == in.parent && in.rel == "ontop" {
			if _, ok := pl.surface(b.inst); ok {
				continue
			}
		}
		// A scene object that already cuts into the container (a sink set
		// into a countertop, in a simulator scene's approximate boxes)
		// does not keep things out of it.
		if in.rel == "inside" && in.parent >= 0 && (b.inst < 0 || pl.inst[b.inst].bound != nil) && overlaps(b.box, pl.inst[in.parent].box) {
			continue
		}
		return false
	}
	return true
}

// groundTol is how far a scene object sunk into the ground may rise
// above the bottom of what stands over it: a simulator scene's boxes are
// approximate (a lawn's estimated top a few millimetres above the floor
// piece beside it), and the physical checker tolerates as much.
const groundTol = 0.005

// underfoot reports whether scene body g is under box rather than in its
// way: it reaches below box's bottom and rises at most groundTol above it,
// as a lawn, a paver or a driveway set into the ground does under what
// stands on the floor next to it. A thin thing lying on the floor (its
// bottom not below) stays in the way.
func underfoot(box, g predicates.Box) bool {
	return g.Min[2] < box.Min[2]-overlapEps && g.Max[2] <= box.Min[2]+groundTol
}

// contains reports whether c holds o: o is inside c, draped on it, or
// rests on something that is.
func (pl *plan) contains(c, o int) bool {
	for guard := 0; o >= 0 && guard < len(pl.inst); guard++ {
		p := pl.inst[o].parent
		if p == c {
			r := pl.inst[o].rel
			return r == "inside" || r == "draped"
		}
		o = p
	}
	return false
}

// overlaps reports whether two boxes share volume (touching faces do not).
func overlaps(a, b predicates.Box) bool {
	for k := 0; k < 3; k++ {
		if a.Max[k] <= b.Min[k]+overlapEps || b.Max[k] <= a.Min[k]+overlapEps {
			return false
		}
	}
	return true
}

// innerBox is a container's inside: its box less a wall.
func innerBox(b predicates.Box) predicates.Box {
	e := b.Extent()
	t := min(max(0.04*min(e[0], e[1]), 0.005), 0.03)
	return mkBox(b.Min[0]+t, b.Min[1]+t, b.Min[2]+t, b.Max[0]-t, b.Max[1]-t, b.Max[2]-t)
}

// placeInside puts object i within container p's inner box: its whole
// box inside, at yaw 0 or 90° or at random, on the container's floor, on
// one of its shelves or on what already lies inside. The container's
// inside is its box less a wall (the knowledge base has no fillable
// volumes); furniture and appliances taller inside than shelfMinHeight
// (fridges, cabinets, bookcases) have shelves every shelfPitch, tried in
// an order drawn at random, as the reference samples heights within the
// volume (SEMANTICS.md B §2.3).
func (pl *plan) placeInside(i, p int) bool {
	inner := pl.innerOf(p)
	size := pl.dims(i)
	r := pl.roomOf(p)
	var levels []float64
	h := inner.Max[2] - inner.Min[2]
	if pl.shelved(p) {
		n := int(math.Round(h / shelfPitch))
		for k := 1; k < n; k++ {
			levels = append(levels, inner.Min[2]+h*float64(k)/float64(n))
		}
	}
	levels = append(levels, inner.Min[2])
	// The reference (SEMANTICS.md B §2.3, inside.py) drops the object
	// from a point uniform in the container's volume onto what lies below
	// it, and its reachability filter rejects a result below 0.3 m above
	// the floor and samples again: the drop height is drawn above the
	// lowest level that filter keeps (when one is), the level under it
	// comes first, then the other levels below, then those above, and
	// the levels the filter rejects last.
	floor := pl.floorZ(p)
	top := max(inner.Max[2]-size[2], inner.Min[2])
	lo := inner.Min[2]
	if reach := slices.DeleteFunc(slices.Clone(levels), func(z float64) bool { return z < floor+reachLow || z > top }); len(reach) > 0 {
		lo = slices.Min(reach)
	}
	target := lo + pl.rng.Float64()*(top-lo)
	key := func(z float64) float64 {
		d := target - z
		if d < -geomEps {
			d = 10 - d // above the drop point: only if nothing below fits
		}
		if z < floor+reachLow {
			d += 100
		}
		return d
	}
	sort.SliceStable(levels, func(a, b int) bool { return key(levels[a]) < key(levels[b]) })
	for _, b := range pl.roomBodies(r) {
		if b.inst >= 0 && pl.inst[b.inst].parent == p && pl.inst[b.inst].rel == "inside" {
			levels = append(levels, b.box.Max[2])
		}
	}
	rg := region{minX: inner.Min[0], minY: inner.Min[1], maxX: inner.Max[0], maxY: inner.Max[1], room: r, inner: true}
	for _, z := range levels {
		if z+size[2] > inner.Max[2]+geomEps {
			continue
		}
		rg.z = z
		if pl.tryRegion(i, rg) {
			return true
		}
	}
	return false
}

// reachLow is the reference's lowest reachable height for objects
// sampled inside fixed furniture (EEF_Z_MIN, SEMANTICS.md B §2.2 step 7).
const reachLow = 0.3

// basinDepth is the depth of a sink's basin: a sink's box reaches the
// floor (its cabinet or pedestal) but only its top holds anything.
const basinDepth = 0.25

// innerOf is container p's inside: its box less a wall, and for a sink
// only its basin at the top.
func (pl *plan) innerOf(p int) predicates.Box {
	return innerOfBox(pl.s.base, pl.inst[p].syn, pl.inst[p].box)
}

// innerOfBox is the inside of a container of synset syn with this box.
func innerOfBox(b *kb.Base, syn kb.SynsetID, box predicates.Box) predicates.Box {
	inner := innerBox(box)
	if syn != kb.NoSynset {
		if id, ok := b.Lookup("sink.n.01"); ok && b.IsA(syn, id) {
			inner.Min[2] = max(inner.Min[2], inner.Max[2]-basinDepth)
		}
	}
	return inner
}

// Shelves inside furniture and appliances.
const (
	shelfMinHeight = 0.5
	shelfPitch     = 0.3
)

// shelved reports whether container p has shelves: a piece of furniture
// or a home appliance (not a bin or a box) tall enough inside.
func (pl *plan) shelved(p int) bool {
	in := &pl.inst[p]
	inner := pl.innerOf(p)
	if inner.Max[2]-inner.Min[2] < shelfMinHeight || in.syn == kb.NoSynset {
		return false
	}
	b := pl.s.base
	for _, name := range []string{"furniture.n.01", "home_appliance.n.01", "white_goods.n.01"} {
		if id, ok := b.Lookup(name); ok && b.IsA(in.syn, id) {
			return true
		}
	}
	return false
}

// placeUnder puts object i on the floor below p, its centre under p's
// footprint and its whole box below p's.
func (pl *plan) placeUnder(i, p int) bool {
	r := pl.roomOf(p)
	if r == nil {
		return false
	}
	pb := pl.inst[p].box
	fl := floorRegion(r)
	if fl.z+pl.inst[i].size[2] >= pb.Min[2]-overlapEps {
		return false
	}
	rg := region{minX: max(pb.Min[0], fl.minX), minY: max(pb.Min[1], fl.minY), maxX: min(pb.Max[0], fl.maxX), maxY: min(pb.Max[1], fl.maxY), z: fl.z, room: r, floor: true}
	return rg.minX < rg.maxX && rg.minY < rg.maxY && pl.tryRegion(i, rg)
}

// placeOverlaid spreads cloth i flat over p's top, clipped to it (the
// cloth is deformable), covering more than half of it.
func (pl *plan) placeOverlaid(i, p int) bool {
	in := &pl.inst[i]
	top := pl.topRegion(p)
	s := in.size
	a, c := max(s[0], s[1], s[2]), 0.0
	switch {
	case a == s[0]:
		c = max(s[1], s[2])
	case a == s[1]:
		c = max(s[0], s[2])
	default:
		c = max(s[0], s[1])
	}
	w, d := top.maxX-top.minX, top.maxY-top.minY
	best, bestYaw := 0.0, 0.0
	var bw, bd float64
	for k, dims := range [][2]float64{{a, c}, {c, a}} {
		cw, cd := min(dims[0], w), min(dims[1], d)
		if cov := cw * cd; cov > best {
			best, bestYaw, bw, bd = cov, float64(k)*math.Pi/2, cw, cd
		}
	}
	if w*d <= 0 || best/(w*d) <= pl.geo.overlap+0.02 {
		return false
	}
	cx, cy := (top.minX+top.maxX)/2, (top.minY+top.maxY)/2
	box := mkBox(cx-bw/2, cy-bd/2, top.z, cx+bw/2, cy+bd/2, top.z+clothThickness)
	if !pl.accept(i, box, bestYaw, region{room: top.room}) {
		return false
	}
	pl.inst[p].flatCloth += clothThickness
	return true
}

// placeDraped hangs cloth i down one side of p, its top edge just above
// p's top and its centre below it.
func (pl *plan) placeDraped(i, p int) bool {
	pb := pl.inst[p].box
	r := pl.roomOf(p)
	e := pb.Extent()
	d := pl.dims(i)
	long := max(d[0], d[1], d[2])
	drop := min(long/2, pb.Max[2]-pl.floorZ(p)-0.01)
	if drop <= 2*clothThickness {
		return false
	}
	top := pb.Max[2] + clothThickness
	for t := 0; t < randomTries; t++ {
		s := pl.rng.IntN(4)
		along := e[0]
		if s >= 2 {
			along = e[1]
		}
		w := min(long/2, along)
		off := uniform(pl.rng, 0, along-w+1e-12)
		var box predicates.Box
		switch s {
		case 0:
			x := pb.Min[0] + off
			box = mkBox(x, pb.Min[1]-2*clothThickness, top-drop, x+w, pb.Min[1], top)
		case 1:
			x := pb.Min[0] + off
			box = mkBox(x, pb.Max[1], top-drop, x+w, pb.Max[1]+2*clothThickness, top)
		case 2:
			y := pb.Min[1] + off
			box = mkBox(pb.Min[0]-2*clothThickness, y, top-drop, pb.Min[0], y+w, top)
		default:
			y := pb.Min[1] + off
			box = mkBox(pb.Max[0], y, top-drop, pb.Max[0]+2*clothThickness, y+w, top)
		}
		if pl.accept(i, box, 0, region{room: r}) {
			return true
		}
	}
	return false
}

// placeAdjacent places object i on its parent's top next to an object it
// must be next to or touching there, when it has such a literal: random
// spots over the whole top rarely land next to it.
func (pl *plan) placeAdjacent(i, p int, _ bool) bool {
	for _, k := range pl.bySub[i] {
		l := &pl.lits[k]
		if l.neg || (l.name != "nextto" && l.name != "touching") {
			continue
		}
		o := l.b
		if o == i {
			o = l.a
		}
		if o == p || !pl.inst[o].placed || pl.inst[o].parent != p {
			continue
		}
		gap := -1.0
		if l.name == "touching" {
			gap = touchGap
		}
		if pl.placeBeside(i, o, gap, false) {
			return true
		}
	}
	return false
}

// placeBeside stands object i on the surface object p stands on, beside
// p, facing one of its sides at a gap (gap < 0: any gap nextto allows).
// Centres are offset sideways by less than both half-widths, so a
// horizontal ray from one centre meets the other box. attached objects
// may hang at p's middle height instead.
func (pl *plan) placeBeside(i, p int, gap float64, hang bool) bool {
	pb := pl.inst[p].box
	sup := pl.supportOf(p)
	if pl.inst[p].bound != nil && pl.inst[p].bound.Kind == FloorPart {
		return false
	}
	size := pl.dims(i)
	pe := pb.Extent()
	c := pb.Center()
	// try puts i on one side of p (0–3: −y, +y, −x, +x), its centre
	// offset sideways by lat (a fraction of the allowed offset), at gap g
	// (negative: a gap nextto allows, drawn at random or the middle one).
	try := func(yaw float64, side int, lat, g float64, random bool) bool {
		e := yawBox(size, yaw, r3.Vec{}).Extent()
		if g < 0 {
			lim := min(pl.geo.nextRatio*(pe[0]+pe[1]+pe[2]+e[0]+e[1]+e[2])*0.8, 0.05)
			g = lim / 2
			if random {
				g = uniform(pl.rng, 0, lim)
			}
		}
		off := func(half, phalf float64) float64 { return lat * max(min(half, phalf)*0.9, 0) }
		var cx, cy float64
		switch side {
		case 0:
			cx, cy = c[0]+off(e[0]/2, pe[0]/2), pb.Min[1]-g-e[1]/2
		case 1:
			cx, cy = c[0]+off(e[0]/2, pe[0]/2), pb.Max[1]+g+e[1]/2
		case 2:
			cx, cy = pb.Min[0]-g-e[0]/2, c[1]+off(e[1]/2, pe[1]/2)
		default:
			cx, cy = pb.Max[0]+g+e[0]/2, c[1]+off(e[1]/2, pe[1]/2)
		}
		z, rg := sup.z, sup
		if hang {
			z = max(pb.Min[2], c[2]-size[2]/2)
			rg = region{room: sup.room}
		} else if cx < sup.minX || cx > sup.maxX || cy < sup.minY || cy > sup.maxY {
			return false
		}
		return pl.accept(i, yawBox(size, yaw, r3.Vec{X: cx, Y: cy, Z: z}), yaw, rg)
	}
	for t := 0; t < randomTries; t++ {
		yaw := float64(pl.rng.IntN(2)) * math.Pi / 2
		side := pl.rng.IntN(4)
		lat := uniform(pl.rng, -1, 1)
		if try(yaw, side, lat, gap, true) {
			return true
		}
	}
	// Then every side, both ways round, at five offsets.
	for side := 0; side < 4; side++ {
		for _, yaw := range []float64{0, math.Pi / 2} {
			for _, lat := range []float64{0, -0.5, 0.5, -1, 1} {
				if try(yaw, side, lat, gap, false) {
					return true
				}
			}
		}
	}
	return false
}

// floorZ is the height of the floor of object p's room.
func (pl *plan) floorZ(p int) float64 {
	if r := pl.roomOf(p); r != nil {
		return r.Floor.Max[2]
	}
	return 0
}
