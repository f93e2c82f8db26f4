package transitions

// Applying the plans: removals, then additions, binding and placement.

import (
	"fmt"
	"math"

	"github.com/openbddl/bddl/predicates"
)

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
		// Anonymous inputs go to the end of the spans, named in
		// Firing.ConsumedAnonymous; the declared ones stay in order.
		p.names[0] = len(e.anonNames)
		p.cons[2] = e.partitionAnon(p.cons[0], p.cons[1])
		p.sys[2] = e.partitionAnon(p.sys[0], p.sys[1])
		p.names[1] = len(e.anonNames)
		for _, o := range e.objBuf[p.cons[0]:p.cons[1]] {
			if int(o) >= e.c.n {
				e.anon[int(o)-e.c.n].exists = false
				continue
			}
			e.setExists(s, o, false)
		}
		if p.anon > 0 {
			e.anon[p.anon-1].exists = false
		}
		for _, sub := range e.objBuf[p.sys[0]:p.sys[1]] {
			if int(sub) >= e.c.n {
				e.anon[int(sub)-e.c.n].exists = false
				continue
			}
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
				switch {
				case obj != NoObject:
					e.addObject(s, p, out, obj, k, total)
				case !out.anon:
				case p.placement == placeSplit:
					e.addAnon(p, out, k, total)
				case p.placement == placeOnContainer && p.container != NoObject:
					e.addAnonObject(s, p, out, k, total)
				}
			}
		}
		// Substances are generated in the transition itself
		// (RecipeRule._execute_recipe, generate_particles_from_link).
		for oi := range p.sysOut {
			out := &p.sysOut[oi]
			sub := e.bind(s, out)
			if sub == NoObject {
				switch {
				case !out.anon:
				case p.placement == placeOnContainer && p.container != NoObject:
					e.addAnonSubstance(p, out, p.container)
				case p.placement == placeParticles:
					for _, r := range e.relBuf[p.rels[0]:p.rels[1]] {
						if r.pred == pInside && !r.remove {
							e.addAnonSubstance(p, out, r.b)
							break
						}
					}
				}
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
		// Facts a firing sets directly (the washer wetting its load).
		if p.placement == placeOnContainer || p.placement == placeNone {
			for _, r := range e.relBuf[p.rels[0]:p.rels[1]] {
				if !r.remove {
					e.setFact(s, r.pred, r.a, r.b, r.val)
				}
			}
		}
		e.firings = append(e.firings, Firing{
			Rule: p.rule, Family: p.family, RuleIndex: p.index,
			Container: p.container, Tool: p.tool, HeatSource: p.heat,
			Consumed:           e.objBuf[p.cons[0]:p.cons[2]:p.cons[2]],
			ConsumedSubstances: e.objBuf[p.sys[0]:p.sys[2]:p.sys[2]],
			ConsumedAnonymous:  e.anonNames[p.names[0]:p.names[1]:p.names[1]],
			Produced:           e.prodBuf[start:len(e.prodBuf):len(e.prodBuf)],
			Instances:          p.instances,
		})
		if p.anon > 0 {
			e.firings[len(e.firings)-1].Anonymous = p.anonName
		}
	}
}

