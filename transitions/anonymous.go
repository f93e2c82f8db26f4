package transitions

// Anonymous objects: the outputs no declared instance can stand for, when
// a compiled rule can take them. The reference creates whatever category
// a rule outputs, whatever the activity declares (SlicingRule.transition
// makes the parts, RecipeRule._execute_recipe makes DatasetObjects and
// generate_particles_from_link fills the container with a system), so a
// chain through them — flour and water stirred into dough, the dough baked
// into cookies; slice, then dice — completes there. Here such an output
// becomes an anonymous object the engine keeps itself, with an id past the
// program's objects (compiled.n + slot) that the recipe families see as
// they see declared objects:
//
//   - an object a recipe makes lands, a step after the firing, on top of
//     the container the recipe ran in (the reference parks it at
//     (100+i, 100+i, 100+i) and its callback _spawn_object_in_container
//     samples OnTop at the next TransitionRuleAPI.step), with the recipe's
//     output states; a box on the container's when it has one;
//   - a substance a recipe makes is in the container at once
//     (generate_particles_from_link in _execute_recipe);
//   - the parts of a sliced object have the part's box (or the sliced
//     object's support when there is no box) at once and, one step later,
//     the sliced object's temperatures and cooked state; a slicer whose
//     recorded box touches them dices them;
//   - an anonymous object of a sliceable synset is cut by a slicer whose
//     recorded box touches its box (slicingAnon), and counts as a
//     sliceable for SlicerActive.
//
// States no rule set are false, as on a freshly loaded object. At most
// Options.MaxAnonymous live at once (64 by default); outputs beyond that
// are dropped and counted (Engine.AnonymousDropped).

