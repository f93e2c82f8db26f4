package transitions

import (
	"github.com/openbddl/bddl/predicates"
)

// plan is a firing decided on the recorded state, applied after every
// family has been evaluated. Its lists are spans of the Engine's buffers.
type plan struct {
	family     Family
	rule       string
	index      int
	container  ObjectID
	tool, heat ObjectID
	cons       [3]int // consumed objects in objBuf; [2]: where the anonymous ones start (apply)
	sys        [3]int // consumed substances in objBuf, as cons
	names      [2]int // the names of the anonymous ones in anonNames (apply)
	rels       [2]int // relations in relBuf
	objOut     []output
	sysOut     []output
	instances  int
	filled     predicates.Truth // whether the consumed substances filled the container
	placement  placement
	src        ObjectID // the object sliced, diced or melted
	anon       int      // 1 + the anonymous part diced, 0 for none
	anonName   string   // its name (its slot may be reused in the step)
	box        predicates.Box
	hasBox     bool
	// The sliced object's recorded temperatures, inherited by its parts.
	temp, maxTemp   float64
	hasTemp, hasMax bool
}

type placement uint8

const (
	placeOnContainer placement = iota // object outputs on top of the container
	placeSplit                        // halves of the sliced object
	placeParticles                    // a substance where the object was
	placeNone
)

// rel is a fact a plan writes: in removals (remove) or additions.
type rel struct {
	pred   predicates.PredID
	a, b   ObjectID
	val    predicates.Truth
	remove bool
	// inherit marks a state of the sliced object its parts inherit
	// (a is the sliced object; b the substance of a binary state).
	inherit bool
}

// Step applies the rules to s: it evaluates every family on s as
// recorded, then removes what the firings consume and adds what they
// make, and reports it. s must be a state of the program the Engine was
// compiled for; any other state is left alone. A step on which nothing
// fires allocates nothing.
func (e *Engine) Step(s *predicates.State) Outcome {
	e.plans, e.objBuf, e.relBuf = e.plans[:0], e.objBuf[:0], e.relBuf[:0]
	e.firings, e.changes, e.prodBuf = e.firings[:0], e.changes[:0], e.prodBuf[:0]
	e.anonNames = e.anonNames[:0]
	if s == nil || s.Program() != e.c.prog || e.c.base == nil {
		return Outcome{}
	}
	c := e.c
	e.stepNo++
	if len(e.next) > 0 {
		e.land(s)
	}
	e.s = s
	if len(c.cook) > 0 {
		e.heatCook()
	}
	if len(c.machines) > 0 {
		e.machines()
	}
	if len(c.mixContainers) > 0 {
		e.mixing()
	}
	if len(c.substCont) > 0 {
		e.substanceCooking()
	}
	if len(c.washers) > 0 {
		e.washers()
	}
	if len(c.slicers) > 0 {
		e.slicing()
	}
	if len(c.melts) > 0 {
		e.melting()
	}
	if c.dryerRule >= 0 {
		e.dryers()
	}
	e.s = nil
	e.elapsed = 1
	for _, b := range e.busyList {
		e.busy[b] = false
	}
	e.busyList = e.busyList[:0]
	if len(e.plans) == 0 {
		if len(e.changes) == 0 {
			return Outcome{}
		}
		return Outcome{Changes: e.changes}
	}
	e.apply(s)
	if len(c.slicers) > 0 {
		// The rules removed objects: what the slicers touch now is what
		// the steps a recording skips before its next line see.
		e.s = s
		e.slicersAfter()
		e.s = nil
	}
	for i := range e.plans {
		p := &e.plans[i]
		for _, o := range e.objBuf[p.cons[0]:p.cons[1]] {
			e.taken[o] = false
		}
	}
	return Outcome{Firings: e.firings, Changes: e.changes}
}

func (e *Engine) markBusy(c ObjectID) {
	e.busy[c] = true
	e.busyList = append(e.busyList, c)
}

func (e *Engine) at(pred predicates.PredID, a, b ObjectID) predicates.Truth {
	if int(a) >= e.c.n || int(b) >= e.c.n {
		return e.anonAt(pred, a, b)
	}
	return e.c.prog.Atom(e.s, pred, a, b)
}

func (e *Engine) exists(o ObjectID) bool {
	if int(o) >= e.c.n {
		return e.anon[int(o)-e.c.n].exists
	}
	return e.s.Exists(o) == predicates.True
}

