package activities

import (
	"github.com/openbddl/bddl/predicates"
)

// checkGoalHoldsInitially evaluates :goal with the evaluation core on the
// closed-world state of the :init facts (predicates.Program.InitState:
// positive :init atoms true, every other atom false, future objects
// absent). Only True is reported: a goal that already holds gives the
// robot nothing to do.
func checkGoalHoldsInitially(c *Context) {
	if c.Problem.Goal == nil {
		return
	}
	// A wildcard stands for at least one object of its room about which
	// :init says nothing but the inroom: evaluate it as one such object,
	// named after itself, so that quantifiers over its synset do not hold
	// vacuously.
	var opts predicates.Options
	for i := range c.Instances {
		if in := &c.Instances[i]; in.Wildcard {
			if opts.Wildcards == nil {
				opts.Wildcards = map[string][]string{}
			}
			opts.Wildcards[in.Ident.Name] = []string{in.Ident.Name}
		}
	}
	prog, err := predicates.Compile(c.Problem, c.Base, opts)
	if err != nil {
		return // the problem's own errors are the checker's findings
	}
	if prog.Eval(prog.InitState()) != predicates.True {
		return
	}
	c.Report(c.section(":goal"), "the goal already holds in the initial state described by :init",
		"the robot has nothing to do: make :init differ from the goal in something the robot must change")
}
