package transitions

// Slicing, dicing and melting (transition_rules.py SlicingRule,
// DicingRule, MeltingRule; object_states/slicer_active.py).

import (
	"github.com/openbddl/bddl/predicates"
)

// slicerActive is SlicerActive._update_values (slicer_active.py), run as
// the reference runs object-state updates: before the rules of the step.
// A slicer that touched an object with the sliceable ability at the
// previous step turns inactive; an inactive slicer counts the steps on
// which it touches no sliceable (a touch resets the count) and turns active
// again when the count reaches max(1, ⌈2.0 s / dt⌉). Only sliceable
// objects count: touching a diceable half does not disarm a knife. When
// the recording skipped simulator steps (SetElapsed), the skipped steps
// are updated first with the contacts the previous step left (a recording
// keeps a value until it changes).
func (e *Engine) slicerActive() {
	c := e.c
	// Beyond reactStep+1 identical steps nothing changes any more.
	skipped := min(e.elapsed-1, e.reactStep+1)
	for k, t := range c.slicers {
		for range skipped {
			e.slicerUpdate(k, e.mem.slicerAfter[k])
		}
		e.slicerUpdate(k, e.exists(t) && (e.touchingSliceable(t) || (len(e.anon) > 0 && e.touchingAnonSliceable(t))))
	}
}

// slicerUpdate is one step of SlicerActive for slicer k, touching a
// sliceable object or not.
func (e *Engine) slicerUpdate(k int, cur bool) {
	if e.mem.slicerPrev[k] {
		e.mem.slicerOn[k], e.mem.slicerIdle[k] = false, 0
	}
	if !e.mem.slicerOn[k] {
		if cur {
			e.mem.slicerIdle[k] = 0
		} else {
			e.mem.slicerIdle[k]++
		}
		if e.mem.slicerIdle[k] >= e.reactStep {
			e.mem.slicerOn[k] = true
		}
	}
	e.mem.slicerPrev[k] = cur
	e.mem.slicerAfter[k] = cur
}

// touchingSliceable reports whether slicer t touches an existing object
// with the sliceable ability.
func (e *Engine) touchingSliceable(t ObjectID) bool {
	for _, o := range e.c.sliceables {
		if o != t && e.exists(o) && e.touching(t, o) {
			return true
		}
	}
	return false
}

// slicersAfter records, after a step's rules removed objects, whether
// each slicer still touches a sliceable: the contacts of the simulator
// steps a recording skips before its next line.
func (e *Engine) slicersAfter() {
	for k, t := range e.c.slicers {
		e.mem.slicerAfter[k] = e.exists(t) && (e.touchingSliceable(t) || (len(e.anon) > 0 && e.touchingAnonSliceable(t)))
	}
}

// slicing is SlicingRule and DicingRule (transition_rules.py). Their
// conditions are TouchingAnyCondition(sliceable|diceable, slicer) and then
// StateCondition(slicer, SlicerActive): an object touching any slicer, even
// an inactive one, is cut when some slicer in the scene is active.
func (e *Engine) slicing() {
	c := e.c
	if len(c.slicers) == 0 {
		return
	}
	e.slicerActive()
	anyActive := false
	for k, t := range c.slicers {
		anyActive = anyActive || (e.mem.slicerOn[k] && e.exists(t))
	}
	if !anyActive {
		return
	}
	for i := range c.slices {
		u := &c.slices[i]
		tool := e.slicerTouching(u.obj)
		if tool == NoObject || e.taken[u.obj] {
			continue
		}
		// SlicingRule.transition: the object is removed, its parts are
		// created at its place and, one step later, get every
		// non-kinematic state of it (load_non_kin_state).
		p := e.newPlan(Slicing, u.index, u.obj)
		p.tool, p.src = tool, u.obj
		e.consume(p, u.obj)
		p.objOut = u.out
		p.placement = placeSplit
		e.placeFrom(p, u.obj)
		e.inheritFrom(p, u.obj)
	}
	for i := range c.dices {
		d := &c.dices[i]
		tool := e.slicerTouching(d.obj)
		if tool == NoObject || e.taken[d.obj] {
			continue
		}
		// DicingRule.transition: cooked__diced__X when Cooked is True,
		// else diced__X (an unknown cooked state is not True).
		index, out := d.raw, d.rawOut
		if e.at(pCooked, d.obj, NoObject) == predicates.True {
			index, out = d.cooked, d.cookOut
		}
		if index < 0 {
			continue
		}
		p := e.newPlan(Dicing, index, d.obj)
		p.tool, p.src = tool, d.obj
		e.consume(p, d.obj)
		p.sysOut = out
		p.placement = placeParticles
		e.placeFrom(p, d.obj)
	}
	if len(e.anon) > 0 {
		if len(c.anonSlices) > 0 {
			e.slicingAnon()
		}
		e.dicingAnon()
	}
}

