package predicates

import (
	"fmt"
)

// Kinematic predicates (SEMANTICS.md A4, B §1.3). Recorded contacts
// decide touching exactly; the vertical and horizontal relations have no
// recorded form in our state, so they always come from box geometry and
// are approximate (B §5.2).

func registerKinematic() {
	register(predTouching, predicate{name: "touching", arity: 2, domains: inOmniGibson | inIGibson,
		rule: ruleTouching, detail: touchingDetail,
		doc: "a recorded contact either way; else box separation ≤ 1 cm (approximate)"})
	register(predOntop, predicate{name: "ontop", arity: 2, domains: inOmniGibson | inIGibson,
		rule: ruleOntop, detail: kinematicDetail,
		doc: "touching ∧ B below A ∧ ¬(B above A); below/above: the vertical ray through A's box centre meets B's box within 5 m; with A's centre inside B's box, A on B unless its bottom is at B's (beneath B) or B is openable (approximate)"})
	register(predUnder, predicate{name: "under", arity: 2, domains: inOmniGibson | inIGibson,
		rule: ruleUnder, detail: kinematicDetail,
		doc: "B above A ∧ ¬(B below A) ∧ ¬(A above B), as ontop decides below/above; no contact needed (approximate)"})
	register(predNextto, predicate{name: "nextto", arity: 2, domains: inOmniGibson | inIGibson,
		rule: ruleNextto, detail: kinematicDetail,
		doc: "box gap ≤ (sum of both boxes' six extents)/18 ∧ one of 16 horizontal rays from either centre meets the other box (approximate)"})
	register(predInside, predicate{name: "inside", arity: 2, domains: inOmniGibson | inIGibson,
		rule: ruleInside, detail: kinematicDetail,
		doc: "A's box centre inside B's box (oriented when recorded) (approximate: the container volume is not recorded)"})
	register(predOverlaid, predicate{name: "overlaid", arity: 2, domains: inOmniGibson,
		rule: ruleOverlaid, detail: kinematicDetail,
		doc: "touching ∧ footprint overlap / B's footprint > 0.5 (approximate: A's box stands for the cloth hull)"})
	register(predDraped, predicate{name: "draped", arity: 2, domains: inOmniGibson,
		rule: ruleDraped, detail: kinematicDetail,
		doc: "touching ∧ A's box centre below the top of B's box (approximate: B's top stands for the contact points)"})
	register(predOnfloor, predicate{name: "onfloor", arity: 2, domains: inIGibson,
		rule: ruleOnfloor, detail: onfloorDetail,
		doc: "touching the floor ∧ in the floor's room (legacy)"})
}

// touching decides touching(a, b): a recorded contact list decides (the
// relation is symmetric, so either object's list may), else the box
// separation within the tolerance.
func touching(p *Program, s *State, a, b ObjectID) (Truth, Source) {
	kA, tA := s.contact(a, b)
	kB, tB := s.contact(b, a)
	if tA || tB {
		return True, SourceQuantity
	}
	if kA || kB {
		return False, SourceQuantity
	}
	if uh, uv := p.pairError(s, a, b); uh > 0 || uv > 0 {
		if _, ok := s.box(a); !ok {
			return Unknown, SourceMissing
		}
		if _, ok := s.box(b); !ok {
			return Unknown, SourceMissing
		}
		return geometric(touchingT(p, s, a, b))
	}
	if d, ok := s.boxDistance(a, b); ok {
		return TruthOf(d <= p.opts.Geometry.TouchTolerance), SourceGeometry
	}
	return Unknown, SourceMissing
}

func ruleTouching(p *Program, s *State, a, b ObjectID) (Truth, Source) {
	if a == b {
		return False, SourceQuantity
	}
	return touching(p, s, a, b)
}

// geometric is the source of a three-valued geometric test.
func geometric(t Truth) (Truth, Source) {
	if t == Unknown {
		return Unknown, SourceUncertain
	}
	return t, SourceGeometry
}

