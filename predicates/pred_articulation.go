package predicates

import (
	"fmt"
	"math"
	"strings"
)

// Articulation, toggle and cloth-shape predicates (SEMANTICS.md B §1.6)
// and the stored flags of the legacy domain.

func registerArticulation() {
	register(predOpen, predicate{name: "open", arity: 1, domains: inOmniGibson | inIGibson, partner: predClosed,
		rule: ruleOpen, detail: openDetail,
		doc: "a relevant joint is more than 5 % of its range past its closed end (both directions when openable both sides); else open_fraction > 0.05"})
	register(predClosed, predicate{name: "closed", arity: 1, domains: inExtension, partner: predOpen,
		rule: ruleClosed, detail: openDetail,
		doc: "no relevant joint past the open threshold (the strict partner of open)"})
	register(predToggledOn, predicate{name: "toggled_on", arity: 1, domains: inOmniGibson | inIGibson,
		rule: flagRule(FieldToggledOn, func(o *objState) bool { return o.toggled }), detail: flagDetail("toggled_on", FieldToggledOn, func(o *objState) bool { return o.toggled }),
		doc: "the recorded toggled_on flag"})
	register(predFolded, predicate{name: "folded", arity: 1, domains: inOmniGibson, partner: predUnfolded,
		rule: ruleFolded, detail: clothDetail,
		doc: "smoothness ≥ 0.5 ∧ area_ratio < 0.75 ∧ diagonal_ratio < 0.85"})
	register(predUnfolded, predicate{name: "unfolded", arity: 1, domains: inOmniGibson, partner: predFolded,
		rule: ruleUnfolded, detail: clothDetail,
		doc: "smoothness ≥ 0.5 ∧ area_ratio ≥ 0.9 ∧ diagonal_ratio ≥ 0.9"})
	register(predBroken, predicate{name: "broken", arity: 1, domains: inOmniGibson | inIGibson,
		rule: flagRule(FieldBroken, func(o *objState) bool { return o.broken }), detail: flagDetail("broken", FieldBroken, func(o *objState) bool { return o.broken }),
		doc: "the recorded broken flag (the reference does not implement it)"})
	register(predSliced, predicate{name: "sliced", arity: 1, domains: inIGibson,
		rule: flagRule(FieldSliced, func(o *objState) bool { return o.sliced }), detail: flagDetail("sliced", FieldSliced, func(o *objState) bool { return o.sliced }),
		doc: "the recorded sliced flag (legacy)"})
}

// jointOpen says whether one joint is past its open threshold when it
// opens in direction dir (SEMANTICS.md B §1.6.1): strictly past the point
// a fraction t of the range away from the closed end, with no clamp at
// the open end because positions may overshoot their limits.
func jointOpen(j Joint, dir int8, t float64) bool {
	closedEnd, openEnd := j.Lo, j.Hi
	if dir < 0 {
		closedEnd, openEnd = j.Hi, j.Lo
	}
	thr := (1-t)*closedEnd + t*openEnd
	if dir < 0 {
		return j.Q < thr
	}
	return j.Q > thr
}

func sideOpen(joints []Joint, side int8, t float64) bool {
	for _, j := range joints {
		d := j.Dir
		if d == 0 {
			d = 1
		}
		if jointOpen(j, d*side, t) {
			return true
		}
	}
	return false
}

func ruleOpen(p *Program, s *State, a, _ ObjectID) (Truth, Source) {
	// On an existing object open and closed are complements (their middle
	// band is only existence), so a recorded closed decides open.
	if t := s.Fact(predClosed, a, NoObject); t != Unknown {
		return t.Not(), SourceFact
	}
	return openFromJoints(p, s, a)
}

func openFromJoints(p *Program, s *State, a ObjectID) (Truth, Source) {
	o := &s.obj[a]
	t := p.opts.OpenThreshold
	switch {
	case o.has&FieldJoints != 0 && len(o.joints) > 0:
		open := sideOpen(o.joints, 1, t)
		if o.bothSides {
			open = open && sideOpen(o.joints, -1, t)
		}
		return TruthOf(open), SourceQuantity
	case o.has&FieldOpenFraction != 0:
		return TruthOf(o.openFrac > t), SourceQuantity
	}
	return Unknown, SourceMissing
}

