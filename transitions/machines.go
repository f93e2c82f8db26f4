package transitions

// Machines switched on and mixing tools (SEMANTICS.md B §4.4.6, §4.4.7).

import (
	"github.com/openbddl/bddl/predicates"
)

// machines is ToggleableMachineRule (transition_rules.py): candidates are
// fillable, not fixed-base, toggleable objects other than washers, dryers,
// hot tubs, ovens and microwaves (candidate_filters); the condition is
// ChangeConditionWrapper(toggled_on) (_generate_conditions), so a machine
// fires on the step it is switched on; RecipeRule.transition then runs the
// first executable recipe or the sludge fallback, whether or not any
// recipe of the family applies to the activity.
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

// mixing is MixingToolRule (transition_rules.py): candidates are fillable,
// not fixed-base containers and objects with the mixingTool ability; the
// condition is ChangeConditionWrapper(TouchingAnyCondition(container,
// mixingTool)), so a container fires on the step a tool starts touching
// it; then the first executable recipe or the sludge fallback.
func (e *Engine) mixing() {
	c := e.c
	for k, cont := range c.mixContainers {
		tool := NoObject
		if e.exists(cont) {
			for _, t := range c.mixTools {
				if t != cont && e.exists(t) && e.touching(cont, t) {
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
// turns its contents into the garbage substance (RecipeRule.transition
// with use_garbage_fallback_recipe; the garbage recipe's _execute_recipe
// removes every contained system, and every contained object unless
// ignore_nonrecipe_objects; with nothing removed no sludge is made, as
// max_samples is then 0).
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