// combineT is combine with a three-valued geometric part.
func combineT(t Truth, tsrc Source, g Truth) (Truth, Source) {
	if t == False {
		return False, tsrc
	}
	v := t.And(g)
	if v != Unknown {
		return v, SourceGeometry
	}
	if t == Unknown && tsrc != SourceUncertain {
		return Unknown, SourceMissing
	}
	return Unknown, SourceUncertain
}

// combine is the conjunction of a contact-based part and a geometric
// part, with the source of whatever decided it.
func combine(t Truth, tsrc Source, g Truth, gok bool) (Truth, Source) {
	if t == False {
		return False, tsrc
	}
	if !gok {
		return Unknown, SourceMissing
	}
	v := t.And(g)
	if v == Unknown {
		if tsrc == SourceUncertain {
			return Unknown, SourceUncertain
		}
		return Unknown, SourceMissing
	}
	return v, SourceGeometry
}

func ruleOntop(p *Program, s *State, a, b ObjectID) (Truth, Source) {
	if a == b {
		return False, SourceQuantity
	}
	t, tsrc := touching(p, s, a, b)
	if t == False {
		return False, tsrc
	}
	if uh, uv := p.pairError(s, a, b); uh > 0 || uv > 0 {
		return ontopUncertain(p, s, a, b, t, tsrc, uh, uv)
	}
	below, above, ok := verticalPair(p, s, a, b)
	return combine(t, tsrc, TruthOf(below && !above), ok)
}

// verticalPair decides whether b is below and whether it is above a: the
// reference's vertical rays from a (VerticalAdjacency, object_states/
// adjacency.py) against b's box. The reference starts its rays on a's own
// surface and hits b's meshes; a box says nothing of b's surfaces where a's
// centre lies inside it (a book on a bed with a headboard, an egg in a
// basket, a bin beneath a desk), where both rays start inside b's box.
// There a is taken to stand beneath b when its bottom is at b's bottom
// (within StandTolerance: both on the same floor), else to rest in or on
// b; an enclosure (an openable b: fridge, cabinet, oven) has a top over
// what it holds, so b is then both below and above a, as the boxes say.
func verticalPair(p *Program, s *State, a, b ObjectID) (below, above, ok bool) {
	rng := p.opts.Geometry.VerticalRange
	below, ok1 := s.vertical(a, b, down, rng)
	above, ok2 := s.vertical(a, b, up, rng)
	if !(ok1 && ok2) {
		return false, false, false
	}
	if !(below && above) || p.objs[b].enclosure {
		return below, above, true
	}
	ca, _ := s.center(a)
	fb, okB := s.frame(b)
	if !okB || !fb.contains(ca) {
		return below, above, true // a ray crosses b's box from outside both ways
	}
	ba, okA := s.box(a)
	bb, _ := s.box(b)
	if !okA {
		return below, above, true
	}
	if ba.Min[2] <= bb.Min[2]+p.opts.Geometry.StandTolerance {
		return false, true, true // beneath b, on what b stands on
	}
	return true, false, true // in or on b
}

func ruleUnder(p *Program, s *State, a, b ObjectID) (Truth, Source) {
	if a == b {
		return False, SourceQuantity
	}
	if uh, uv := p.pairError(s, a, b); uh > 0 || uv > 0 {
		return underUncertain(p, s, a, b, uh, uv)
	}
	rng := p.opts.Geometry.VerticalRange
	bBelow, bAbove, ok1 := verticalPair(p, s, a, b)
	aAboveB, ok3 := s.vertical(b, a, up, rng)
	if !(ok1 && ok3) {
		return Unknown, SourceMissing
	}
	return TruthOf(bAbove && !bBelow && !aAboveB), SourceGeometry
}

