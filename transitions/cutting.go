package transitions

// Slicing, dicing and melting (SEMANTICS.md B §4.4.1–4.4.3).

import (
	"github.com/openbddl/bddl/predicates"
)

func (e *Engine) slicing() {
	c := e.c
	if len(c.slicers) == 0 {
		return
	}
	anyActive := false
	for k, t := range c.slicers {
		e.touched[k] = false
		anyActive = anyActive || (e.mem.slicerOn[k] && e.exists(t))
	}
	for i := range c.slices {
		u := &c.slices[i]
		tool := e.slicerTouching(u.obj)
		if tool == NoObject || !anyActive || e.taken[u.obj] {
			continue
		}
		p := e.newPlan(Slicing, u.index, u.obj)
		p.tool, p.src = tool, u.obj
		e.consume(p, u.obj)
		p.objOut = u.out
		p.placement = placeSplit
		e.placeFrom(p, u.obj)
	}
	for i := range c.dices {
		d := &c.dices[i]
		tool := e.slicerTouching(d.obj)
		if tool == NoObject || !anyActive || e.taken[d.obj] {
			continue
		}
		index, out := -1, []output(nil)
		switch e.at(pCooked, d.obj, NoObject) {
		case predicates.True:
			index, out = d.cooked, d.cookOut
		case predicates.False:
			index, out = d.raw, d.rawOut
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
	// SlicerActive: off once it touched a sliceable, back on after the
	// re-arm delay of touching none (SEMANTICS.md B §1.7).
	for k := range c.slicers {
		if e.touched[k] {
			e.mem.slicerOn[k], e.mem.slicerIdle[k] = false, 0
			continue
		}
		e.mem.slicerIdle[k]++
		if e.mem.slicerIdle[k] >= e.reactStep {
			e.mem.slicerOn[k] = true
		}
	}
}

// slicerTouching returns the first slicer touching o (any slicer, active
// or not, as the reference's filter does), marking every one that does.
func (e *Engine) slicerTouching(o ObjectID) ObjectID {
	if !e.exists(o) {
		return NoObject
	}
	tool := NoObject
	for k, t := range e.c.slicers {
		if t != o && e.exists(t) && e.c.prog.MayTouch(e.s, o, t) && e.at(pTouching, o, t) == predicates.True {
			e.touched[k] = true
			if tool == NoObject {
				tool = t
			}
		}
	}
	return tool
}

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
// and the objects it was inside or on top of (the relations that hold of
// it, for slices without a box).
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

var placeRels = [...]predicates.PredID{pOntop, pInside, pNextto, pTouching, pUnder}
