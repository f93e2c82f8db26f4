package activities

import (
	"fmt"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

var ruleSubstanceInstances = &Rule{
	Code: "substance-instances", Name: "substances", Severity: bddl.Error,
	Doc: "a substance has exactly one instance: it is one particle system, wherever its particles are",
	Fix: "declare one instance (water.n.06_1) and use it in every literal",
	Check: func(c *Context) {
		for _, d := range c.Problem.Objects {
			typ := d.Type.Key()
			insts := c.ofType[typ]
			if len(insts) == 0 || c.Instances[insts[0]].Decl != d || !c.Instances[insts[0]].Substance {
				continue // not a substance, or reported at the first line of the type
			}
			if len(insts) == 1 {
				continue
			}
			c.Report(d.Type.Range, fmt.Sprintf("substance %s has %d instances; a substance is one particle system and has exactly one", d.Type.Name, len(insts)),
				fmt.Sprintf("declare only %s_1 and use it wherever the substance is", d.Type.Name))
		}
	},
}

// IsSpecificContainer reports whether a synset name denotes a container
// made for one substance, such as flour__sack.n.01: a custom name with
// "__" that is not a part (half__), a derived substance (diced__,
// cooked__) or a filled container (bottle__of__milk).
func IsSpecificContainer(synset string) bool {
	return strings.Contains(synset, "__") && !strings.Contains(synset, "__of__") &&
		!strings.HasPrefix(synset, "half__") && !strings.Contains(synset, "diced__") && !strings.Contains(synset, "cooked__")
}

var ruleSpecificContainer = &Rule{
	Code: "specific-container", Name: "substances", Severity: bddl.Error,
	Doc: "a substance-specific container (flour__sack.n.01: a fillable synset with __ that is not half__, diced__, " +
		"cooked__ or __of__) is used as a container: filled, contains, insource or something inside it, in :init or :goal",
	Fix: "fill it (or put something in it), or use the container__of__substance synset for a closed package",
	Check: func(c *Context) {
		used := make([]bool, len(c.Instances))
		mark := func(a Arg) {
			switch a.Kind {
			case ArgInstance:
				used[a.Inst] = true
			case ArgVariable:
				for _, j := range c.ofType[a.Var.Type.Key()] {
					used[j] = true
				}
			}
		}
		visit := func(pred string, args []Arg) {
			if len(args) != 2 {
				return
			}
			switch pred {
			case "filled", "contains", "insource", "empty":
				mark(args[0])
			case "inside":
				mark(args[1])
			}
		}
		for k := range c.Init {
			visit(c.Init[k].Pred, c.Init[k].Args)
		}
		for k := range c.Goal {
			visit(c.Goal[k].Pred, c.Goal[k].Args)
		}
		for i := range c.Instances {
			in := &c.Instances[i]
			if used[i] || in.Agent || !c.Has(in.Synset, kb.Fillable) || !IsSpecificContainer(in.Decl.Type.Key()) {
				continue
			}
			c.Report(in.Ident.Range, fmt.Sprintf("%s is a container for one substance, but nothing fills it or is inside it", in.Ident.Name),
				"fill it in :init or :goal (filled, contains, insource, or inside it), or declare the closed package synset "+
					"(e.g. bottle__of__milk.n.01) instead")
		}
	},
}