func ruleNextto(p *Program, s *State, a, b ObjectID) (Truth, Source) {
	if a == b {
		return False, SourceQuantity
	}
	ba, okA := s.box(a)
	bb, okB := s.box(b)
	if !okA || !okB {
		return Unknown, SourceMissing
	}
	ea, eb := ba.Extent(), bb.Extent()
	limit := p.opts.Geometry.NextToRatio * (ea[0] + ea[1] + ea[2] + eb[0] + eb[1] + eb[2])
	if uh, uv := p.pairError(s, a, b); uh > 0 || uv > 0 {
		return nexttoUncertain(p, s, a, b, ba, bb, limit, uh, uv)
	}
	if boxGap(ba, bb) > limit {
		return False, SourceGeometry
	}
	rng := p.opts.Geometry.HorizontalRange
	if hit, _ := s.horizontal(a, b, p.rays, rng); hit {
		return True, SourceGeometry
	}
	hit, _ := s.horizontal(b, a, p.rays, rng)
	return TruthOf(hit), SourceGeometry
}

func ruleInside(p *Program, s *State, a, b ObjectID) (Truth, Source) {
	if a == b {
		return False, SourceQuantity
	}
	ca, okA := s.center(a)
	fb, okB := s.frame(b)
	if !okA || !okB {
		return Unknown, SourceMissing
	}
	if uh, uv := p.pairError(s, a, b); uh > 0 || uv > 0 {
		return geometric(containsT(fb, ca, uh, uv))
	}
	return TruthOf(fb.contains(ca)), SourceGeometry
}

func ruleOverlaid(p *Program, s *State, a, b ObjectID) (Truth, Source) {
	if a == b {
		return False, SourceQuantity
	}
	t, tsrc := touching(p, s, a, b)
	if t == False {
		return False, tsrc
	}
	ba, okA := s.box(a)
	bb, okB := s.box(b)
	if !okA || !okB {
		return combine(t, tsrc, Unknown, false)
	}
	eb := bb.Extent()
	area := eb[0] * eb[1]
	frac := p.opts.Geometry.OverlapFraction
	if uh, _ := p.pairError(s, a, b); uh > 0 {
		lo, hi := overlapBounds(ba, bb, uh)
		return combineT(t, tsrc, between(area > 0 && lo/area > frac, area > 0 && hi/area > frac))
	}
	covered := area > 0 && footprintOverlap(ba, bb)/area > frac
	return combine(t, tsrc, TruthOf(covered), true)
}

func ruleDraped(p *Program, s *State, a, b ObjectID) (Truth, Source) {
	if a == b {
		return False, SourceQuantity
	}
	t, tsrc := touching(p, s, a, b)
	if t == False {
		return False, tsrc
	}
	ca, okA := s.center(a)
	bb, okB := s.box(b)
	if !okA || !okB {
		return combine(t, tsrc, Unknown, false)
	}
	if _, uv := p.pairError(s, a, b); uv > 0 {
		return combineT(t, tsrc, between(ca[2]+uv < bb.Max[2], ca[2]-uv < bb.Max[2]))
	}
	return combine(t, tsrc, TruthOf(ca[2] < bb.Max[2]), true)
}

func ruleOnfloor(p *Program, s *State, a, b ObjectID) (Truth, Source) {
	if a == b {
		return False, SourceQuantity
	}
	t, tsrc := touching(p, s, a, b)
	if t == False {
		return False, tsrc
	}
	oa, ob := &s.obj[a], &s.obj[b]
	if oa.has&FieldRoom == 0 || ob.has&FieldRoom == 0 {
		return Unknown, SourceMissing
	}
	same := TruthOf(oa.room == ob.room && oa.room != NoRoom)
	v := t.And(same)
	if v == Unknown {
		return Unknown, SourceMissing
	}
	if same == False || tsrc != SourceGeometry {
		return v, SourceQuantity
	}
	return v, SourceGeometry
}

// kinematicDetail describes the contacts and boxes a kinematic atom was
// decided on.
func kinematicDetail(p *Program, s *State, a, b ObjectID) string {
	return describeKinematic(p, s, a, b, true)
}

// touchingDetail leaves out missing boxes when contacts decide.
func touchingDetail(p *Program, s *State, a, b ObjectID) string {
	return describeKinematic(p, s, a, b, false)
}

