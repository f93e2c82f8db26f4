package transitions

import (
	"fmt"
	"math"

	"github.com/openbddl/bddl/kb"
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
	cons       [2]int // consumed objects in objBuf
	sys        [2]int // consumed substances in objBuf
	rels       [2]int // relations in relBuf
	objOut     []output
	sysOut     []output
	instances  int
	filled     predicates.Truth // whether the consumed substances filled the container
	placement  placement
	src        ObjectID // the object sliced, diced or melted
	box        predicates.Box
	hasBox     bool
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
}

// Step applies the rules to s: it evaluates every family on s as
// recorded, then removes what the firings consume and adds what they
// make, and reports it. s must be a state of the program the Engine was
// compiled for; any other state is left alone. A step on which nothing
// fires allocates nothing.
func (e *Engine) Step(s *predicates.State) Outcome {
	e.plans, e.objBuf, e.relBuf = e.plans[:0], e.objBuf[:0], e.relBuf[:0]
	e.firings, e.changes, e.prodBuf = e.firings[:0], e.changes[:0], e.prodBuf[:0]
	if s == nil || s.Program() != e.c.prog || e.c.base == nil {
		return Outcome{}
	}
	e.s = s
	e.heatCook()
	e.machines()
	e.mixing()
	e.substanceCooking()
	e.washers()
	e.slicing()
	e.melting()
	e.dryers()
	e.s = nil
	for _, b := range e.busyList {
		e.busy[b] = false
	}
	e.busyList = e.busyList[:0]
	if len(e.plans) == 0 {
		return Outcome{}
	}
	e.apply(s)
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
	return e.c.prog.Atom(e.s, pred, a, b)
}

func (e *Engine) exists(o ObjectID) bool { return e.s.Exists(o) == predicates.True }

// inContainer is SEMANTICS.md A9: the object's centre inside the
// container, or the object on top of it (flat containers).
func (e *Engine) inContainer(o, c ObjectID) bool {
	return e.at(pInside, o, c) == predicates.True || e.at(pOntop, o, c) == predicates.True
}

// gather fills e.contents with the existing objects in container c (only
// inside when insideOnly) and e.systems with the substances it contains.
func (e *Engine) gather(c ObjectID, insideOnly bool) {
	e.contents, e.systems = e.contents[:0], e.systems[:0]
	for _, o := range e.c.objList {
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
		if e.exists(sub) && e.at(pContains, c, sub) == predicates.True {
			e.systems = append(e.systems, sub)
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
		cons: [2]int{len(e.objBuf), len(e.objBuf)}, sys: [2]int{len(e.objBuf), len(e.objBuf)},
		rels: [2]int{len(e.relBuf), len(e.relBuf)}})
	return &e.plans[len(e.plans)-1]
}