// slicerTouching returns the first slicer touching o (any slicer, active
// or not, as the reference's TouchingAnyCondition does).
func (e *Engine) slicerTouching(o ObjectID) ObjectID {
	if !e.exists(o) {
		return NoObject
	}
	for _, t := range e.c.slicers {
		if t != o && e.exists(t) && e.touching(o, t) {
			return t
		}
	}
	return NoObject
}

// melting is MeltingRule (transition_rules.py): every meltable object whose
// MaxTemperature is at least MELTING_TEMPERATURE becomes its melted
// substance, every step that holds.
func (e *Engine) melting() {
	for i := range e.c.melts {
		u := &e.c.melts[i]
		if !e.exists(u.obj) || e.taken[u.obj] {
			continue
		}
		if t, ok := e.s.MaxTemperature(u.obj); !ok || t < MeltingTemperature {
			continue
		}
		p := e.newPlan(Melting, u.index, u.obj)
		p.src = u.obj
		e.consume(p, u.obj)
		p.sysOut = u.out
		p.placement = placeParticles
		e.placeFrom(p, u.obj)
	}
}

// placeFrom records where a removed object was, for its outputs: its box,
// and the objects it was inside, on top of, next to or under (the
// relations that hold of it, for slices without a box). Contacts are not
// carried over: the parts' contacts are whatever the next recorded step
// says.
func (e *Engine) placeFrom(p *plan, o ObjectID) {
	p.box, p.hasBox = e.s.Box(o)
	for _, x := range e.c.objList {
		if x == o || !e.exists(x) {
			continue
		}
		for _, pred := range placeRels {
			if e.at(pred, o, x) == predicates.True {
				e.addRel(p, pred, o, x, predicates.True, false)
			}
		}
	}
}

var placeRels = [...]predicates.PredID{pOntop, pInside, pNextto, pUnder}

// inheritPreds are the non-kinematic states a part inherits as recorded
// facts: the temperature-driven ones, the toggle and saturation
// (StatefulObject.dump_state's "non_kin" states: Temperature,
// MaxTemperature, ToggledOn, Saturated, ...).
var inheritPreds = [...]predicates.PredID{pCooked, pBurnt, pFrozen, pHot, pOnFire, pToggledOn}

// inheritFrom records the sliced object's non-kinematic state, as
// sliceable_obj.dump_state() does at the moment of the cut: its recorded
// temperatures and its recorded facts of the non-kinematic predicates.
func (e *Engine) inheritFrom(p *plan, o ObjectID) {
	p.temp, p.hasTemp = e.s.Temperature(o)
	p.maxTemp, p.hasMax = e.s.MaxTemperature(o)
	for _, pred := range inheritPreds {
		if v := e.s.Fact(pred, o, NoObject); v != predicates.Unknown {
			e.addRel(p, pred, o, NoObject, v, false)
			e.relBuf[len(e.relBuf)-1].inherit = true
		}
	}
	for _, sub := range e.c.substList {
		if v := e.s.Fact(pSaturated, o, sub); v != predicates.Unknown {
			e.addRel(p, pSaturated, o, sub, v, false)
			e.relBuf[len(e.relBuf)-1].inherit = true
		}
	}
}
