package transitions

// Anonymous objects: the parts of a sliced object that no declared
// instance can stand for, when a dicing rule can take them. The reference creates them whatever the
// activity declares (SlicingRule.transition), so a chain through them —
// slice, then dice into a declared substance — completes there. Here such
// a part becomes an anonymous object the engine keeps itself: it has the
// part's box (or the sliced object's support when there is no box) and,
// one step later, the sliced object's temperatures and cooked state, and a
// slicer whose recorded box touches its box dices it. At most
// Options.MaxAnonymous live at once (64 by default); parts beyond that
// are dropped and counted (Engine.AnonymousDropped).

import (
	"fmt"
	"math"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// DefaultMaxAnonymous bounds the anonymous objects an Engine keeps.
const DefaultMaxAnonymous = 64

// anonObj is one anonymous part.
type anonObj struct {
	name            string
	syn             kb.SynsetID
	dice            int // index into compiled.anonDice, -1: no dicing rule
	exists          bool
	box             predicates.Box
	hasBox          bool
	on, in          ObjectID // its support and container without a box
	temp, maxTemp   float64
	hasTemp, hasMax bool
	cooked          predicates.Truth // an inherited (cooked x) fact
	landAt          int              // the step from which it has its inherited state
}

// anonDice is the dicing of an anonymous part's synset.
type anonDice struct {
	syn             kb.SynsetID
	raw, cooked     int
	rawOut, cookOut []output
	cookTemp        float64
}

// prepareAnonymous resolves, for the parts the activity's slicing rules
// make, the dicing rules that can take them.
func (c *compiled) prepareAnonymous() {
	if len(c.slicers) == 0 {
		return
	}
	for _, u := range c.slices {
		syn := u.out[0].syn
		if c.anonDiceOf(syn) >= 0 {
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
}

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func (c *compiled) anonDiceOf(syn kb.SynsetID) int {
	for i := range c.anonDice {
		if c.anonDice[i].syn == syn {
			return i
		}
	}
	return -1
}

// addAnon makes part k of total of a sliced object anonymous, when no
// declared instance could stand for it; it renames the last product.
func (e *Engine) addAnon(p *plan, out *output, k, total int) {
	max := e.c.opts.MaxAnonymous
	if max == 0 {
		max = DefaultMaxAnonymous
	}
	live := 0
	for i := range e.anon {
		if e.anon[i].exists {
			live++
		}
	}
	if live >= max {
		e.anonDropped++
		return
	}
	e.anonCount++
	a := anonObj{name: fmt.Sprintf("%s_anon%d", out.name, e.anonCount), syn: out.syn, dice: e.c.anonDiceOf(out.syn),
		exists: true, on: NoObject, in: NoObject, cooked: predicates.Unknown, landAt: e.stepNo + 1,
		temp: p.temp, maxTemp: p.maxTemp, hasTemp: p.hasTemp, hasMax: p.hasMax}
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
	// Reuse the slot of a part that no longer exists.
	for i := range e.anon {
		if !e.anon[i].exists {
			e.anon[i] = a
			e.renameProduct(a.name)
			return
		}
	}
	e.anon = append(e.anon, a)
	e.renameProduct(a.name)
}

func (e *Engine) renameProduct(name string) {
	pr := &e.prodBuf[len(e.prodBuf)-1]
	pr.Name, pr.Anonymous = name, true
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
	return a.hasMax && a.dice >= 0 && a.maxTemp >= e.c.anonDice[a.dice].cookTemp
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
		if !a.exists || a.dice < 0 || !a.hasBox {
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
