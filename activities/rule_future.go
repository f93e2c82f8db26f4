package activities

import (
	"fmt"

	"github.com/openbddl/bddl/bddl"
)

// Future objects (SEMANTICS.md A2, B §3.4): (future x) in :init says x
// does not exist yet; a transition rule creates it and binds it to x.

var ruleFutureNotInGoal = &Rule{
	Code: "future-not-in-goal", Name: "future", Severity: bddl.Error,
	Doc: "each (future x) is matched by the goal: (real x), or x used in the goal directly or through a quantifier over its synset",
	Fix: "add (real x) (or the state x must reach) to the goal, or delete the future object",
	Check: func(c *Context) {
		for k := range c.Init {
			l := &c.Init[k]
			if l.Negated || l.Pred != "future" || len(l.Args) != 1 || l.Args[0].Kind != ArgInstance {
				continue
			}
			in := &c.Instances[l.Args[0].Inst]
			if in.InGoal || in.Quantified {
				continue
			}
			c.Report(l.Formula.Info().Range, fmt.Sprintf("%s is a future object, but the goal never mentions it", in.Ident.Name),
				fmt.Sprintf("add (real %s) to the goal, or delete the object if the activity does not create it", in.Ident.Name))
		}
	},
}

var ruleFutureInInit = &Rule{
	Code: "future-in-init", Name: "future", Severity: bddl.Error,
	Doc: "a future object appears in no :init literal other than its (future x): it does not exist initially, " +
		"so nothing can be said of it",
	Fix: "move the literal to the goal, or drop (future x) if the object exists from the start",
	Check: func(c *Context) {
		for k := range c.Init {
			l := &c.Init[k]
			if l.Pred == "future" && !l.Negated {
				continue
			}
			for _, a := range l.Args {
				if a.Kind == ArgInstance && c.Instances[a.Inst].Future {
					c.Report(l.Formula.Info().Range,
						fmt.Sprintf("%s is a future object, but %s describes it initially", a.Term.Name, literalText(l)),
						"a future object does not exist in the initial state: move this literal to the goal, "+
							"or delete (future "+a.Term.Name+") if it exists from the start")
					break
				}
			}
		}
	},
}

var ruleRealNotFuture = &Rule{
	Code: "real-not-future", Name: "future", Severity: bddl.Error,
	Doc: "each (real x) in the goal names a future object or one present from the start",
	Fix: "declare (future x) in :init if the activity creates x, or place x in :init",
	Check: func(c *Context) {
		for k := range c.Goal {
			g := &c.Goal[k]
			if g.Pred != "real" || len(g.Args) != 1 || g.Args[0].Kind != ArgInstance {
				continue
			}
			in := &c.Instances[g.Args[0].Inst]
			if in.Future || in.InInit {
				continue
			}
			c.Report(g.Atom.Range, fmt.Sprintf("(real %s) in the goal, but %s is neither a future object nor present in :init", in.Ident.Name, in.Ident.Name),
				fmt.Sprintf("add (future %s) to :init if the activity creates it", in.Ident.Name))
		}
	},
}