// touching is (touching a b) or (touching b a): contact is symmetric in
// the reference (RigidContactAPI impulses between the two bodies), so a
// fact recorded in either order counts.
func (e *Engine) touching(a, b ObjectID) bool {
	p := e.c.prog
	return (p.MayTouch(e.s, a, b) && p.Atom(e.s, pTouching, a, b) == predicates.True) ||
		(p.MayTouch(e.s, b, a) && p.Atom(e.s, pTouching, b, a) == predicates.True)
}

// inContainer is SEMANTICS.md A9: the object's centre inside the
// container, or the object on top of it (flat containers).
func (e *Engine) inContainer(o, c ObjectID) bool {
	return e.at(pInside, o, c) == predicates.True || e.at(pOntop, o, c) == predicates.True
}

// holds is (contains c sub), which (filled c sub) implies: a filled
// container has particles in it (object_states/filled.py and contains.py
// both count the particles in its volume).
func (e *Engine) holds(c, sub ObjectID) bool {
	return e.at(pContains, c, sub) == predicates.True || e.at(pFilled, c, sub) == predicates.True
}

// gather fills e.contents with the existing objects in container c (only
// inside when insideOnly) and e.systems with the substances it contains.
func (e *Engine) gather(c ObjectID, insideOnly bool) {
	e.contents, e.systems = e.contents[:0], e.systems[:0]
	// Recipe rules see only the objects that are not fixed-base
	// (RecipeRule.refresh); the washer and dryer see every object
	// (WasherDryerRule._compute_container_info).
	objs := e.c.movable
	if insideOnly {
		objs = e.c.objList
	}
	for _, o := range objs {
		if o == c || !e.exists(o) {
			continue
		}
		if insideOnly {
			if e.at(pInside, o, c) == predicates.True {
				e.contents = append(e.contents, o)
			}
		} else if e.inContainer(o, c) {
			e.contents = append(e.contents, o)
		}
	}
	for _, sub := range e.c.substList {
		if e.exists(sub) && e.holds(c, sub) {
			e.systems = append(e.systems, sub)
		}
	}
	if insideOnly {
		return // the washer and dryer leave anonymous objects alone
	}
	for i := range e.anon {
		a := &e.anon[i]
		if !a.exists {
			continue
		}
		switch {
		case a.subst && a.in == c:
			e.systems = append(e.systems, e.anonID(i))
		case !a.subst && (a.in == c || a.on == c) && e.stepNo >= a.placeAt:
			e.contents = append(e.contents, e.anonID(i))
		}
	}
}

// gatherSystems is gather for the substances alone.
func (e *Engine) gatherSystems(c ObjectID) {
	e.contents, e.systems = e.contents[:0], e.systems[:0]
	for _, sub := range e.c.substList {
		if e.exists(sub) && e.holds(c, sub) {
			e.systems = append(e.systems, sub)
		}
	}
	for i := range e.anon {
		if a := &e.anon[i]; a.exists && a.subst && a.in == c {
			e.systems = append(e.systems, e.anonID(i))
		}
	}
}

func (e *Engine) newPlan(f Family, index int, container ObjectID) *plan {
	name := "garbage"
	if index >= 0 {
		name = e.c.rules[index].Name
	}
	e.plans = append(e.plans, plan{family: f, rule: name, index: index, container: container, tool: NoObject,
		heat: NoObject, src: NoObject, instances: 1, filled: predicates.Unknown,
		cons: [3]int{len(e.objBuf), len(e.objBuf)}, sys: [3]int{len(e.objBuf), len(e.objBuf)},
		rels: [2]int{len(e.relBuf), len(e.relBuf)}})
	return &e.plans[len(e.plans)-1]
}

// consume appends o to the plan's consumed objects, which must be the
// last span written.
func (e *Engine) consume(p *plan, o ObjectID) {
	e.objBuf = append(e.objBuf, o)
	p.cons[1] = len(e.objBuf)
	p.sys = [3]int{len(e.objBuf), len(e.objBuf)}
	e.taken[o] = true
}

func (e *Engine) consumeSys(p *plan, sub ObjectID) {
	e.objBuf = append(e.objBuf, sub)
	p.sys[1] = len(e.objBuf)
}

func (e *Engine) addRel(p *plan, pred predicates.PredID, a, b ObjectID, val predicates.Truth, remove bool) {
	e.relBuf = append(e.relBuf, rel{pred: pred, a: a, b: b, val: val, remove: remove})
	p.rels[1] = len(e.relBuf)
}
