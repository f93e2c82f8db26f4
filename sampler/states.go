package sampler

import (
	"fmt"
	"math"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// Non-kinematic states (SEMANTICS.md B §2.1): temperatures in the
// reference's sampling ranges, joints past the open threshold, toggles,
// particle counts, cloth ratios, attachment pointers. Every literal on an
// object narrows an interval or fixes a flag; an empty interval or two
// opposite flags is a contradiction, reported with the literal.

const roomTemperature = 23.0

// interval is a closed range of values a quantity may take.
type interval struct{ lo, hi float64 }

func anyValue() interval { return interval{math.Inf(-1), math.Inf(1)} }

func (v interval) empty() bool { return v.lo > v.hi }

// tri is an unset, true or false flag.
type tri int8

const (
	unset tri = iota
	yes
	no
)

type particleNeeds struct {
	filled, contains, covered, saturated tri
}

type objectStates struct {
	temp, maxTemp     interval
	tempPref, maxPref [2]float64 // the reference's sampling range when a literal set one
	hasTempPref       bool
	hasMaxPref        bool
	toggled, open     tri
	folded, unfolded  tri
	broken, sliced    tri
	attached          int
	foldLevel         int // times placement folded a cloth to fit
	particles         map[int]*particleNeeds

	// chosen values
	T, MaxT float64
	jointQ  float64
	cloth   predicates.Cloth
}

func newObjectStates() objectStates {
	return objectStates{temp: anyValue(), maxTemp: anyValue(), attached: -1}
}

func setTri(t *tri, v bool, l *literal, what string) *Failure {
	want := no
	if v {
		want = yes
	}
	if *t != unset && *t != want {
		return failf(Contradiction, l, nil, "%s is asked both ways", what)
	}
	*t = want
	return nil
}

// thresholds of an instance's synset, as the evaluator reads them.
func (pl *plan) thresholds(i int) kb.Thresholds {
	if syn := pl.inst[i].syn; syn != kb.NoSynset {
		return pl.s.base.Thresholds(syn)
	}
	return kb.Thresholds{Cook: kb.DefaultCookTemperature, Burn: kb.DefaultBurnTemperature, Heat: kb.DefaultHeatTemperature,
		Freeze: kb.DefaultFreezeTemperature, Ignition: kb.DefaultIgnitionTemperature, Fire: 1000}
}

func (pl *plan) setStates() *Failure {
	for k := range pl.lits {
		l := &pl.lits[k]
		in := &pl.inst[l.a]
		if !in.exists {
			continue // every atom over it is false; existence() rejected positive ones
		}
		st := &in.st
		thr := pl.thresholds(l.a)
		pos := !l.neg
		var fail *Failure
		switch l.name {
		case "cooked":
			fail = bound(&st.maxTemp, pos, thr.Cook, l)
			if pos {
				st.maxPref, st.hasMaxPref = [2]float64{thr.Cook, thr.Cook + 20}, true
			}
		case "burnt":
			fail = bound(&st.maxTemp, pos, thr.Burn, l)
			if pos {
				st.maxPref, st.hasMaxPref = [2]float64{thr.Burn, thr.Burn + 20}, true
			}
		case "hot":
			fail = bound(&st.temp, pos, thr.Heat, l)
			if pos {
				st.tempPref, st.hasTempPref = [2]float64{thr.Heat + 10, thr.Heat + 20}, true
			}
		case "on_fire":
			fail = bound(&st.temp, pos, thr.Ignition, l)
			if pos {
				fire := thr.Fire
				if fire < thr.Ignition {
					fire = thr.Ignition
				}
				st.tempPref, st.hasTempPref = [2]float64{fire, fire}, true
			}
		case "frozen":
			// frozen is temperature ≤ freeze: the opposite direction.
			if pos {
				st.temp.hi = min(st.temp.hi, thr.Freeze)
				st.tempPref, st.hasTempPref = [2]float64{thr.Freeze - 50, thr.Freeze - 10}, true
			} else {
				st.temp.lo = max(st.temp.lo, thr.Freeze+1)
			}
			if st.temp.empty() {
				fail = failf(Contradiction, l, nil, "no temperature of %s satisfies every temperature literal", in.name)
			}
		case "open":
			fail = setTri(&st.open, pos, l, "open of "+in.name)
		case "toggled_on":
			fail = setTri(&st.toggled, pos, l, "toggled_on of "+in.name)
		case "folded":
			fail = setTri(&st.folded, pos, l, "folded of "+in.name)
		case "unfolded":
			fail = setTri(&st.unfolded, pos, l, "unfolded of "+in.name)
		case "broken":
			fail = setTri(&st.broken, pos, l, "broken of "+in.name)
		case "sliced":
			fail = setTri(&st.sliced, pos, l, "sliced of "+in.name)
		case "attached":
			switch {
			case pos && st.attached >= 0 && st.attached != l.b:
				fail = failf(Contradiction, l, nil, "%s is attached to two parents", in.name)
			case pos:
				st.attached = l.b
			case st.attached == l.b:
				fail = failf(Contradiction, l, nil, "%s is attached to %s and not", in.name, pl.inst[l.b].name)
			}
		case "filled", "contains", "covered", "saturated":
			if st.particles == nil {
				st.particles = map[int]*particleNeeds{}
			}
			pn := st.particles[l.b]
			if pn == nil {
				pn = &particleNeeds{}
				st.particles[l.b] = pn
			}
			what := l.name + " of " + in.name + " with " + pl.inst[l.b].name
			switch l.name {
			case "filled":
				fail = setTri(&pn.filled, pos, l, what)
			case "contains":
				fail = setTri(&pn.contains, pos, l, what)
			case "covered":
				fail = setTri(&pn.covered, pos, l, what)
			default:
				fail = setTri(&pn.saturated, pos, l, what)
			}
			if fail == nil && pn.filled == yes && pn.contains == no {
				fail = failf(Contradiction, l, nil, "%s cannot be filled with %s and not contain it", in.name, pl.inst[l.b].name)
			}
		case "grasped":
			fail = failf(Unsupported, l, nil, "grasped has no setter: the reference does not implement it")
		case "inroom", "future", "real", "insource":
		default:
			if !isKinematic(l.name) {
				// Legacy predicates defined only by recorded facts.
				continue
			}
		}
		if fail != nil {
			return fail
		}
		if st.folded == yes && st.unfolded == yes {
			return failf(Contradiction, l, nil, "%s cannot be folded and unfolded at once", in.name)
		}
	}
	for i := range pl.inst {
		if fail := pl.chooseValues(i); fail != nil {
			return fail
		}
	}
	return nil
}

// bound narrows v to ≥ thr (pos) or < thr (not), the latter one degree
// below as the reference's setter does.
func bound(v *interval, pos bool, thr float64, l *literal) *Failure {
	if pos {
		v.lo = max(v.lo, thr)
	} else {
		v.hi = min(v.hi, thr-1)
	}
	if v.empty() {
		return failf(Contradiction, l, nil, "no temperature of %s satisfies every temperature literal", l.plan.inst[l.a].name)
	}
	return nil
}

// pick chooses a value in v: the preferred range when it meets v, else
// room temperature when v holds it, else a point just inside v.
func (pl *plan) pick(v interval, pref [2]float64, hasPref bool) float64 {
	if hasPref {
		lo, hi := max(pref[0], v.lo), min(pref[1], v.hi)
		if lo < hi {
			return uniform(pl.rng, lo, hi)
		}
		if lo == hi {
			return lo
		}
	}
	if within(roomTemperature, v.lo, v.hi) {
		return roomTemperature
	}
	if v.lo > roomTemperature {
		return v.lo + min(5, (v.hi-v.lo)/2)
	}
	return v.hi - min(5, (v.hi-v.lo)/2)
}

func (pl *plan) chooseValues(i int) *Failure {
	in := &pl.inst[i]
	st := &in.st
	if !in.exists || in.substance {
		return nil
	}
	st.T = pl.pick(st.temp, st.tempPref, st.hasTempPref)
	// The maximum temperature is at least the current one.
	mt := st.maxTemp
	mt.lo = max(mt.lo, st.T)
	if mt.empty() {
		return &Failure{Kind: Contradiction, Objects: []string{in.name},
			Message: fmt.Sprintf("%s must be at %.0f °C now but never have exceeded %.0f °C", in.name, st.T, st.maxTemp.hi)}
	}
	if within(st.T, mt.lo, mt.hi) && !st.hasMaxPref {
		st.MaxT = st.T
	} else {
		st.MaxT = pl.pick(mt, st.maxPref, st.hasMaxPref)
	}
	thr := pl.s.opts.OpenThreshold
	if thr == 0 {
		thr = predicates.DefaultOpenThreshold
	}
	const jointRange = math.Pi / 2
	switch st.open {
	case yes:
		st.jointQ = uniform(pl.rng, (thr+0.2)*jointRange, jointRange)
	default:
		st.jointQ = uniform(pl.rng, 0, thr*0.5*jointRange)
	}
	switch {
	case st.folded == yes || st.unfolded == no || st.foldLevel > 0:
		st.cloth = predicates.Cloth{AreaRatio: 0.5, DiagonalRatio: 0.7, Smoothness: 0.9}
	default:
		st.cloth = predicates.Cloth{AreaRatio: 1, DiagonalRatio: 1, Smoothness: 1}
	}
	return nil
}

// particlesFor is the record of one (object, substance) pair.
func (pl *plan) particlesFor(i, sub int) predicates.Particles {
	p := predicates.Particles{Inside: 0, FillFraction: 0, Covering: 0, Absorbed: 0, AbsorbLimit: math.NaN()}
	pn := pl.inst[i].st.particles[sub]
	if pn == nil {
		return p
	}
	// The draws come from a source of their own per pair so a record does
	// not depend on which other pairs exist.
	rng := newRand(uint64(i)<<32|uint64(sub), pl.inst[i].name, pl.inst[sub].name, pl.req.Index)
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }
	switch {
	case pn.filled == yes:
		p.FillFraction = math.Round(u(0.3, 0.8)*1000) / 1000
		p.Inside = math.Round(p.FillFraction * 500)
	case pn.contains == yes:
		p.FillFraction = math.Round(u(0.02, 0.15)*1000) / 1000
		p.Inside = math.Max(1, math.Round(p.FillFraction*500))
	}
	if pn.covered == yes {
		p.Covering = float64(5 + rng.IntN(46))
	}
	if pn.saturated == yes {
		p.AbsorbLimit = pl.saturationLimit(i, sub)
		p.Absorbed = p.AbsorbLimit
	}
	return p
}

func (pl *plan) saturationLimit(i, sub int) float64 {
	b := pl.s.base
	syn, ssyn := pl.inst[i].syn, pl.inst[sub].syn
	if syn != kb.NoSynset && b.Has(syn, kb.ParticleRemover) {
		if ssyn != kb.NoSynset && b.Has(ssyn, kb.VisualSubstance) {
			return predicates.DefaultVisualRemovalLimit
		}
		return predicates.DefaultPhysicalRemovalLimit
	}
	return predicates.DefaultSaturationLimit
}
