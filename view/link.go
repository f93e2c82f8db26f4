package view

import (
	"sort"
	"strings"

	"github.com/openbddl/bddl/bddl"
)

// The page's colours are by role; these are the roles, most specific
// first (an object that is both a container and a support is drawn as
// a container).
const (
	RoleAgent     = "agent"
	RoleContainer = "container"
	RoleSupport   = "support"
	RoleTask      = "task"
	RoleScene     = "scene"
)

// containerPreds put an object inside their second argument; supportPreds
// put one on, under or over their second argument; fillPreds say their
// first argument holds a substance.
var (
	containerPreds = map[string]bool{"inside": true}
	supportPreds   = map[string]bool{"ontop": true, "onfloor": true, "under": true, "overlaid": true, "draped": true}
	fillPreds      = map[string]bool{"filled": true, "contains": true, "insource": true}
)

// Link gives each object its role and each :init literal and goal
// conjunct the objects it names. Without a definition every object is
// a scene object and nothing is linked.
func (d *Episode) Link(p *bddl.Problem, conjuncts []string) {
	index := map[string]int{}
	for i, o := range d.Objects {
		index[bddl.Fold(o.Name)] = i
		d.Objects[i].Role = RoleScene
	}
	typeOf := map[string]string{}
	if p != nil {
		for _, decl := range p.Objects {
			for _, in := range decl.Instances {
				typeOf[in.Key()] = decl.Type.Key()
			}
		}
	}
	rank := map[string]int{RoleScene: 0, RoleTask: 1, RoleSupport: 2, RoleContainer: 3, RoleAgent: 4}
	set := func(name, role string) {
		if i, ok := index[bddl.Fold(name)]; ok && rank[role] > rank[d.Objects[i].Role] {
			d.Objects[i].Role = role
		}
	}
	for name, typ := range typeOf {
		if typ == "agent.n.01" {
			set(name, RoleAgent)
		} else {
			set(name, RoleTask)
		}
	}
	var walk func(f bddl.Formula)
	walk = func(f bddl.Formula) {
		switch f := f.(type) {
		case *bddl.Atom:
			pred := f.Pred.Key()
			switch {
			case containerPreds[pred] && len(f.Args) == 2:
				set(f.Args[1].Name, RoleContainer)
			case fillPreds[pred] && len(f.Args) >= 1:
				set(f.Args[0].Name, RoleContainer)
			case supportPreds[pred] && len(f.Args) == 2:
				set(f.Args[1].Name, RoleSupport)
			}
		case *bddl.Not:
			walk(f.X)
		case *bddl.And:
			for _, x := range f.Xs {
				walk(x)
			}
		case *bddl.Or:
			for _, x := range f.Xs {
				walk(x)
			}
		case *bddl.Imply:
			walk(f.If)
			walk(f.Then)
		case *bddl.Quant:
			walk(f.Body)
		}
	}
	named := func(text string) []int {
		seen := map[int]bool{}
		for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return r == '(' || r == ')' || r == ' ' || r == '\t' || r == '\n' }) {
			tok = bddl.Fold(strings.TrimPrefix(tok, "?"))
			if i, ok := index[tok]; ok {
				seen[i] = true
				continue
			}
			// A type (of a quantified variable) names each object of it.
			for name, typ := range typeOf {
				if typ == tok {
					if i, ok := index[name]; ok {
						seen[i] = true
					}
				}
			}
		}
		out := make([]int, 0, len(seen))
		for i := range seen {
			out = append(out, i)
		}
		sort.Ints(out)
		return out
	}
	if p != nil {
		for _, f := range p.Init {
			walk(f)
			text := bddl.String(f)
			d.Init = append(d.Init, Literal{Text: text, Objects: named(text)})
		}
		if p.Goal != nil {
			walk(p.Goal)
		}
	}
	for _, c := range conjuncts {
		d.Conjuncts = append(d.Conjuncts, Literal{Text: c, Objects: named(c)})
	}
}
