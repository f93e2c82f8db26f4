package transitions

// The washer and the dryer (SEMANTICS.md B §4.4.8).

import (
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// onAndClosed is the washer and dryer trigger: toggled on and not open.
func (e *Engine) onAndClosed(m ObjectID) bool {
	return e.exists(m) && e.at(pToggledOn, m, NoObject) == predicates.True && e.at(pOpen, m, NoObject) == predicates.False
}

// washers is WasherRule (transition_rules.py): category washer; condition
// ChangeConditionWrapper(toggled_on ∧ ¬open). On that step each system the
// washer contains is removed if its cleaning condition allows it (never;
// always, the default for unlisted systems; or when a listed solvent is
// also contained), from the drum and, for visual systems, from the
// objects in it.
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
		// WasherRule.transition wets every object in the washer only when
		// gm.USE_GPU_DYNAMICS is on (off by default): Options.GPUDynamics.
		if c.opts.GPUDynamics && len(c.water) > 0 && len(e.contents) > 0 {
			p := e.newPlan(Washer, -1, w)
			p.rule = "washer-wetting"
			for _, o := range e.contents {
				// Saturated exists on particle removers and appliers (a
				// dependency of ParticleModifier, particle_modifier.py).
				pred := pCovered
				if e.c.has(int(o), kb.ParticleRemover) || e.c.has(int(o), kb.ParticleApplier) {
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

// dryers is DryerRule (transition_rules.py): category clothes_dryer, the
// washer's condition; the objects in it stop being saturated with water
// and the water in it is removed.
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