func ruleClosed(p *Program, s *State, a, _ ObjectID) (Truth, Source) {
	if t := s.Fact(predOpen, a, NoObject); t != Unknown {
		return t.Not(), SourceFact
	}
	v, src := openFromJoints(p, s, a)
	return v.Not(), src
}

func openDetail(p *Program, s *State, a, _ ObjectID) string {
	o := &s.obj[a]
	t := p.opts.OpenThreshold
	switch {
	case o.has&FieldJoints != 0 && len(o.joints) > 0:
		var parts []string
		for _, j := range o.joints {
			d := j.Dir
			if d == 0 {
				d = 1
			}
			state := "closed"
			if jointOpen(j, d, t) {
				state = "open"
			}
			parts = append(parts, fmt.Sprintf("q %s in [%s, %s] dir %+d: %s", fmtMeasured(j.Q), fmtParam(j.Lo), fmtParam(j.Hi), d, state))
		}
		return "joints " + strings.Join(parts, "; ") + fmt.Sprintf(" (threshold %s of range)", fmtParam(t))
	case o.has&FieldOpenFraction != 0:
		op := "<="
		if o.openFrac > t {
			op = ">"
		}
		return fmt.Sprintf("open_fraction %s %s %s", fmtMeasured(o.openFrac), op, fmtParam(t))
	}
	return "missing joints and open_fraction"
}

func flagRule(f Field, get func(*objState) bool) ruleFunc {
	return func(_ *Program, s *State, a, _ ObjectID) (Truth, Source) {
		o := &s.obj[a]
		if o.has&f == 0 {
			return Unknown, SourceMissing
		}
		return TruthOf(get(o)), SourceQuantity
	}
}

func flagDetail(name string, f Field, get func(*objState) bool) detailFunc {
	return func(_ *Program, s *State, a, _ ObjectID) string {
		o := &s.obj[a]
		if o.has&f == 0 {
			return "missing " + name
		}
		return fmt.Sprintf("%s recorded %v", name, get(o))
	}
}

// cmpKnown compares a possibly unrecorded (NaN) quantity.
func cmpKnown(v float64, holds func(float64) bool) Truth {
	if math.IsNaN(v) {
		return Unknown
	}
	return TruthOf(holds(v))
}

func ruleFolded(p *Program, s *State, a, _ ObjectID) (Truth, Source) {
	o := &s.obj[a]
	if o.has&FieldCloth == 0 {
		return Unknown, SourceMissing
	}
	c := &p.opts.Cloth
	v := cmpKnown(o.cloth.Smoothness, func(x float64) bool { return x >= c.MinSmoothness }).
		And(cmpKnown(o.cloth.AreaRatio, func(x float64) bool { return x < c.FoldedArea })).
		And(cmpKnown(o.cloth.DiagonalRatio, func(x float64) bool { return x < c.FoldedDiagonal }))
	return v, quantityOrMissing(v)
}

func ruleUnfolded(p *Program, s *State, a, _ ObjectID) (Truth, Source) {
	o := &s.obj[a]
	if o.has&FieldCloth == 0 {
		return Unknown, SourceMissing
	}
	c := &p.opts.Cloth
	v := cmpKnown(o.cloth.Smoothness, func(x float64) bool { return x >= c.MinSmoothness }).
		And(cmpKnown(o.cloth.AreaRatio, func(x float64) bool { return x >= c.UnfoldedArea })).
		And(cmpKnown(o.cloth.DiagonalRatio, func(x float64) bool { return x >= c.UnfoldedDiagonal }))
	return v, quantityOrMissing(v)
}

func quantityOrMissing(v Truth) Source {
	if v == Unknown {
		return SourceMissing
	}
	return SourceQuantity
}

func clothDetail(_ *Program, s *State, a, _ ObjectID) string {
	o := &s.obj[a]
	if o.has&FieldCloth == 0 {
		return "missing cloth shape"
	}
	show := func(v float64) string {
		if math.IsNaN(v) {
			return "missing"
		}
		return fmtMeasured(v)
	}
	return fmt.Sprintf("smoothness %s, area_ratio %s, diagonal_ratio %s",
		show(o.cloth.Smoothness), show(o.cloth.AreaRatio), show(o.cloth.DiagonalRatio))
}