func describeKinematic(p *Program, s *State, a, b ObjectID, needBoxes bool) string {
	var parts []string
	kA, tA := s.contact(a, b)
	kB, tB := s.contact(b, a)
	switch {
	case tA || tB:
		parts = append(parts, "contact recorded")
	case kA || kB:
		parts = append(parts, "no contact recorded")
	}
	ca, okA := s.center(a)
	fb, okB := s.frame(b)
	switch {
	case okA && okB:
		if d, ok := s.boxDistance(a, b); ok {
			parts = append(parts, "box gap "+fmtGeom(d)+" m")
		}
		parts = append(parts, p.Name(a)+" centre "+fmtVec(ca))
		if s.obj[b].has&FieldOBB != 0 {
			parts = append(parts, p.Name(b)+" oriented box centre "+fmtVec(fb.c)+" half sizes "+fmtVec(fb.h))
		} else {
			bb, _ := s.box(b)
			parts = append(parts, p.Name(b)+" box ["+fmtVec(bb.Min)+" .. "+fmtVec(bb.Max)+"]")
		}
		if uh, uv := p.pairError(s, a, b); uh > 0 || uv > 0 {
			parts = append(parts, uncertaintyDetail(p, s, a, b, uh, uv))
		}
	case len(parts) == 0 || needBoxes:
		var missing []string
		if !okA {
			missing = append(missing, p.Name(a))
		}
		if !okB {
			missing = append(missing, p.Name(b))
		}
		what := "missing box of "
		if len(parts) == 0 {
			what = "missing contacts and box of "
		}
		parts = append(parts, what+joinComma(missing))
	}
	return joinSemi(parts)
}

func joinSemi(parts []string) string {
	out := ""
	for i, s := range parts {
		if i > 0 {
			out += "; "
		}
		out += s
	}
	return out
}

func onfloorDetail(p *Program, s *State, a, b ObjectID) string {
	out := kinematicDetail(p, s, a, b)
	for _, id := range []ObjectID{a, b} {
		if s.obj[id].has&FieldRoom == 0 {
			out += "; missing room of " + p.Name(id)
		} else {
			out += "; " + p.Name(id) + " in " + s.RoomName(s.obj[id].room)
		}
	}
	return out
}

func fmtGeom(v float64) string { return fmt.Sprintf("%.3f", v) }

func fmtVec(v [3]float64) string { return fmt.Sprintf("(%.3f, %.3f, %.3f)", v[0], v[1], v[2]) }

// Kinematic relations on boxes with an error (uncertain.go): the same
// tests as above, each three-valued, combined over every value they can
// take together.

// decidePair is verticalPair's decision for given test values.
func decidePair(enclosure, below, above, contains, stand bool) (bBelow, bAbove bool) {
	if !(below && above) || enclosure || !contains {
		return below, above
	}
	if stand {
		return false, true
	}
	return true, false
}

// stackView is what ontop and under decide on, a displaced vertically by
// dz: the tests that depend on heights are then exact, those that depend
// on the horizontal displacement three-valued (b's box shrunk and grown
// by its reach).
type stackView struct {
	p              *Program
	fa, fb         frame3 // a's and b's boxes
	ba, bb         Box    // their enclosures
	cb             [3]float64
	uh             float64
	inB, outB      frame3 // b shrunk and grown horizontally
	inBok          bool
	inA, outA      frame3 // a shrunk and grown horizontally
	inAok          bool
	axisAligned    bool
	enclosure      bool
	touchTol, rng  float64
	standTolerance float64
}

func newStackView(p *Program, s *State, a, b ObjectID, uh float64) (*stackView, bool) {
	fa, okA := s.frame(a)
	fb, okB := s.frame(b)
	ba, okBA := s.box(a)
	bb, okBB := s.box(b)
	cb, okC := s.center(b)
	if !(okA && okB && okBA && okBB && okC) {
		return nil, false
	}
	v := &stackView{p: p, fa: fa, fb: fb, ba: ba, bb: bb, cb: cb, uh: uh, enclosure: p.objs[b].enclosure,
		axisAligned: s.obj[a].has&FieldOBB == 0 && s.obj[b].has&FieldOBB == 0,
		touchTol:    p.opts.Geometry.TouchTolerance, rng: p.opts.Geometry.VerticalRange, standTolerance: p.opts.Geometry.StandTolerance}
	v.inB, v.inBok = resized(fb, uh, 0, -1)
	v.outB, _ = resized(fb, uh, 0, 1)
	v.inA, v.inAok = resized(fa, uh, 0, -1)
	v.outA, _ = resized(fa, uh, 0, 1)
	return v, true
}

