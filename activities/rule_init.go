package activities

import (
	"fmt"

	"github.com/openbddl/bddl/bddl"
)

// kinematicStates are the predicates the sampler cannot set to false:
// every state with the kinematics mixin plus attached (SEMANTICS.md B §3.3).
var kinematicStates = map[string]bool{
	"inside": true, "nextto": true, "ontop": true, "under": true, "touching": true,
	"overlaid": true, "draped": true, "attached": true, "onfloor": true,
}

var ruleNegatedKinematic = &Rule{
	Code: "negated-kinematic-init", Name: "init", Severity: bddl.Error,
	Doc: "no negated kinematic literal (inside, nextto, ontop, under, touching, overlaid, draped, attached) in :init: " +
		"the sampler cannot make a relation false",
	Fix: "delete the literal: an object is only where :init places it",
	Check: func(c *Context) {
		for k := range c.Init {
			l := &c.Init[k]
			if l.Negated && kinematicStates[l.Pred] {
				c.Report(l.Formula.Info().Range, fmt.Sprintf("negated kinematic literal %s cannot be sampled", literalText(l)),
					"delete it: objects are placed only by positive literals, so the relation is false unless another literal makes it true")
			}
		}
	},
}

// litKey identifies a literal by predicate, arguments as compared and
// polarity, without allocating.
type litKey struct {
	pred string
	args [3]string
	neg  bool
}

func literalKey(pred string, args []Arg, neg bool) litKey {
	k := litKey{pred: pred, neg: neg}
	for i, a := range args {
		if i >= len(k.args) {
			k.args[len(k.args)-1] += " " + a.Term.Key() // longer atoms are rare: allocate then
			continue
		}
		k.args[i] = a.Term.Key()
	}
	return k
}

// exclusive are pairs of predicates that cannot both hold of the same
// arguments.
var exclusive = map[string]string{"folded": "unfolded", "unfolded": "folded", "open": "closed", "closed": "open",
	"contains": "empty", "empty": "contains", "filled": "empty"}

// implies maps a predicate to one it implies of the same arguments:
// (filled x s) with (not (contains x s)) is a contradiction too.
var implies = map[string]string{"filled": "contains"}

var ruleContradictoryInit = &Rule{
	Code: "contradictory-init", Name: "init", Severity: bddl.Error,
	Doc: "no contradictory :init literals: an atom and its negation, an exclusive pair such as folded and unfolded, " +
		"or (filled x s) with (not (contains x s))",
	Fix: "keep the literal you mean and delete the other",
	Check: func(c *Context) {
		lits := make(map[litKey]int, len(c.Init))
		for k := range c.Init {
			l := &c.Init[k]
			lits[literalKey(l.Pred, l.Args, l.Negated)] = k
		}
		type pair struct{ later, earlier int }
		var pairs []pair
		add := func(a, b int) {
			p := pair{max(a, b), min(a, b)}
			for _, q := range pairs {
				if q == p {
					return
				}
			}
			pairs = append(pairs, p)
		}
		for k := range c.Init {
			l := &c.Init[k]
			if l.Negated {
				continue
			}
			if o, ok := lits[literalKey(l.Pred, l.Args, true)]; ok {
				add(k, o) // the atom and its negation
			}
			if p, ok := exclusive[l.Pred]; ok {
				if o, ok := lits[literalKey(p, l.Args, false)]; ok {
					add(k, o)
				}
			}
			if p, ok := implies[l.Pred]; ok {
				if o, ok := lits[literalKey(p, l.Args, true)]; ok {
					add(k, o)
				}
			}
		}
		for _, p := range pairs {
			l, o := &c.Init[p.later], &c.Init[p.earlier]
			c.Report(l.Formula.Info().Range,
				fmt.Sprintf("%s contradicts %s at %s", literalText(l), literalText(o), at(o.Formula.Info().Range)),
				"keep the one you mean and delete the other")
		}
	},
}

var ruleDuplicateInit = &Rule{
	Code: "duplicate-init", Name: "init", Severity: bddl.Warning,
	Doc: "no :init literal is written twice",
	Fix: "delete the repetition",
	Check: func(c *Context) {
		first := make(map[litKey]int, len(c.Init))
		for k := range c.Init {
			l := &c.Init[k]
			key := literalKey(l.Pred, l.Args, l.Negated)
			if f, ok := first[key]; ok {
				c.Report(l.Formula.Info().Range, fmt.Sprintf("%s is written twice", literalText(l)),
					fmt.Sprintf("delete it; it is first written at %s", at(c.Init[f].Formula.Info().Range)))
				continue
			}
			first[key] = k
		}
	},
}