import (
	"fmt"
	"math"
	"slices"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// DefaultMaxAnonymous bounds the anonymous objects an Engine keeps.
const DefaultMaxAnonymous = 64

// anonObj is one anonymous object or substance.
type anonObj struct {
	name            string
	syn             kb.SynsetID
	subst           bool
	dice            int // index into compiled.anonDice, -1: no dicing rule
	slice           int // index into compiled.anonSlices, -1: no slicing rule
	exists          bool
	box             predicates.Box
	hasBox          bool
	on, in          ObjectID // its support and container (a substance: its container)
	placeAt         int      // the step from which it is on or in them
	temp, maxTemp   float64
	hasTemp, hasMax bool
	cookTemp        float64
	cooked          predicates.Truth // an inherited (cooked x) fact
	filled          predicates.Truth // a substance: whether it fills its container
	facts           []anonFact       // output states
	landAt          int              // the step from which it has its inherited and output states
}

// anonFact is a state of an anonymous object: (pred x arg) = val.
type anonFact struct {
	pred predicates.PredID
	arg  ObjectID
	val  predicates.Truth
}

// anonDice is the dicing of an anonymous part's synset.
type anonDice struct {
	syn             kb.SynsetID
	raw, cooked     int
	rawOut, cookOut []output
	cookTemp        float64
}

// prepareAnonymous resolves, for the parts the activity's slicing rules
// make, the dicing rules that can take them, and marks the outputs no
// instance may stand for that some compiled rule takes (output.anon).
func (c *compiled) prepareAnonymous() {
	if c.maxAnon() == 0 {
		return
	}
	for _, u := range slices.Concat(c.slices, c.anonSlices) {
		syn := u.out[0].syn
		if c.anonDiceOf(syn) >= 0 || len(c.slicers) == 0 {
			continue
		}
		d := anonDice{syn: syn, raw: -1, cooked: -1, cookTemp: kb.DefaultCookTemperature}
		if t, ok := c.base.CookTemperature(syn); ok {
			d.cookTemp = t
		}
		for i := range c.rules {
			r := &c.rules[i]
			if r.Family != Dicing || len(r.Inputs) != 1 || len(r.Outputs) != 1 || r.Inputs[0].Synset != syn {
				continue
			}
			out := []output{c.output(r.Outputs[0], r.OutputStates)}
			if len(r.InputStates) == 1 && r.InputStates[0].Value {
				d.cooked, d.cookOut = i, out
			} else {
				d.raw, d.rawOut = i, out
			}
			if !containsInt(c.active, i) {
				c.active = append(c.active, i)
			}
		}
		if d.raw >= 0 || d.cooked >= 0 {
			c.anonDice = append(c.anonDice, d)
		}
	}
	slices.Sort(c.active)
	mark := func(outs []output) {
		for k := range outs {
			outs[k].anon = c.takes(outs[k].syn, outs[k].subst)
		}
	}
	for _, l := range [][]*recipe{c.cook, c.machine, c.mix, c.substCook} {
		for _, rc := range l {
			mark(rc.outObj)
			mark(rc.outSys)
		}
	}
	for k := range c.slices {
		mark(c.slices[k].out)
	}
	for k := range c.anonSlices {
		mark(c.anonSlices[k].out)
	}
	for k := range c.dices {
		mark(c.dices[k].rawOut)
		mark(c.dices[k].cookOut)
	}
	for k := range c.anonDice {
		mark(c.anonDice[k].rawOut)
		mark(c.anonDice[k].cookOut)
	}
	for k := range c.melts {
		mark(c.melts[k].out)
	}
}

// takes reports whether a compiled rule can take an anonymous object (or
// substance) of synset syn: a recipe input of it or an ancestor, or a
// dicing rule for it.
func (c *compiled) takes(syn kb.SynsetID, subst bool) bool {
	if !subst && (c.anonDiceOf(syn) >= 0 || c.anonSliceOf(syn) >= 0) {
		return true
	}
	for _, l := range [][]*recipe{c.cook, c.machine, c.mix, c.substCook} {
		for _, rc := range l {
			if subst {
				for k := range rc.sysIn {
					if c.base.IsA(syn, rc.sysIn[k].syn) {
						return true
					}
				}
				continue
			}
			for k := range rc.objIn {
				if c.base.IsA(syn, rc.objIn[k].syn) {
					return true
				}
			}
		}
	}
	return false
}

// maxAnon is the number of anonymous objects an Engine keeps at most.
func (c *compiled) maxAnon() int {
	switch {
	case c.opts.MaxAnonymous < 0:
		return 0
	case c.opts.MaxAnonymous == 0:
		return DefaultMaxAnonymous
	}
	return c.opts.MaxAnonymous
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// anonSliceOf is the slicing rule of anonymous objects of synset syn, -1
// for none.
func (c *compiled) anonSliceOf(syn kb.SynsetID) int {
	for i := range c.anonSlices {
		if c.anonSlices[i].syn == syn {
			return i
		}
	}
	return -1
}

func (c *compiled) anonDiceOf(syn kb.SynsetID) int {
	for i := range c.anonDice {
		if c.anonDice[i].syn == syn {
			return i
		}
	}
	return -1
}

// keepAnon stores a new anonymous object in a free slot and names the
// last product after it; false (and counted) when MaxAnonymous already
// exist.
func (e *Engine) keepAnon(a anonObj, base string) bool {
	live := 0
	for i := range e.anon {
		if e.anon[i].exists {
			live++
		}
	}
	if live >= e.c.maxAnon() {
		e.anonDropped++
		return false
	}
	e.anonCount++
	a.name = fmt.Sprintf("%s_anon%d", base, e.anonCount)
	a.slice = -1
	if !a.subst {
		a.slice = e.c.anonSliceOf(a.syn)
	}
	a.exists = true
	if a.cookTemp == 0 {
		a.cookTemp = kb.DefaultCookTemperature
		if t, ok := e.c.base.CookTemperature(a.syn); ok {
			a.cookTemp = t
		}
	}
	e.renameProduct(a.name)
	// Reuse the slot of an object that no longer exists.
	for i := range e.anon {
		if !e.anon[i].exists {
			e.anon[i] = a
			return true
		}
	}
	e.anon = append(e.anon, a)
	return true
}

// addAnon makes part k of total of a sliced object anonymous.
func (e *Engine) addAnon(p *plan, out *output, k, total int) {
	a := anonObj{syn: out.syn, dice: e.c.anonDiceOf(out.syn),
		on: NoObject, in: NoObject, placeAt: e.stepNo, cooked: predicates.Unknown, filled: predicates.Unknown,
		landAt: e.stepNo + 1, temp: p.temp, maxTemp: p.maxTemp, hasTemp: p.hasTemp, hasMax: p.hasMax}
	if e.c.opts.SameStep {
		a.landAt = e.stepNo
	}
	if p.hasBox {
		a.box, a.hasBox = splitBox(p.box, k, total), true
	}
	for _, r := range e.relBuf[p.rels[0]:p.rels[1]] {
		switch {
		case r.inherit && r.pred == pCooked:
			a.cooked = r.val
		case r.inherit || r.remove:
		case r.pred == pOntop:
			a.on = r.b
		case r.pred == pInside:
			a.in = r.b
		}
	}
	e.keepAnon(a, out.name)
}

// addAnonObject makes object output k of total of a recipe anonymous: on
// top of the container from the next step (RecipeRule._execute_recipe's
// _spawn_object_in_container callback, run by TransitionRuleAPI.step with
// the output states), on its box's top face when it has a box.
func (e *Engine) addAnonObject(s *predicates.State, p *plan, out *output, k, total int) {
	a := anonObj{syn: out.syn, dice: e.c.anonDiceOf(out.syn), on: p.container, in: NoObject,
		cooked: predicates.Unknown, filled: predicates.Unknown, placeAt: e.stepNo + 1, landAt: e.stepNo + 1}
	if e.c.opts.SameStep {
		a.placeAt, a.landAt = e.stepNo, e.stepNo
	}
	if cb, ok := s.Box(p.container); ok {
		a.box, a.hasBox = gridBox(cb, k, total), true
	}
	for _, st := range out.states {
		b := NoObject
		if len(st.subs) > 0 {
			b = st.subs[0]
		}
		a.facts = append(a.facts, anonFact{pred: st.pred, arg: b, val: st.val})
	}
	e.keepAnon(a, out.name)
}

// addAnonSubstance puts a substance a recipe makes in its container at
// once (generate_particles_from_link), or the substance a diced or melted
// object becomes in the container the object was inside; the container's
// anonymous substance of that synset, when it has one, takes it.
func (e *Engine) addAnonSubstance(p *plan, out *output, cont ObjectID) {
	for i := range e.anon {
		a := &e.anon[i]
		if a.exists && a.subst && a.syn == out.syn && a.in == cont {
			if p.filled == predicates.True {
				a.filled = predicates.True
			}
			e.renameProduct(a.name)
			return
		}
	}
	e.keepAnon(anonObj{syn: out.syn, subst: true, dice: -1, on: NoObject, in: cont, placeAt: e.stepNo,
		landAt: e.stepNo, cooked: predicates.Unknown, filled: p.filled}, out.name)
}

// anonCooked is DicingRule's Cooked test on an anonymous part: its
// inherited cooked fact, else its inherited highest temperature against
// its synset's cook temperature; nothing before the state lands.
func (e *Engine) anonCooked(a *anonObj) bool {
	if e.stepNo < a.landAt {
		return false
	}
	if a.cooked != predicates.Unknown {
		return a.cooked == predicates.True
	}
	for _, f := range a.facts {
		if f.pred == pCooked {
			return f.val == predicates.True
		}
	}
	return a.hasMax && a.maxTemp >= a.cookTemp
}

// anonID is the id the recipe families see an anonymous object by.
func (e *Engine) anonID(slot int) ObjectID { return ObjectID(e.c.n + slot) }

// anonAt evaluates an atom over an anonymous object (a) or substance (b):
// its place, its output and inherited states; false otherwise, as for a
// freshly created object.
func (e *Engine) anonAt(pred predicates.PredID, a, b ObjectID) predicates.Truth {
	n := ObjectID(e.c.n)
	if b >= n {
		x := &e.anon[b-n]
		if !x.exists || !x.subst || a >= n || x.in != a {
			return predicates.False
		}
		switch pred {
		case pContains:
			return predicates.True
		case pFilled:
			if x.filled == predicates.True {
				return predicates.True
			}
		}
		return predicates.False
	}
	x := &e.anon[a-n]
	if !x.exists || x.subst {
		return predicates.False
	}
	switch pred {
	case pInside:
		return predicates.TruthOf(b != NoObject && x.in == b && e.stepNo >= x.placeAt)
	case pOntop:
		return predicates.TruthOf(b != NoObject && x.on == b && e.stepNo >= x.placeAt)
	case pCooked:
		return predicates.TruthOf(e.anonCooked(x))
	}
	if e.stepNo >= x.landAt {
		for _, f := range x.facts {
			if f.pred == pred && f.arg == b {
				return f.val
			}
		}
	}
	return predicates.False
}

// dicingAnon dices the anonymous parts a slicer's recorded box touches
// (within the program's touch tolerance, 1 cm by default, SEMANTICS.md
// A4), when some slicer is active.
func (e *Engine) dicingAnon() {
	tol := e.c.prog.Options().Geometry.TouchTolerance
	if tol <= 0 {
		tol = predicates.DefaultTouchTolerance
	}
	for i := range e.anon {
		a := &e.anon[i]
		if !a.exists || a.dice < 0 || !a.hasBox || e.stepNo < a.placeAt || e.taken[e.anonID(i)] {
			continue
		}
		tool := NoObject
		for _, t := range e.c.slicers {
			if b, ok := e.s.Box(t); ok && e.exists(t) && boxGap(a.box, b) <= tol {
				tool = t
				break
			}
		}
		if tool == NoObject {
			continue
		}
		d := &e.c.anonDice[a.dice]
		index, out := d.raw, d.rawOut
		if e.anonCooked(a) {
			index, out = d.cooked, d.cookOut
		}
		if index < 0 {
			continue
		}
		p := e.newPlan(Dicing, index, NoObject)
		p.tool, p.anon, p.anonName = tool, i+1, a.name
		p.sysOut = out
		p.placement = placeParticles
		if a.in != NoObject {
			e.addRel(p, pInside, NoObject, a.in, predicates.True, false)
		}
		if a.on != NoObject {
			e.addRel(p, pOntop, NoObject, a.on, predicates.True, false)
		}
	}
}

// anonTouch reports whether slicer t's recorded box comes within the
// touch tolerance of anonymous object a's box.
func (e *Engine) anonTouch(a *anonObj, t ObjectID) bool {
	if !a.exists || !a.hasBox || e.stepNo < a.placeAt || !e.exists(t) {
		return false
	}
	b, ok := e.s.Box(t)
	return ok && boxGap(a.box, b) <= e.touchTol()
}

func (e *Engine) touchTol() float64 {
	if tol := e.c.prog.Options().Geometry.TouchTolerance; tol > 0 {
		return tol
	}
	return predicates.DefaultTouchTolerance
}

// touchingAnonSliceable reports whether slicer t touches an anonymous
// object with the sliceable ability (SlicerActive counts every sliceable
// object, declared or not).
func (e *Engine) touchingAnonSliceable(t ObjectID) bool {
	for i := range e.anon {
		if a := &e.anon[i]; a.slice >= 0 && e.anonTouch(a, t) {
			return true
		}
	}
	return false
}

// slicingAnon slices the anonymous objects a slicer's recorded box touches
// (SlicingRule.transition, when some slicer is active): the parts are made
// from the object's box, on or in what it was on or in, and a step later
// get its cooked state and temperatures.
func (e *Engine) slicingAnon() {
	for i := range e.anon {
		a := &e.anon[i]
		if a.slice < 0 || !a.exists || e.taken[e.anonID(i)] {
			continue
		}
		tool := NoObject
		for _, t := range e.c.slicers {
			if e.anonTouch(a, t) {
				tool = t
				break
			}
		}
		if tool == NoObject {
			continue
		}
		u := &e.c.anonSlices[a.slice]
		p := e.newPlan(Slicing, u.index, NoObject)
		p.tool, p.anon, p.anonName = tool, i+1, a.name
		p.objOut = u.out
		p.placement = placeSplit
		p.box, p.hasBox = a.box, true
		p.temp, p.maxTemp, p.hasTemp, p.hasMax = a.temp, a.maxTemp, a.hasTemp, a.hasMax
		if a.in != NoObject {
			e.addRel(p, pInside, NoObject, a.in, predicates.True, false)
		}
		if a.on != NoObject {
			e.addRel(p, pOntop, NoObject, a.on, predicates.True, false)
		}
		if e.stepNo >= a.landAt {
			e.addRel(p, pCooked, NoObject, NoObject, predicates.TruthOf(e.anonCooked(a)), false)
			e.relBuf[len(e.relBuf)-1].inherit = true
		}
	}
}

// boxGap is the distance between two boxes (0 when they overlap).
func boxGap(a, b predicates.Box) float64 {
	var d2 float64
	for k := 0; k < 3; k++ {
		v := math.Max(0, math.Max(a.Min[k]-b.Max[k], b.Min[k]-a.Max[k]))
		d2 += v * v
	}
	return math.Sqrt(d2)
}

// AnonymousDropped is the number of parts not kept because
// Options.MaxAnonymous anonymous objects already existed.
func (e *Engine) AnonymousDropped() int { return e.anonDropped }

// renameProduct names the last product after the anonymous object made
// for it.
func (e *Engine) renameProduct(name string) {
	pr := &e.prodBuf[len(e.prodBuf)-1]
	pr.Name, pr.Anonymous = name, true
}
