package predicates

import (
	"fmt"
	"math"
)

// Particle predicates (SEMANTICS.md B §1.5). The recording carries the
// counts the simulator computes from particle positions and container
// volumes; these rules apply the reference thresholds to them.

func registerParticles() {
	register(predContains, predicate{name: "contains", arity: 2, second: argSubstance, domains: inOmniGibson,
		rule: ruleContains, detail: particleDetail,
		doc: "inside count > 0 (else fill_fraction > 0)"})
	register(predEmpty, predicate{name: "empty", arity: 2, second: argSubstance, domains: inExtension, partner: predFilled,
		rule: ruleEmpty, detail: particleDetail,
		doc: "no particle of the substance inside (the strict partner of filled)"})
	register(predFilled, predicate{name: "filled", arity: 2, second: argSubstance, domains: inOmniGibson, partner: predEmpty,
		rule: ruleFilled, detail: particleDetail,
		doc: "fill_fraction > 0.2 (an inside count of 0 is not filled)"})
	register(predCovered, predicate{name: "covered", arity: 2, second: argSubstance, domains: inOmniGibson,
		rule: ruleCovered, detail: particleDetail,
		doc: "covering count ≥ 1"})
	register(predSaturated, predicate{name: "saturated", arity: 2, second: argSubstance, domains: inOmniGibson | inIGibson,
		rule: ruleSaturated, detail: saturatedDetail,
		doc: "absorbed count ≥ its limit (recorded, else 200 visual / 400 physical for particle removers, 1e6 otherwise)"})
	register(predInsource, predicate{name: "insource", arity: 2, second: argSubstance, domains: inOmniGibson, static: True,
		rule:   func(*Program, *State, ObjectID, ObjectID) (Truth, Source) { return True, SourceStatic },
		detail: func(*Program, *State, ObjectID, ObjectID) string { return "insource always holds in the reference" },
		doc:    "always True, as in the reference (folded at compile time)"})
}

func known(v float64) bool { return !math.IsNaN(v) }

func ruleContains(_ *Program, s *State, a, b ObjectID) (Truth, Source) {
	// On existing objects empty is exactly not contains.
	if t := s.Fact(predEmpty, a, b); t != Unknown {
		return t.Not(), SourceFact
	}
	return containsFromCounts(s, a, b)
}

func containsFromCounts(s *State, a, b ObjectID) (Truth, Source) {
	r := s.particlesOf(a, b)
	switch {
	case r == nil:
		return Unknown, SourceMissing
	case known(r.Inside):
		return TruthOf(r.Inside > 0), SourceQuantity
	case known(r.FillFraction):
		return TruthOf(r.FillFraction > 0), SourceQuantity
	}
	return Unknown, SourceMissing
}

func ruleEmpty(_ *Program, s *State, a, b ObjectID) (Truth, Source) {
	if t := s.Fact(predContains, a, b); t != Unknown {
		return t.Not(), SourceFact
	}
	v, src := containsFromCounts(s, a, b)
	return v.Not(), src
}

func ruleFilled(p *Program, s *State, a, b ObjectID) (Truth, Source) {
	r := s.particlesOf(a, b)
	switch {
	case r == nil:
		return Unknown, SourceMissing
	case known(r.FillFraction):
		return TruthOf(r.FillFraction > p.opts.Particles.FillFraction), SourceQuantity
	case known(r.Inside) && r.Inside <= 0:
		return False, SourceQuantity
	}
	return Unknown, SourceMissing
}

func ruleCovered(p *Program, s *State, a, b ObjectID) (Truth, Source) {
	r := s.particlesOf(a, b)
	if r == nil || !known(r.Covering) {
		return Unknown, SourceMissing
	}
	return TruthOf(r.Covering >= p.opts.Particles.CoverCount), SourceQuantity
}

// saturationLimit is the recorded limit, else the reference's default
// for this object and substance (SEMANTICS.md B §1.5.5).
func (p *Program) saturationLimit(r *Particles, a, b ObjectID) float64 {
	if known(r.AbsorbLimit) {
		return r.AbsorbLimit
	}
	pt := &p.opts.Particles
	if p.objs[a].remover {
		if p.objs[b].visual {
			return pt.VisualRemovalLimit
		}
		return pt.PhysicalRemovalLimit
	}
	return pt.DefaultLimit
}

func ruleSaturated(p *Program, s *State, a, b ObjectID) (Truth, Source) {
	r := s.particlesOf(a, b)
	if r == nil || !known(r.Absorbed) {
		return Unknown, SourceMissing
	}
	// The simulator's counter never exceeds the limit, so its == test is
	// a ≥ test; ≥ also tolerates recordings that round.
	return TruthOf(r.Absorbed >= p.saturationLimit(r, a, b)), SourceQuantity
}

func particleDetail(p *Program, s *State, a, b ObjectID) string {
	r := s.particlesOf(a, b)
	if r == nil {
		return fmt.Sprintf("missing particles of %s at %s", p.Name(b), p.Name(a))
	}
	var parts []string
	add := func(name string, v float64) {
		if known(v) {
			parts = append(parts, name+" "+fmtMeasured(v))
		}
	}
	add("inside", r.Inside)
	add("fill_fraction", r.FillFraction)
	add("covering", r.Covering)
	add("absorbed", r.Absorbed)
	if len(parts) == 0 {
		return fmt.Sprintf("missing particles of %s at %s", p.Name(b), p.Name(a))
	}
	return fmt.Sprintf("%s of %s (fill threshold %s, cover threshold %s)", joinComma(parts), p.Name(b),
		fmtParam(p.opts.Particles.FillFraction), fmtParam(p.opts.Particles.CoverCount))
}

func saturatedDetail(p *Program, s *State, a, b ObjectID) string {
	r := s.particlesOf(a, b)
	if r == nil || !known(r.Absorbed) {
		return fmt.Sprintf("missing absorbed count of %s at %s", p.Name(b), p.Name(a))
	}
	limit := p.saturationLimit(r, a, b)
	op := ">="
	if r.Absorbed < limit {
		op = "<"
	}
	origin := "recorded limit"
	if !known(r.AbsorbLimit) {
		origin = "default limit"
	}
	return fmt.Sprintf("absorbed %s %s %s (%s)", fmtMeasured(r.Absorbed), op, fmtParam(limit), origin)
}

func joinComma(parts []string) string {
	out := ""
	for i, s := range parts {
		if i > 0 {
			out += ", "
		}
		out += s
	}
	return out
}
