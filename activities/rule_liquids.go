package activities

import (
	"fmt"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// liquidProperty marks the substances this rule is about.
const liquidProperty = kb.Liquid

// The reference linter's water check looks for (filled water.n.06_1 ...)
// and (insource water.n.06_1 sink...), with the arguments the wrong way
// round, so it never matches; and it knows only water.n.06_1 in sinks.
// This rule covers every liquid, every instance name and every source.

var ruleUnsourcedLiquid = &Rule{
	Code: "unsourced-liquid", Name: "liquids", Severity: bddl.Error,
	Doc: "each liquid present initially comes from somewhere: filled or contains'd in a container, insource a " +
		"source object (sink, faucet), or covering or saturating an object (whether that object is placed is the " +
		"unplaced rule's question)",
	Fix: "add (filled CONTAINER x), or (insource SINK x) with the sink in a room",
	Check: func(c *Context) {
		anchored := make([]bool, len(c.Instances))
		for k := range c.Init {
			l := &c.Init[k]
			if !l.Negated && particlePlacement[l.Pred] && len(l.Args) == 2 && l.Args[1].Kind == ArgInstance {
				anchored[l.Args[1].Inst] = true
			}
		}
		for i := range c.Instances {
			in := &c.Instances[i]
			if anchored[i] || in.Future || !in.InInit || !c.Has(in.Synset, liquidProperty) {
				continue
			}
			source := c.example(func(j int) bool {
				return c.Has(c.Instances[j].Synset, kb.ParticleSource) && c.placed()[j]
			}, "")
			fix := fmt.Sprintf("put it in a container, e.g. (filled %s %s)",
				c.example(func(j int) bool { return c.Has(c.Instances[j].Synset, kb.Fillable) }, "CONTAINER"), in.Ident.Name)
			if source != "" {
				fix += fmt.Sprintf(", or at its source: (insource %s %s)", source, in.Ident.Name)
			} else {
				fix += fmt.Sprintf(", or at a source in a room: (insource sink.n.01_1 %s) with (inroom sink.n.01_1 kitchen)", in.Ident.Name)
			}
			c.Report(in.Ident.Range, fmt.Sprintf("liquid %s is in no container and at no source", in.Ident.Name), fix)
		}
	},
}
