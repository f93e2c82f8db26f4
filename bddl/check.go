package bddl

import (
	"sort"

	"github.com/openbddl/bddl/internal/suggest"
)

// Schema is what the checker needs to know about the world. The knowledge
// base (package kb) implements it; tests use small fakes.
type Schema interface {
	// IsSynset reports whether name is a known synset.
	IsSynset(name string) bool
	// Suggest returns known synsets whose names are close to name.
	Suggest(name string) []string
}

// Check reports the semantic problems of a parsed problem against its
// domain (nil: the embedded domain the problem names) and a schema (nil:
// synsets are not checked). Every finding is reported, not just the first.
func Check(p *Problem, domain *Domain, schema Schema) Diagnostics {
	c := &checker{problem: p, domain: domain, schema: schema, instances: map[string]Range{}}
	if c.domain == nil {
		d, ok := EmbeddedDomain(p.Domain.Name)
		if !ok {
			c.unknownDomain(p.Domain)
		}
		c.domain = d
	}
	c.objects()
	for _, f := range p.Init {
		c.init(f)
	}
	if p.Goal != nil {
		c.formula(p.Goal)
	}
	c.diags.Sort()
	return c.diags
}

type checker struct {
	problem   *Problem
	domain    *Domain
	schema    Schema
	instances map[string]Range // declared instances (folded) → where
	types     map[string]bool  // synsets with a type line (folded)
	scope     []VarDecl
	diags     Diagnostics
}

func (c *checker) errorf(r Range, code, summary, detail string) {
	c.diags = append(c.diags, &Diagnostic{Severity: Error, Code: code, Summary: summary, Detail: detail,
		Subject: r, Source: c.problem.Source})
}

func (c *checker) warnf(r Range, code, summary, detail string) {
	c.diags = append(c.diags, &Diagnostic{Severity: Warning, Code: code, Summary: summary, Detail: detail,
		Subject: r, Source: c.problem.Source})
}

func (c *checker) synset(id Ident) {
	if c.schema != nil && !c.schema.IsSynset(id.Key()) {
		c.unknownSynset(id)
	}
}

func (c *checker) objects() {
	c.types = map[string]bool{}
	lines := map[string]*ObjectDecl{}
	for _, d := range c.problem.Objects {
		typ := d.Type.Key()
		if first, dup := lines[typ]; dup {
			c.duplicateTypeLine(d, first)
		} else {
			lines[typ] = d
		}
		c.types[typ] = true
		c.synset(d.Type)
		for _, inst := range d.Instances {
			key := inst.Key()
			if first, dup := c.instances[key]; dup {
				c.duplicateInstance(inst, first)
				continue
			}
			c.instances[key] = inst.Range
			synset, _, ok := SplitInstance(key)
			switch {
			case !ok:
				c.badInstanceName(inst, d.Type.Name)
			case synset != typ:
				c.instanceType(inst, synset, d.Type.Name)
			}
		}
	}
}

func (c *checker) init(f Formula) {
	lit := f
	if n, ok := f.(*Not); ok {
		lit = n.X
	}
	a, ok := lit.(*Atom)
	if !ok {
		c.initNotLiteral(f)
		return
	}
	c.atom(a)
	for i, t := range a.Args {
		switch {
		case t.Kind == ConstantTerm && i > 0:
			// A room type or other constant; the activity rules check it.
		case t.Kind != InstanceTerm:
			c.initNotGround(t)
		default:
			if _, ok := c.instances[t.Key()]; !ok {
				c.undeclaredInstance(t)
			}
		}
	}
}

func (c *checker) atom(a *Atom) {
	if c.domain == nil {
		return
	}
	decl, ok := c.domain.Predicate(a.Pred.Name)
	if !ok {
		c.unknownPredicate(a)
		return
	}
	if len(decl.Params) != len(a.Args) {
		c.arity(a, decl)
	}
}

func (c *checker) formula(f Formula) {
	switch n := f.(type) {
	case *Atom:
		c.atom(n)
		for _, t := range n.Args {
			c.term(t)
		}
	case *Quant:
		mark := len(c.scope)
		for _, v := range n.Vars {
			c.synset(v.Type)
			if IsSynsetName(v.Var.Name) && v.Var.Key() != v.Type.Key() {
				c.variableType(v)
			}
			for _, outer := range c.scope {
				if outer.Var.Key() == v.Var.Key() {
					c.shadowedVariable(v, outer)
				}
			}
			if !c.types[v.Type.Key()] {
				c.quantifierTypeUndeclared(v)
			}
			c.scope = append(c.scope, v)
		}
		c.formula(n.Body)
		c.scope = c.scope[:mark]
	default:
		for _, x := range Operands(f) {
			c.formula(x)
		}
	}
}

func (c *checker) term(t Term) {
	key := t.Key()
	for _, v := range c.scope {
		if v.Var.Key() == key {
			return
		}
	}
	if _, ok := c.instances[key]; ok {
		return
	}
	switch {
	case t.Kind == InstanceTerm:
		c.undeclaredInstance(t)
	case t.Kind == VariableTerm:
		c.unboundVariable(t)
	}
	// Constants (room types) are checked by the activity rules, which know
	// the room types of the knowledge base.
}

// closest returns up to n candidates nearest to name by edit distance,
// among those close enough to be a plausible typo.
func closest(name string, candidates []string, n int) []string {
	type scored struct {
		name string
		dist int
	}
	var best []scored
	limit := max(2, len(name)/3)
	for _, cand := range candidates {
		if d := EditDistance(name, cand, limit); d <= limit {
			best = append(best, scored{cand, d})
		}
	}
	sort.Slice(best, func(i, j int) bool {
		if best[i].dist != best[j].dist {
			return best[i].dist < best[j].dist
		}
		return best[i].name < best[j].name
	})
	var out []string
	for i := 0; i < len(best) && i < n; i++ {
		out = append(out, best[i].name)
	}
	return out
}

// EditDistance is the Levenshtein distance of a and b, or limit+1 when it
// exceeds limit; did-you-mean suggestions here and in package kb use it.
func EditDistance(a, b string, limit int) int { return suggest.Distance(a, b, limit) }