// breakpoints are the vertical displacements of a at which a height
// comparison of ontop or under changes.
func (v *stackView) breakpoints() [7]float64 {
	ca := v.fa.c
	return [7]float64{
		v.bb.Max[2] - ca[2], v.bb.Min[2] - ca[2], // a's centre crosses b's top, bottom
		v.bb.Min[2] + v.standTolerance - v.ba.Min[2],                                   // bottoms
		v.bb.Max[2] + v.touchTol - v.ba.Min[2], v.bb.Min[2] - v.touchTol - v.ba.Max[2], // touching
		v.cb[2] - v.ba.Max[2], v.cb[2] - v.ba.Min[2], // b's centre crosses a's box
	}
}

// heights calls f with every vertical displacement within uv at which
// the decision may differ: both ends, no displacement, and either side of
// each breakpoint inside.
func heights(uv float64, bps []float64, f func(dz float64) bool) bool {
	const eps = 1e-7
	for _, dz := range [3]float64{-uv, 0, uv} {
		if !f(dz) {
			return false
		}
	}
	for _, bp := range bps {
		if bp > -uv && bp < uv && (!f(bp-eps) || !f(bp+eps)) {
			return false
		}
	}
	return true
}

func shiftZ(f frame3, dz float64) frame3 { f.c[2] += dz; return f }

// tests returns, for a displaced by dz, touching (three-valued) and, with
// b's (and a's) box as given (nominal, shrunk or grown by the horizontal
// reach, one consistent scenario; nil when shrunk to nothing), b below and above a's centre, a's
// centre in b, a's bottom at b's, and a above b's centre.
func (v *stackView) tests(dz float64, fb, fa *frame3) [6]bool {
	var x [6]bool
	ca := v.fa.c
	ca[2] += dz
	if fb != nil {
		x[1] = fb.rayHits(ca, down, v.rng)
		x[2] = fb.rayHits(ca, up, v.rng)
		x[3] = fb.contains(ca)
	}
	x[4] = v.ba.Min[2]+dz <= v.bb.Min[2]+v.standTolerance
	if fa != nil {
		sa := shiftZ(*fa, dz)
		x[5] = sa.rayHits(v.cb, up, v.rng)
	}
	return x
}

// touchAt is touching with a displaced by dz (three-valued over the
// horizontal displacement).
func (v *stackView) touchAt(dz float64) Truth {
	var lo, hi float64
	if v.axisAligned {
		ba := v.ba
		ba.Min[2] += dz
		ba.Max[2] += dz
		lo, hi = gapBounds(ba, v.bb, v.uh, 0)
	} else {
		sa := shiftZ(v.fa, dz)
		lo, hi = separationBounds(&sa, &v.fb, v.uh, 0)
	}
	return between(hi <= v.touchTol, lo <= v.touchTol)
}

// decide is the value of f over every displacement within (uh, uv): at
// every height that may differ, with the boxes nominal, shrunk and grown
// by the horizontal displacement's reach, touching both ways when it is
// undecided.
func (v *stackView) decide(uv float64, f func(x []bool) bool) Truth {
	bps := v.breakpoints()
	seenT, seenF := false, false
	type scenario struct{ fb, fa *frame3 }
	// A box smaller than the displacement's reach vanishes when shrunk:
	// the grown one and the nominal one stand for it.
	in := scenario{&v.inB, &v.inA}
	if !v.inBok {
		in.fb = nil // vanished: the rays may miss it
	}
	if !v.inAok {
		in.fa = nil
	}
	scen := [3]scenario{{&v.fb, &v.fa}, {&v.outB, &v.outA}, in}
	heights(uv, bps[:], func(dz float64) bool {
		touch := v.touchAt(dz)
		for _, sc := range scen {
			x := v.tests(dz, sc.fb, sc.fa)
			for _, tv := range [2]bool{true, false} {
				if touch == TruthOf(!tv) {
					continue
				}
				x[0] = tv
				if f(x[:]) {
					seenT = true
				} else {
					seenF = true
				}
			}
		}
		return !(seenT && seenF)
	})
	return between(seenT && !seenF, seenT)
}

