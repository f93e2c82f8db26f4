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
