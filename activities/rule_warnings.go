package activities

import (
	"fmt"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

var ruleQuestionMarkInInit = &Rule{
	Code: "question-mark-in-init", Name: "names", Severity: bddl.Error,
	Doc: "instances in :init are written without ?: the reference rejects ? in :init",
	Fix: "delete the ?",
	Check: func(c *Context) {
		for k := range c.Init {
			for _, a := range c.Init[k].Args {
				if a.Term.Question && a.Kind == ArgInstance {
					c.Report(a.Term.Range, fmt.Sprintf("%s is written with ? in :init", a.Term.Text()),
						fmt.Sprintf("write %s", a.Term.Name))
				}
			}
		}
	},
}

var ruleInconsistentQuestionMark = &Rule{
	Code: "inconsistent-question-mark", Name: "names", Severity: bddl.Warning,
	Doc: "the goal writes instance names one way, all with ? or all without (the usual style is with); the " +
		"minority spelling is reported",
	Fix: "write every instance of the goal the same way",
	Check: func(c *Context) {
		with, without := 0, 0
		for k := range c.Goal {
			for _, a := range c.Goal[k].Args {
				if a.Kind != ArgInstance {
					continue
				}
				if a.Term.Question {
					with++
				} else {
					without++
				}
			}
		}
		if with == 0 || without == 0 {
			return
		}
		flagWith := with < without
		for k := range c.Goal {
			for _, a := range c.Goal[k].Args {
				if a.Kind != ArgInstance || a.Term.Question != flagWith {
					continue
				}
				if flagWith {
					c.Report(a.Term.Range, fmt.Sprintf("%s is written with ?, but %d other instance names of the goal are not", a.Term.Text(), without),
						"write "+a.Term.Name)
				} else {
					c.Report(a.Term.Range, fmt.Sprintf("%s is written without ?, but %d other instance names of the goal have it", a.Term.Name, with),
						"write ?"+a.Term.Name)
				}
			}
		}
	},
}

// instrumentProperties mark objects that act on others (clean, cut, heat,
// hold, switch on): the goal need not name them for them to matter.
var instrumentProperties = []kb.Property{
	kb.ParticleRemover, kb.ParticleApplier, kb.ParticleSource, kb.ParticleSink, kb.Slicer, kb.MixingTool,
	kb.HeatSource, kb.ColdSource, kb.Toggleable, kb.Fillable, kb.Openable,
}

var ruleUnusedObject = &Rule{
	Code: "unused-object", Name: "warnings", Severity: bddl.Warning,
	Doc: "every object plays a part: the goal names it or quantifies over it, it is an instrument (it cleans, cuts, " +
		"heats, holds, opens or switches on), a transition rule the goal relies on consumes or uses it, or something " +
		"that plays a part rests on it, is in it or comes from it (the agent, future objects, wildcards and in-room " +
		"scene objects, which choose the scene, are exempt)",
	Fix: "use it in the goal, or delete it if it is not a deliberate distractor",
	Check: func(c *Context) {
		used := make([]bool, len(c.Instances))
		instrument := make([]bool, len(c.Instances))
		for i := range c.Instances {
			in := &c.Instances[i]
			// In-room objects constrain which scenes fit, a part of their own.
			used[i] = in.InGoal || in.Quantified || in.Agent || in.Future || in.Wildcard || in.RoomLit >= 0 || !in.InInit
			for _, p := range instrumentProperties {
				if c.Has(in.Synset, p) {
					instrument[i], used[i] = true, true
					break
				}
			}
		}
		if r := c.reach(); r != nil {
			for i := range c.Instances {
				used[i] = used[i] || r.consumes(c.Instances[i].Synset)
			}
		}
		// What a used instance is placed on, in or comes from is used too,
		// and so are the substances an instrument holds (water in a sink).
		for changed := true; changed; {
			changed = false
			for k := range c.Init {
				child, parent, ok := placingEdge(&c.Init[k])
				if !ok || parent < 0 {
					continue
				}
				if used[child] && !used[parent] {
					used[parent], changed = true, true
				}
				if instrument[parent] && c.Instances[child].Substance && !used[child] {
					used[child], changed = true, true
				}
			}
		}
		for i := range c.Instances {
			if !used[i] {
				in := &c.Instances[i]
				c.Report(in.Ident.Range, fmt.Sprintf("%s plays no part in the goal", in.Ident.Name),
					"use it in the goal, or delete it and its :init literals if it is not a deliberate distractor")
			}
		}
	},
}

var ruleGoalHoldsInitially = &Rule{
	Code: "goal-holds-initially", Name: "warnings", Severity: bddl.Warning,
	Doc: "the goal does not already hold in the initial state (the goal evaluated on the closed-world state of the " +
		":init facts: listed atoms true, all others false, future objects absent)",
	Fix:   "make :init differ from the goal in something the robot must change",
	Check: checkGoalHoldsInitially,
}
