package transitions

// Heat cooking (heat_cook) and substance cooking (SEMANTICS.md B §4.4.4,
// §4.4.5).

import (
	"math"

	"github.com/openbddl/bddl/predicates"
)

// heatCook is CookingObjectRule and CookingSystemRule (transition_rules.py
// CookingRule). The rule is active while a fillable, not fixed-base
// container and a heatSource object exist (refresh_rules); every active
// step its TimeIncrementCondition advances the clock; then at least one
// heat source must be active (StateCondition on HeatSourceOrSink). For each
// container, recipes are tried in order: one is executable when a source
// it allows affects the container and its inputs are there; then its
// consecutive-step counter, kept per recipe (not per container), goes on
// from the last step it was executable or restarts at 1
// (_is_recipe_executable); the first recipe whose counter reaches
// timesteps fires. A second container executable for the same recipe on
// the same step restarts the counter, as in the reference.
func (e *Engine) heatCook() {
	c := e.c
	if len(c.cook) == 0 {
		return
	}
	active := false
	for _, cont := range c.cookContainer {
		if e.exists(cont) {
			active = true
			break
		}
	}
	anySource, anyOn := false, false
	for k := range c.heatSources {
		h := &c.heatSources[k]
		ex := e.exists(h.obj)
		anySource = anySource || ex
		act := ex &&
			(!h.params.RequiresToggledOn || e.at(pToggledOn, h.obj, NoObject) == predicates.True) &&
			(!h.params.RequiresClosed || e.at(pOpen, h.obj, NoObject) == predicates.False)
		e.heatAct[k] = act
		anyOn = anyOn || act
	}
	if !active || !anySource {
		return
	}
	e.cookClock++
	if !anyOn {
		return
	}
	for _, cont := range c.cookContainer {
		if !e.exists(cont) || e.busy[cont] {
			continue
		}
		gathered := false
		for ri, rc := range c.cook {
			if !rc.okContainer[cont] {
				continue
			}
			heat := e.heatFor(rc, cont)
			if heat == NoObject {
				continue
			}
			if !gathered {
				e.gather(cont, false)
				gathered = true
			}
			mark := len(e.objBuf)
			p := e.newPlan(HeatCook, rc.index, cont)
			if !e.tryRecipe(rc, p) {
				e.dropPlan(mark)
				continue
			}
			if e.mem.cookLast[ri] == e.cookClock-1 {
				// Executable at the previous recorded step too: so were
				// the simulator steps a recording skipped in between.
				e.mem.cookCount[ri] += e.elapsed
			} else {
				e.mem.cookCount[ri] = 1
			}
			e.mem.cookLast[ri] = e.cookClock
			if e.mem.cookCount[ri] < rc.timesteps {
				e.dropPlan(mark)
				continue
			}
			p.heat = heat
			e.markBusy(cont)
			break
		}
	}
}

// dropPlan forgets the last plan, releasing what it had taken.
func (e *Engine) dropPlan(mark int) {
	p := &e.plans[len(e.plans)-1]
	for _, o := range e.objBuf[p.cons[0]:p.cons[1]] {
		e.taken[o] = false
	}
	e.relBuf = e.relBuf[:p.rels[0]]
	e.objBuf = e.objBuf[:mark]
	e.plans = e.plans[:len(e.plans)-1]
}

// heatFor returns an active heat source that affects the container and is
// one the recipe allows, or NoObject (SEMANTICS.md B §1.4.2, §4.4.5).
func (e *Engine) heatFor(rc *recipe, cont ObjectID) ObjectID {
	c := e.c
	for k := range c.heatSources {
		if !e.heatAct[k] {
			continue
		}
		h := &c.heatSources[k]
		if h.obj == cont {
			continue
		}
		if len(rc.heat) > 0 {
			ok := false
			for _, a := range rc.heat {
				ok = ok || c.base.IsA(h.syn, a)
			}
			if !ok {
				continue
			}
		}
		if e.affects(h, cont) {
			return h.obj
		}
	}
	return NoObject
}

func (e *Engine) affects(h *heatSource, cont ObjectID) bool {
	if h.params.RequiresInside {
		return e.at(pInside, cont, h.obj) == predicates.True
	}
	if e.at(pOntop, cont, h.obj) == predicates.True {
		return true
	}
	cc, ok1 := e.s.Center(cont)
	hb, ok2 := e.s.Box(h.obj)
	if !ok1 || !ok2 || e.s.Has(cont, predicates.FieldAABB|predicates.FieldOBB) == 0 {
		return false
	}
	var d2 float64
	for k := 0; k < 3; k++ {
		v := math.Max(0, math.Max(hb.Min[k]-cc[k], cc[k]-hb.Max[k]))
		d2 += v * v
	}
	return math.Sqrt(d2) <= h.params.DistanceThreshold
}

// substanceCooking is CookingPhysicalParticleRule (transition_rules.py):
// fillable, not fixed-base, heatable containers that are Heated; the first
// recipe whose input systems the container holds replaces them with the
// cooked system (other systems and objects are ignored; no garbage).
func (e *Engine) substanceCooking() {
	c := e.c
	for _, cont := range c.substCont {
		if !e.exists(cont) || e.busy[cont] || e.at(pHot, cont, NoObject) != predicates.True {
			continue
		}
		e.gatherSystems(cont)
		if len(e.systems) == 0 {
			continue
		}
		for _, rc := range c.substCook {
			if !rc.okContainer[cont] {
				continue
			}
			mark := len(e.objBuf)
			p := e.newPlan(rc.rule.Family, rc.index, cont)
			if e.tryRecipe(rc, p) {
				e.markBusy(cont)
				break
			}
			e.dropPlan(mark)
		}
	}
}