// consume appends o to the plan's consumed objects, which must be the
// last span written.
func (e *Engine) consume(p *plan, o ObjectID) {
	e.objBuf = append(e.objBuf, o)
	p.cons[1] = len(e.objBuf)
	p.sys = [2]int{len(e.objBuf), len(e.objBuf)}
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

// ---- heat_cook -----------------------------------------------------------

func (e *Engine) heatCook() {
	c := e.c
	if len(c.cook) == 0 {
		return
	}
	anyOn := false
	for k := range c.heatSources {
		h := &c.heatSources[k]
		act := e.exists(h.obj) &&
			(!h.params.RequiresToggledOn || e.at(pToggledOn, h.obj, NoObject) == predicates.True) &&
			(!h.params.RequiresClosed || e.at(pOpen, h.obj, NoObject) == predicates.False)
		e.heatAct[k] = act
		anyOn = anyOn || act
	}
	clear(e.cookSeen)
	if anyOn {
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
				if !e.cookSeen[ri] {
					e.cookSeen[ri] = true
					e.mem.cookCount[ri]++
				}
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
	for ri := range c.cook {
		if !e.cookSeen[ri] {
			e.mem.cookCount[ri] = 0
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

// ---- recipes -------------------------------------------------------------

// matches reports whether object o is of input in's synset.
func (e *Engine) matches(o ObjectID, in *input) bool {
	return e.c.syn[o] >= 0 && e.c.base.IsA(e.c.syn[o], in.syn)
}

// stateValid reports whether o has the input's unary states and binary
// states with substances exactly (SEMANTICS.md B §4.3 step 3).
func (e *Engine) stateValid(o ObjectID, in *input) bool {
	for _, l := range in.unary {
		if e.at(l.pred, o, NoObject) != l.val {
			return false
		}
	}
	for _, l := range in.sysLits {
		hit := false
		for _, sub := range l.subs {
			if e.at(l.pred, o, sub) == predicates.True {
				hit = true
				break
			}
		}
		if hit != l.val {
			return false
		}
	}
	return true
}

func (e *Engine) validInput(o ObjectID, in *input) bool {
	return !e.taken[o] && e.matches(o, in) && e.stateValid(o, in)
}

func (e *Engine) systemIn(sub ObjectID) bool {
	for _, s := range e.systems {
		if s == sub {
			return true
		}
	}
	return false
}

// tryRecipe checks that rc is executable in p's container, whose contents
// e.gather found, and fills p with what it consumes and makes.
func (e *Engine) tryRecipe(rc *recipe, p *plan) bool {
	if !rc.relaxSys {
		for k := range rc.sysIn {
			found := false
			for _, sub := range rc.sysIn[k].insts {
				found = found || e.systemIn(sub)
			}
			if !found {
				return false
			}
		}
	}
	if !rc.ignoreSys {
		for _, sub := range e.systems {
			if !rc.isInputSystem(sub) {
				return false
			}
		}
	}
	if !rc.ignoreObj {
		for _, o := range e.contents {
			ok := false
			for k := range rc.objIn {
				if e.validInput(o, &rc.objIn[k]) {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		}
	}
	switch {
	case rc.multi && len(rc.objIn) == 0:
		// Only substances in, objects out (batter to pancakes): the
		// substances cannot be relaxed, they are what is cooked.
		for k := range rc.sysIn {
			found := false
			for _, sub := range rc.sysIn[k].insts {
				if e.systemIn(sub) {
					e.consumeSys(p, sub)
					found = true
				}
			}
			if !found {
				return false
			}
		}
	case rc.multi:
		if !e.multiInstances(rc, p) {
			return false
		}
	default:
		for k := range rc.objIn {
			in := &rc.objIn[k]
			n := 0
			for _, o := range e.contents {
				if e.validInput(o, in) && e.hasParent(rc, k, o) {
					n++
				}
			}
			if n < in.count {
				return false
			}
		}
		for _, o := range e.contents {
			if rc.ignoreObj && !rc.isInputObject(e, o) {
				continue
			}
			e.consume(p, o)
		}
		for _, sub := range e.systems {
			if rc.ignoreSys && !rc.isInputSystem(sub) {
				continue
			}
			e.consumeSys(p, sub)
		}
	}
	p.objOut, p.sysOut = rc.outObj, rc.outSys
	p.filled = e.filledBy(p)
	return true
}

func (rc *recipe) isInputSystem(sub ObjectID) bool {
	for k := range rc.sysIn {
		for _, s := range rc.sysIn[k].insts {
			if s == sub {
				return true
			}
		}
	}
	return false
}

func (rc *recipe) isInputObject(e *Engine, o ObjectID) bool {
	for k := range rc.objIn {
		if e.matches(o, &rc.objIn[k]) {
			return true
		}
	}
	return false
}

// hasParent checks the binary object states of input k for o: some valid
// object of the parent input in the container satisfies each.
func (e *Engine) hasParent(rc *recipe, k int, o ObjectID) bool {
	for _, b := range rc.binObj {
		if b.child != k {
			continue
		}
		ok := false
		for _, q := range e.contents {
			if q != o && e.validInput(q, &rc.objIn[b.parent]) && e.at(b.pred, o, q) == b.val {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// filledBy is whether the substances a plan consumes filled its
// container: True if any did, False if all are known not to.
func (e *Engine) filledBy(p *plan) predicates.Truth {
	if p.sys[1] == p.sys[0] {
		return predicates.Unknown
	}
	v := predicates.False
	for _, sub := range e.objBuf[p.sys[0]:p.sys[1]] {
		v = v.Or(e.at(pFilled, p.container, sub))
	}
	return v
}

// multiInstances is CookingObjectRule's count of input sets (SEMANTICS.md
// B §4.4.5): without binary object states, the minimum over inputs of the
// valid objects in the container over the count; with a tree of them, the
// valid roots in the container whose subtrees are complete. Unlike the
// reference, which consumes every valid object of the input categories in
// the scene, only the objects in the container (and the trees' children)
// are consumed.
func (e *Engine) multiInstances(rc *recipe, p *plan) bool {
	if rc.root < 0 {
		n := math.MaxInt
		for k := range rc.objIn {
			in := &rc.objIn[k]
			cnt := 0
			for _, o := range e.contents {
				if e.validInput(o, in) {
					cnt++
				}
			}
			n = min(n, cnt/in.count)
		}
		if n < 1 || len(rc.objIn) == 0 {
			return false
		}
		for _, o := range e.contents {
			for k := range rc.objIn {
				if e.validInput(o, &rc.objIn[k]) {
					e.consume(p, o)
					break
				}
			}
		}
		p.instances = n
		return true
	}
	n := 0
	root := &rc.objIn[rc.root]
	for _, o := range e.contents {
		if !e.validInput(o, root) {
			continue
		}
		mark := p.cons[1]
		e.consume(p, o)
		if e.subtree(rc, rc.root, o, p) {
			n++
			continue
		}
		for _, x := range e.objBuf[mark:p.cons[1]] {
			e.taken[x] = false
		}
		e.objBuf = e.objBuf[:mark]
		p.cons[1], p.sys = mark, [2]int{mark, mark}
	}
	if n == 0 {
		return false
	}
	p.instances = n
	return true
}

// subtree consumes, for each child input of input k, count valid objects
// anywhere that stand in the binary states to parent, recursively.
func (e *Engine) subtree(rc *recipe, k int, parent ObjectID, p *plan) bool {
	for ck := range rc.objIn {
		if rc.objIn[ck].parent != k {
			continue
		}
		in := &rc.objIn[ck]
		got := 0
		for _, x := range in.cands {
			if got == in.count {
				break
			}
			if !e.exists(x) || !e.validInput(x, in) || !e.binOK(rc, ck, k, x, parent) {
				continue
			}
			e.consume(p, x)
			if !e.subtree(rc, ck, x, p) {
				return false
			}
			got++
		}
		if got < in.count {
			return false
		}
	}
	return true
}

func (e *Engine) binOK(rc *recipe, child, parent int, x, px ObjectID) bool {
	for _, b := range rc.binObj {
		if b.child == child && b.parent == parent && e.at(b.pred, x, px) != b.val {
			return false
		}
	}
	return true
}

// ---- machines and mixing -------------------------------------------------

func (e *Engine) machines() {
	c := e.c
	for k, m := range c.machines {
		on := e.exists(m) && e.at(pToggledOn, m, NoObject) == predicates.True
		edge := on && !e.mem.machineOn[k]
		e.mem.machineOn[k] = on
		if !edge || e.busy[m] {
			continue
		}
		e.gather(m, false)
		e.recipeOrGarbage(ToggleableMachine, c.machine, m, NoObject)
	}
}

func (e *Engine) mixing() {
	c := e.c
	for k, cont := range c.mixContainers {
		tool := NoObject
		if e.exists(cont) {
			for _, t := range c.mixTools {
				if t != cont && e.exists(t) && e.at(pTouching, cont, t) == predicates.True {
					tool = t
					break
				}
			}
		}
		edge := tool != NoObject && !e.mem.mixTouch[k]
		e.mem.mixTouch[k] = tool != NoObject
		if !edge || e.busy[cont] {
			continue
		}
		e.gather(cont, false)
		e.recipeOrGarbage(MixingStick, c.mix, cont, tool)
	}
}

// recipeOrGarbage fires the first executable recipe in the container, or
// turns its contents into the garbage substance (SEMANTICS.md B §4.3).
func (e *Engine) recipeOrGarbage(f Family, recipes []*recipe, cont, tool ObjectID) {
	for _, rc := range recipes {
		if !rc.okContainer[cont] {
			continue
		}
		mark := len(e.objBuf)
		p := e.newPlan(f, rc.index, cont)
		if e.tryRecipe(rc, p) {
			p.tool = tool
			e.markBusy(cont)
			return
		}
		e.dropPlan(mark)
	}
	ignoreObj := f == MixingStick
	if len(e.systems) == 0 && (ignoreObj || len(e.contents) == 0) {
		return
	}
	p := e.newPlan(f, -1, cont)
	p.tool = tool
	if !ignoreObj {
		for _, o := range e.contents {
			if !e.taken[o] {
				e.consume(p, o)
			}
		}
	}
	for _, sub := range e.systems {
		e.consumeSys(p, sub)
	}
	p.sysOut = e.garbage[:]
	p.filled = e.filledBy(p)
	e.markBusy(cont)
}

// ---- substance cooking ---------------------------------------------------

func (e *Engine) substanceCooking() {
	c := e.c
	for _, cont := range c.substCont {
		if !e.exists(cont) || e.busy[cont] || e.at(pHot, cont, NoObject) != predicates.True {
			continue
		}
		e.contents = e.contents[:0]
		e.systems = e.systems[:0]
		for _, sub := range c.substList {
			if e.exists(sub) && e.at(pContains, cont, sub) == predicates.True {
				e.systems = append(e.systems, sub)
			}
		}
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

// ---- washer and dryer ----------------------------------------------------

// onAndClosed is the washer and dryer trigger: toggled on and not open.
func (e *Engine) onAndClosed(m ObjectID) bool {
	return e.exists(m) && e.at(pToggledOn, m, NoObject) == predicates.True && e.at(pOpen, m, NoObject) == predicates.False
}

func (e *Engine) washers() {
	c := e.c
	for k, w := range c.washers {
		on := e.onAndClosed(w)
		edge := on && !e.mem.washerOn[k]
		e.mem.washerOn[k] = on
		if !edge || e.busy[w] {
			continue
		}
		e.gather(w, true)
		e.markBusy(w)
		for i := range c.washRules {
			wr := &c.washRules[i]
			if wr.never {
				continue
			}
			if len(wr.solvents) > 0 {
				present := false
				for _, sv := range wr.solvents {
					present = present || e.systemIn(sv) || e.coversContents(sv)
				}
				if !present {
					continue
				}
			}
			for _, sub := range wr.solute {
				if !e.exists(sub) {
					continue
				}
				var p *plan
				get := func() *plan {
					if p == nil {
						p = e.newPlan(Washer, wr.index, w)
						if wr.index < 0 {
							p.rule = "washer-default"
						}
					}
					return p
				}
				if e.systemIn(sub) {
					e.consumeSys(get(), sub)
				}
				for _, o := range e.contents {
					if e.at(pCovered, o, sub) == predicates.True {
						e.addRel(get(), pCovered, o, sub, predicates.False, true)
					}
				}
			}
		}
		// Every object in the washer comes out wet (V1 reference).
		if len(c.water) > 0 && len(e.contents) > 0 {
			p := e.newPlan(Washer, -1, w)
			p.rule = "washer-wetting"
			for _, o := range e.contents {
				pred := pCovered
				if e.c.has(int(o), kb.ParticleRemover) {
					pred = pSaturated
				}
				e.addRel(p, pred, o, c.water[0], predicates.True, false)
			}
		}
	}
}

// coversContents reports whether the solvent covers an object in the
// machine (detergent poured on the clothes).
func (e *Engine) coversContents(sv ObjectID) bool {
	if !e.exists(sv) {
		return false
	}
	for _, o := range e.contents {
		if e.at(pCovered, o, sv) == predicates.True {
			return true
		}
	}
	return false
}

func (e *Engine) dryers() {
	c := e.c
	if c.dryerRule < 0 {
		return
	}
	for k, d := range c.dryers {
		on := e.onAndClosed(d)
		edge := on && !e.mem.dryerOn[k]
		e.mem.dryerOn[k] = on
		if !edge || e.busy[d] {
			continue
		}
		e.gather(d, true)
		if len(e.contents) == 0 && len(e.systems) == 0 {
			continue
		}
		var p *plan
		get := func() *plan {
			if p == nil {
				p = e.newPlan(Dryer, c.dryerRule, d)
				e.markBusy(d)
			}
			return p
		}
		for _, w := range c.water {
			if e.systemIn(w) {
				e.consumeSys(get(), w)
			}
			for _, o := range e.contents {
				if e.at(pSaturated, o, w) == predicates.True {
					e.addRel(get(), pSaturated, o, w, predicates.False, true)
				}
				if e.at(pCovered, o, w) == predicates.True {
					e.addRel(get(), pCovered, o, w, predicates.False, true)
				}
			}
		}
	}
}

// ---- slicing, dicing, melting --------------------------------------------

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
		if t != o && e.exists(t) && e.at(pTouching, o, t) == predicates.True {
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

// ---- applying ------------------------------------------------------------

func (e *Engine) change(ch Change) { e.changes = append(e.changes, ch) }

func (e *Engine) setExists(s *predicates.State, o ObjectID, v bool) {
	_ = s.SetExists(o, v)
	e.change(Change{Kind: ChangeExists, Object: o, Arg: NoObject, Value: predicates.TruthOf(v)})
}

// setFact records an atom's value unless it already evaluates to it.
func (e *Engine) setFact(s *predicates.State, pred predicates.PredID, a, b ObjectID, v predicates.Truth) {
	if pred.Arity() == 1 {
		b = NoObject
	}
	if e.c.prog.Atom(s, pred, a, b) == v {
		return
	}
	_ = s.SetFact(pred, a, b, v)
	e.change(Change{Kind: ChangeFact, Pred: pred, Object: a, Arg: b, Value: v})
}

func (e *Engine) setBox(s *predicates.State, o ObjectID, box predicates.Box) {
	_ = s.SetAABB(o, box)
	e.change(Change{Kind: ChangeAABB, Object: o, Arg: NoObject, Box: box})
}

func (e *Engine) apply(s *predicates.State) {
	for i := range e.plans {
		p := &e.plans[i]
		for _, o := range e.objBuf[p.cons[0]:p.cons[1]] {
			e.setExists(s, o, false)
		}
		for _, sub := range e.objBuf[p.sys[0]:p.sys[1]] {
			e.setFact(s, pContains, p.container, sub, predicates.False)
			e.setFact(s, pFilled, p.container, sub, predicates.False)
		}
		for _, r := range e.relBuf[p.rels[0]:p.rels[1]] {
			if r.remove {
				e.setFact(s, r.pred, r.a, r.b, r.val)
			}
		}
	}
	for i := range e.plans {
		p := &e.plans[i]
		start := len(e.prodBuf)
		for oi := range p.objOut {
			out := &p.objOut[oi]
			total := out.count * p.instances
			for k := 0; k < total; k++ {
				obj := e.bind(s, out)
				if obj != NoObject {
					e.addObject(s, p, out, obj, k, total)
				}
			}
		}
		for oi := range p.sysOut {
			out := &p.sysOut[oi]
			sub := e.bind(s, out)
			if sub == NoObject {
				continue
			}
			switch p.placement {
			case placeParticles:
				for _, r := range e.relBuf[p.rels[0]:p.rels[1]] {
					switch r.pred {
					case pInside:
						e.setFact(s, pContains, r.b, sub, predicates.True)
					case pOntop:
						e.setFact(s, pCovered, r.b, sub, predicates.True)
					}
				}
			default:
				e.setFact(s, pContains, p.container, sub, predicates.True)
				if p.filled != predicates.Unknown {
					e.setFact(s, pFilled, p.container, sub, p.filled)
				}
			}
			for _, st := range out.states {
				b := NoObject
				if len(st.subs) > 0 {
					b = st.subs[0]
				}
				e.setFact(s, st.pred, sub, b, st.val)
			}
		}
		if p.placement != placeParticles {
			for _, r := range e.relBuf[p.rels[0]:p.rels[1]] {
				if !r.remove && p.placement != placeSplit {
					e.setFact(s, r.pred, r.a, r.b, r.val)
				}
			}
		}
		e.firings = append(e.firings, Firing{
			Rule: p.rule, Family: p.family, RuleIndex: p.index,
			Container: p.container, Tool: p.tool, HeatSource: p.heat,
			Consumed:           e.objBuf[p.cons[0]:p.cons[1]:p.cons[1]],
			ConsumedSubstances: e.objBuf[p.sys[0]:p.sys[1]:p.sys[1]],
			Produced:           e.prodBuf[start:len(e.prodBuf):len(e.prodBuf)],
			Instances:          p.instances,
		})
	}
}

// bind finds the instance an output binds to (SEMANTICS.md §3.4): for an
// object, the first candidate that does not exist now; for a substance,
// the first that exists, else the first. It records the product, with a
// generated name when there is none.
func (e *Engine) bind(s *predicates.State, out *output) ObjectID {
	obj := NoObject
	if out.subst {
		for _, o := range out.cands {
			if s.Exists(o) == predicates.True {
				obj = o
				break
			}
		}
		if obj == NoObject && len(out.cands) > 0 {
			obj = out.cands[0]
		}
	} else {
		for _, o := range out.cands {
			if s.Exists(o) == predicates.False {
				obj = o
				break
			}
		}
	}
	pr := Product{Synset: out.name, Object: obj, Substance: out.subst}
	if obj != NoObject {
		pr.Name = e.c.names[obj]
		if s.Exists(obj) != predicates.True {
			e.setExists(s, obj, true)
		}
	} else {
		e.genCount[out.name]++
		pr.Name = fmt.Sprintf("%s_gen%d", out.name, e.genCount[out.name])
	}
	e.prodBuf = append(e.prodBuf, pr)
	return obj
}

// addObject gives a bound object output its states and its place.
func (e *Engine) addObject(s *predicates.State, p *plan, out *output, obj ObjectID, k, total int) {
	for _, st := range out.states {
		b := NoObject
		if len(st.subs) > 0 {
			b = st.subs[0]
		}
		e.setFact(s, st.pred, obj, b, st.val)
	}
	switch p.placement {
	case placeSplit:
		if p.hasBox {
			e.setBox(s, obj, splitBox(p.box, k, total))
			return
		}
		for _, r := range e.relBuf[p.rels[0]:p.rels[1]] {
			if !r.remove {
				e.setFact(s, r.pred, obj, r.b, predicates.True)
			}
		}
	case placeOnContainer:
		cb, ok := s.Box(p.container)
		if !ok {
			e.setFact(s, pOntop, obj, p.container, predicates.True)
			return
		}
		e.setBox(s, obj, gridBox(cb, k, total))
	}
}

// splitBox is part k of total of a box cut along its longest horizontal
// axis (two halves for slicing).
func splitBox(b predicates.Box, k, total int) predicates.Box {
	ax := 0
	if b.Max[1]-b.Min[1] > b.Max[0]-b.Min[0] {
		ax = 1
	}
	w := (b.Max[ax] - b.Min[ax]) / float64(max(total, 1))
	out := b
	out.Min[ax] = b.Min[ax] + float64(k)*w
	out.Max[ax] = out.Min[ax] + w
	return out
}

// gridBox is the box of output k of total on top of a container: the
// container's top face cut into a ⌈√n⌉ × ⌈n/⌈√n⌉⌉ grid, one object per
// cell, at most 10 cm across, resting on the top face.
func gridBox(cb predicates.Box, k, total int) predicates.Box {
	cols := int(math.Ceil(math.Sqrt(float64(max(total, 1)))))
	rows := (max(total, 1) + cols - 1) / cols
	cw := (cb.Max[0] - cb.Min[0]) / float64(cols)
	ch := (cb.Max[1] - cb.Min[1]) / float64(rows)
	size := math.Min(0.1, 0.8*math.Min(cw, ch))
	if size <= 0 {
		size = 0.01
	}
	cx := cb.Min[0] + (float64(k%cols)+0.5)*cw
	cy := cb.Min[1] + (float64(k/cols)+0.5)*ch
	return predicates.Box{
		Min: [3]float64{cx - size/2, cy - size/2, cb.Max[2]},
		Max: [3]float64{cx + size/2, cy + size/2, cb.Max[2] + size/2},
	}
}