// partitionAnon moves the anonymous ids of objBuf[from:to] to its end,
// keeping the order of the others, appends their names to e.anonNames and
// returns where they start.
func (e *Engine) partitionAnon(from, to int) int {
	n := ObjectID(e.c.n)
	e.scratch = e.scratch[:0]
	k := from
	for i := from; i < to; i++ {
		o := e.objBuf[i]
		if o >= n {
			e.scratch = append(e.scratch, o)
			e.anonNames = append(e.anonNames, e.anon[o-n].name)
			continue
		}
		e.objBuf[k] = o
		k++
	}
	copy(e.objBuf[k:to], e.scratch)
	return k
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

// addObject gives a bound object output its states and its place. The
// reference creates recipe outputs at a parking pose ((100+i, 100+i,
// 100+i), RecipeRule._execute_recipe) and gives them their output states
// and their place on the container at the start of the next rule step
// (TransitionRuleAPI.step applies obj_init_info); parts of a sliced object
// are placed at once (bb_pos) and get the object's non-kinematic states
// at the next step (the load_non_kin_state callback). Options.SameStep
// lands all of it at once.
func (e *Engine) addObject(s *predicates.State, p *plan, out *output, obj ObjectID, k, total int) {
	for _, st := range out.states {
		b := NoObject
		if len(st.subs) > 0 {
			b = st.subs[0]
		}
		e.later(s, Change{Kind: ChangeFact, Pred: st.pred, Object: obj, Arg: b, Value: st.val})
	}
	switch p.placement {
	case placeSplit:
		if p.hasBox {
			e.setBox(s, obj, splitBox(p.box, k, total))
		} else {
			for _, r := range e.relBuf[p.rels[0]:p.rels[1]] {
				if !r.remove && !r.inherit {
					e.setFact(s, r.pred, obj, r.b, predicates.True)
				}
			}
		}
		if p.hasTemp {
			e.later(s, Change{Kind: ChangeTemperature, Object: obj, Arg: NoObject, Temp: p.temp})
		}
		if p.hasMax {
			e.later(s, Change{Kind: ChangeMaxTemperature, Object: obj, Arg: NoObject, Temp: p.maxTemp})
		}
		for _, r := range e.relBuf[p.rels[0]:p.rels[1]] {
			if r.inherit {
				e.later(s, Change{Kind: ChangeFact, Pred: r.pred, Object: obj, Arg: r.b, Value: r.val})
			}
		}
	case placeOnContainer:
		cb, ok := s.Box(p.container)
		if !ok {
			e.later(s, Change{Kind: ChangeFact, Pred: pOntop, Object: obj, Arg: p.container, Value: predicates.True})
			return
		}
		if !e.c.opts.SameStep {
			v := 100 + float64(k)
			e.setBox(s, obj, predicates.Box{Min: [3]float64{v - 0.05, v - 0.05, v - 0.05}, Max: [3]float64{v + 0.05, v + 0.05, v + 0.05}})
		}
		e.later(s, Change{Kind: ChangeAABB, Object: obj, Arg: NoObject, Box: gridBox(cb, k, total)})
	}
}

// later applies a change now with Options.SameStep, else at the start of
// the next Step (or at Flush).
func (e *Engine) later(s *predicates.State, ch Change) {
	if e.c.opts.SameStep {
		e.put(s, ch)
		return
	}
	e.next = append(e.next, ch)
}

// put applies one change to s and records it.
func (e *Engine) put(s *predicates.State, ch Change) {
	switch ch.Kind {
	case ChangeFact:
		e.setFact(s, ch.Pred, ch.Object, ch.Arg, ch.Value)
	case ChangeAABB:
		e.setBox(s, ch.Object, ch.Box)
	case ChangeTemperature:
		_ = s.SetTemperature(ch.Object, ch.Temp)
		e.change(ch)
	case ChangeMaxTemperature:
		_ = s.SetMaxTemperature(ch.Object, ch.Temp)
		e.change(ch)
	case ChangeExists:
		e.setExists(s, ch.Object, ch.Value == predicates.True)
	}
}

// land applies the changes deferred from the previous Step to the objects
// that still exist.
func (e *Engine) land(s *predicates.State) {
	if len(e.next) == 0 {
		return
	}
	e.landing, e.next = e.next, e.landing[:0]
	for _, ch := range e.landing {
		if s.Exists(ch.Object) == predicates.True {
			e.put(s, ch)
		}
	}
	e.landing = e.landing[:0]
}

// Flush applies at once what the last Step deferred to the next one (the
// output states and places of created objects, the states parts inherit)
// and returns those changes: for a caller that stops at the step a rule
// fires. s must be a state of the engine's program.
func (e *Engine) Flush(s *predicates.State) Outcome {
	e.changes = e.changes[:0]
	e.firings = e.firings[:0]
	if s == nil || s.Program() != e.c.prog {
		return Outcome{}
	}
	e.land(s)
	if len(e.changes) == 0 {
		return Outcome{}
	}
	return Outcome{Changes: e.changes}
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
