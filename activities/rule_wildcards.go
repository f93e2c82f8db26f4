package activities

import (
	"fmt"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// Wildcard instances such as cabinet.n.01_* stand for every object of the
// synset in a room (SEMANTICS.md B §3.2): the reference expands the last
// instance of an :objects line ending in * together with its inroom
// literal. The reference linter's instance pattern has no *, so it rejects
// these valid definitions; here they are accepted wherever they are valid.

var ruleWildcardNotSceneObject = &Rule{
	Code: "wildcard-not-scene-object", Name: "wildcards", Severity: bddl.Error,
	Doc: "a wildcard instance (x.n.01_*) is of a scene-object synset: only objects of the scene can be enumerated",
	Fix: "declare the instances one by one",
	Check: func(c *Context) {
		for i := range c.Instances {
			in := &c.Instances[i]
			if in.Wildcard && in.Synset != kb.NoSynset && !c.Base.Has(in.Synset, kb.SceneObject) {
				c.Report(in.Ident.Range, fmt.Sprintf("wildcard %s: %s is not a scene object, so there is nothing to enumerate", in.Ident.Name, c.name(in.Synset)),
					fmt.Sprintf("declare numbered instances (%s_1 %s_2 ...) and place each", c.name(in.Synset), c.name(in.Synset)))
			}
		}
	},
}

var ruleWildcardUsage = &Rule{
	Code: "wildcard-usage", Name: "wildcards", Severity: bddl.Error,
	Doc: "a wildcard instance is the last instance of its :objects line, has an inroom literal, and appears in no " +
		"other literal of :init or :goal (quantify over the synset instead)",
	Fix: "keep the wildcard in its inroom literal only; in the goal quantify over the synset",
	Check: func(c *Context) {
		for i := range c.Instances {
			in := &c.Instances[i]
			if !in.Wildcard {
				continue
			}
			if last := in.Decl.Instances[len(in.Decl.Instances)-1]; last.Key() != in.Name {
				c.Report(in.Ident.Range, fmt.Sprintf("wildcard %s is not the last instance of its line, so it is not expanded", in.Ident.Name),
					"move it to the end of the line")
			}
			if in.RoomLit < 0 && in.InInit {
				c.Report(in.Ident.Range, fmt.Sprintf("wildcard %s has no inroom literal", in.Ident.Name),
					fmt.Sprintf("add (inroom %s ROOM): a wildcard stands for the objects of one room type", in.Ident.Name))
			}
		}
		for k := range c.Init {
			l := &c.Init[k]
			if l.Pred == "inroom" && !l.Negated {
				continue
			}
			for _, a := range l.Args {
				if a.Kind == ArgInstance && c.Instances[a.Inst].Wildcard {
					c.Report(a.Term.Range, fmt.Sprintf("wildcard %s is used in %s; a wildcard may only appear in inroom", a.Term.Name, literalText(l)),
						"name a numbered instance here instead")
				}
			}
		}
		for k := range c.Goal {
			g := &c.Goal[k]
			for _, a := range g.Args {
				if a.Kind == ArgInstance && c.Instances[a.Inst].Wildcard {
					c.Report(a.Term.Range, fmt.Sprintf("wildcard %s is used in the goal; a wildcard may only appear in inroom", a.Term.Name),
						fmt.Sprintf("quantify over the synset instead: (forall (?%s - %s) ...)", c.name(c.Instances[a.Inst].Synset), c.name(c.Instances[a.Inst].Synset)))
				}
			}
		}
	},
}