func ontopUncertain(p *Program, s *State, a, b ObjectID, t Truth, tsrc Source, uh, uv float64) (Truth, Source) {
	v, ok := newStackView(p, s, a, b, uh)
	if !ok {
		return combine(t, tsrc, Unknown, false)
	}
	recorded := tsrc != SourceGeometry && tsrc != SourceUncertain // a contact list decided touching
	g := v.decide(uv, func(x []bool) bool {
		below, above := decidePair(v.enclosure, x[1], x[2], x[3], x[4])
		return (recorded || x[0]) && below && !above
	})
	if recorded {
		return combineT(t, tsrc, g)
	}
	return geometric(g)
}

func underUncertain(p *Program, s *State, a, b ObjectID, uh, uv float64) (Truth, Source) {
	v, ok := newStackView(p, s, a, b, uh)
	if !ok {
		return Unknown, SourceMissing
	}
	return geometric(v.decide(uv, func(x []bool) bool {
		below, above := decidePair(v.enclosure, x[1], x[2], x[3], x[4])
		return above && !below && !x[5]
	}))
}

func nexttoUncertain(p *Program, s *State, a, b ObjectID, ba, bb Box, limit, uh, uv float64) (Truth, Source) {
	lo, hi := gapBounds(ba, bb, uh, uv)
	near := between(hi <= limit, lo <= limit)
	if near == False {
		return False, SourceGeometry
	}
	hit := func(from, to ObjectID) Truth {
		c, ok1 := s.center(from)
		f, ok2 := s.frame(to)
		if !ok1 || !ok2 {
			return False
		}
		seen := False
		for _, d := range p.rays {
			switch rayT(f, c, d, p.opts.Geometry.HorizontalRange, uh, uv) {
			case True:
				return True
			case Unknown:
				seen = Unknown
			}
		}
		return seen
	}
	return geometric(near.And(hit(a, b).Or(hit(b, a))))
}

// overlapBounds bounds the footprint overlap of a displaced by up to uh
// along x and y with b.
func overlapBounds(a, b Box, uh float64) (lo, hi float64) {
	w := min(a.Max[0], b.Max[0]) - max(a.Min[0], b.Min[0])
	d := min(a.Max[1], b.Max[1]) - max(a.Min[1], b.Min[1])
	ea, eb := a.Extent(), b.Extent()
	wl, dl := max(0, w-uh), max(0, d-uh)
	wh, dh := max(0, min(w+uh, ea[0], eb[0])), max(0, min(d+uh, ea[1], eb[1]))
	return wl * dl, wh * dh
}

// uncertaintyDetail states the boxes' error and the margins the tests
// were decided on: the touching tolerance less the gap, how far a's
// centre lies inside b's footprint (negative: outside), and its height
// above b's top.
func uncertaintyDetail(p *Program, s *State, a, b ObjectID, uh, uv float64) string {
	out := "boxes off by up to " + fmtGeom(uh) + " m horizontally, " + fmtGeom(uv) + " m vertically"
	if d, ok := s.boxDistance(a, b); ok {
		out += "; margins: touching " + fmtGeom(p.opts.Geometry.TouchTolerance-d) + " m"
	}
	ca, okA := s.center(a)
	bb, okB := s.box(b)
	if okA && okB {
		depth := min(ca[0]-bb.Min[0], bb.Max[0]-ca[0], ca[1]-bb.Min[1], bb.Max[1]-ca[1])
		out += ", footprint " + fmtGeom(depth) + " m, centre above top " + fmtGeom(ca[2]-bb.Max[2]) + " m"
		if ba, ok := s.box(a); ok {
			out += ", bottoms " + fmtGeom(ba.Min[2]-bb.Min[2]) + " m"
		}
	}
	return out
}
