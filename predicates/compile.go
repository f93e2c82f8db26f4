package predicates

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// Compile resolves a parsed problem against the knowledge base into a
// program over dense object ids: every name is resolved once, quantifier
// domains become id slices, static parts are folded, and :goal and :init
// are lowered to a flat node array that Eval walks without allocating.
// base may be nil: every synset then gets the reference defaults.
//
// Problems in the definition (an unknown predicate or instance, a wrong
// number of arguments, an unbound variable) are returned as
// bddl.Diagnostics positioned on the offending source, all at once.
func Compile(problem *bddl.Problem, base *kb.Base, opts Options) (*Program, error) {
	if problem == nil {
		return nil, errors.New("predicates: Compile of a nil problem")
	}
	c := &compiler{
		problem: problem,
		base:    base,
		p: &Program{
			problem: problem,
			base:    base,
			opts:    opts.withDefaults(),
			index:   map[string]ObjectID{},
		},
		domainOf:  map[string]int32{},
		wildcards: map[string]int32{},
	}
	c.p.rays = horizontalDirs(c.p.opts.Geometry.HorizontalRays)
	c.objects()
	c.constants()
	if problem.Goal == nil {
		c.errorf(problem.Name.Range, "no-goal", "problem "+problem.Name.Name+" has no :goal to evaluate", "add a (:goal ...) section")
	}
	if len(c.diags) > 0 {
		c.diags.Sort()
		return nil, c.diags
	}
	var goal *ir
	if problem.Goal != nil {
		goal = c.lower(problem.Goal)
	}
	var inits []*ir
	for _, f := range problem.Init {
		inits = append(inits, c.lower(f))
	}
	if len(c.diags) > 0 {
		c.diags.Sort()
		return nil, c.diags
	}
	c.substances()
	c.p.build(goal, &ir{kind: irAnd, kids: inits}, c.maxDepth)
	return c.p, nil
}

// compiler holds the state of one Compile.
type compiler struct {
	problem *bddl.Problem
	base    *kb.Base
	p       *Program
	diags   bddl.Diagnostics

	domainOf  map[string]int32 // synset → domain id of its declared instances
	wildcards map[string]int32 // wildcard name → domain id of its expansion
	scope     []scopeVar
	depth     int32 // slots in use
	maxDepth  int32
	substArgs []ObjectID // objects seen as a substance argument
}

type scopeVar struct {
	name string
	slot int32
	dom  int32
}

func (c *compiler) errorf(r bddl.Range, code, summary, detail string) {
	c.diags = append(c.diags, &bddl.Diagnostic{Severity: bddl.Error, Code: code, Summary: summary, Detail: detail,
		Subject: r, Source: c.problem.Source})
}

// objects assigns ids to the instances of :objects in order, replacing a
// wildcard by its expansion, and records each synset's domain.
func (c *compiler) objects() {
	p := c.p
	declared := map[string][]ObjectID{}
	var order []string
	add := func(name, synset string, r bddl.Range) (ObjectID, bool) {
		key := bddl.Fold(name)
		if _, dup := p.index[key]; dup {
			c.errorf(r, "duplicate-instance", "instance "+name+" is declared twice", "remove one of the declarations")
			return NoObject, false
		}
		id := ObjectID(len(p.objs))
		facts := lookupSynset(c.base, synset)
		p.objs = append(p.objs, objInfo{name: name, synset: synset, synsetFacts: facts})
		p.index[key] = id
		return id, true
	}
	for _, d := range c.problem.Objects {
		synset := d.Type.Key()
		if _, seen := declared[synset]; !seen {
			order = append(order, synset)
			declared[synset] = nil
		}
		for _, inst := range d.Instances {
			if bddl.IsWildcard(inst.Key()) {
				var ids []ObjectID
				for _, name := range c.expansion(inst.Name) {
					if id, ok := add(name, synset, inst.Range); ok {
						ids = append(ids, id)
					}
				}
				declared[synset] = append(declared[synset], ids...)
				c.wildcards[inst.Key()] = c.domain(ids)
				continue
			}
			if id, ok := add(inst.Name, synset, inst.Range); ok {
				declared[synset] = append(declared[synset], id)
			}
		}
	}
	for _, synset := range order {
		c.domainOf[synset] = c.domain(declared[synset])
	}
	p.numObjects = len(p.objs)
	for name := range c.p.opts.Wildcards {
		if _, ok := c.wildcards[bddl.Fold(name)]; !ok {
			c.errorf(c.problem.Name.Range, "unknown-wildcard", "Options.Wildcards expands "+name+", which :objects does not declare",
				"declare it, e.g. "+name+" - "+strings.TrimSuffix(name, "_*"))
		}
	}
}

// expansion is the concrete instance list of a wildcard from the options.
func (c *compiler) expansion(name string) []string {
	if names, ok := c.p.opts.Wildcards[name]; ok {
		return names
	}
	for k, names := range c.p.opts.Wildcards {
		if bddl.Fold(k) == bddl.Fold(name) {
			return names
		}
	}
	return nil
}

func (c *compiler) domain(ids []ObjectID) int32 {
	c.p.domains = append(c.p.domains, ids)
	return int32(len(c.p.domains) - 1)
}

// constants gives ids, after the objects, to the bare names the
// definition uses as arguments: the room types of inroom.
func (c *compiler) constants() {
	var names []string
	seen := map[string]bool{}
	c.problem.Atoms(func(a *bddl.Atom) {
		for _, t := range a.Args {
			if t.Kind == bddl.ConstantTerm && !seen[t.Key()] {
				if _, isObj := c.p.index[t.Key()]; !isObj {
					seen[t.Key()] = true
					names = append(names, t.Key())
				}
			}
		}
	})
	sort.Strings(names)
	for _, name := range names {
		id := ObjectID(len(c.p.objs))
		c.p.objs = append(c.p.objs, objInfo{name: name, constant: true, synsetFacts: synsetFacts{thr: defaultThresholds}})
		c.p.index[name] = id
	}
	c.p.numIDs = len(c.p.objs)
}

// substances marks the objects that can be the second argument of the
// particle predicates: substances by the knowledge base, and anything the
// definition uses that way (so a definition works without a knowledge base).
func (c *compiler) substances() {
	p := c.p
	p.substIdx = make([]int32, p.numIDs)
	for i := range p.substIdx {
		p.substIdx[i] = -1
	}
	mark := func(id ObjectID) {
		if p.substIdx[id] < 0 && !p.objs[id].constant {
			p.substIdx[id] = int32(p.numSubstances)
			p.numSubstances++
		}
	}
	for id := 0; id < p.numObjects; id++ {
		if p.objs[id].substance {
			mark(ObjectID(id))
		}
	}
	for _, id := range c.substArgs {
		mark(id)
	}
}

// lower resolves one formula.
func (c *compiler) lower(f bddl.Formula) *ir {
	switch n := f.(type) {
	case *bddl.Atom:
		return c.atom(n)
	case *bddl.Not:
		return &ir{kind: irNot, src: f, kids: []*ir{c.lower(n.X)}}
	case *bddl.And:
		return &ir{kind: irAnd, src: f, kids: c.lowerAll(n.Xs)}
	case *bddl.Or:
		return &ir{kind: irOr, src: f, kids: c.lowerAll(n.Xs)}
	case *bddl.Imply:
		return &ir{kind: irImply, src: f, kids: []*ir{c.lower(n.If), c.lower(n.Then)}}
	case *bddl.Quant:
		return c.quant(n)
	}
	return constIR(Unknown, f)
}

func (c *compiler) lowerAll(fs []bddl.Formula) []*ir {
	out := make([]*ir, 0, len(fs))
	for _, f := range fs {
		out = append(out, c.lower(f))
	}
	return out
}

func (c *compiler) bind(v bddl.VarDecl) (slot, dom int32) {
	dom, ok := c.domainOf[v.Type.Key()]
	if !ok {
		dom = c.domain(nil) // no instance of that synset: an empty domain
		c.domainOf[v.Type.Key()] = dom
	}
	slot = c.depth
	c.depth++
	c.maxDepth = max(c.maxDepth, c.depth)
	c.scope = append(c.scope, scopeVar{name: v.Var.Key(), slot: slot, dom: dom})
	return slot, dom
}

func (c *compiler) quant(q *bddl.Quant) *ir {
	kinds := map[bddl.QuantKind]irKind{bddl.Forall: irForall, bddl.Exists: irExists, bddl.ForN: irForN,
		bddl.ForPairs: irForPairs, bddl.ForNPairs: irForNPairs}
	n := &ir{kind: kinds[q.Kind], src: q, n: q.N}
	want := 1
	if q.Kind.Pairs() {
		want = 2
	}
	if len(q.Vars) != want {
		c.errorf(q.Range, "quantifier-vars", fmt.Sprintf("%s binds %d variables, found %d", q.Kind, want, len(q.Vars)), "")
		return constIR(Unknown, q)
	}
	if q.Kind.Counted() && q.N < 0 {
		c.errorf(q.NRange, "quantifier-count", fmt.Sprintf("%s needs a count ≥ 0, found %d", q.Kind, q.N), "")
	}
	saveDepth, saveScope := c.depth, len(c.scope)
	for i, v := range q.Vars {
		n.slot[i], n.dom[i] = c.bind(v)
		n.vars[i] = "?" + v.Var.Name
	}
	n.kids = []*ir{c.lower(q.Body)}
	c.depth, c.scope = saveDepth, c.scope[:saveScope]
	return n
}

// atom resolves a predicate and its arguments. An argument naming a
// wildcard stands for each of its concrete instances, so the atom becomes
// a conjunction over the expansion (as the reference's preprocessing
// duplicates such lines).
func (c *compiler) atom(a *bddl.Atom) *ir {
	pred, ok := PredByName(a.Pred.Key())
	if !ok {
		c.errorf(a.Pred.Range, "unknown-predicate", "unknown predicate "+a.Pred.Name,
			"the predicates are those of the omnigibson and igibson domains, plus closed and empty"+didYouMean(a.Pred.Key()))
		return constIR(Unknown, a)
	}
	info := &registry[pred]
	if len(a.Args) != info.arity {
		c.errorf(a.Range, "arity", fmt.Sprintf("%s takes %d argument(s), found %d", info.name, info.arity, len(a.Args)), "")
		return constIR(Unknown, a)
	}
	n := &ir{kind: irAtom, src: a, pred: pred}
	n.args[1] = objOperand(NoObject)
	saveDepth := c.depth // wildcard arguments take hidden slots for this atom only
	defer func() { c.depth = saveDepth }()
	var wrap []scopeVar
	for i, t := range a.Args {
		roomArg := i == 1 && info.second == argRoomType
		op, w, ok := c.term(t, roomArg)
		if !ok {
			return constIR(Unknown, a)
		}
		if w != nil {
			wrap = append(wrap, *w)
		}
		n.args[i] = op
		if i == 1 && info.second == argSubstance {
			if w != nil {
				c.substArgs = append(c.substArgs, c.p.domains[w.dom]...)
			} else {
				c.noteSubstance(op)
			}
		}
	}
	// Wrap wildcard arguments innermost-last: (forall (w1) (forall (w2) atom)).
	out := n
	for i := len(wrap) - 1; i >= 0; i-- {
		out = &ir{kind: irForall, src: a, dom: [2]int32{wrap[i].dom}, slot: [2]int32{wrap[i].slot},
			vars: [2]string{wrap[i].name}, kids: []*ir{out}}
	}
	return out
}

// term resolves one argument. For a wildcard it allocates a hidden slot
// and returns the quantifier to wrap around the atom.
func (c *compiler) term(t bddl.Term, roomArg bool) (operand, *scopeVar, bool) {
	key := t.Key()
	if t.Kind == bddl.VariableTerm {
		for i := len(c.scope) - 1; i >= 0; i-- {
			if c.scope[i].name == key {
				return operand{slot: c.scope[i].slot, name: t.Text()}, nil, true
			}
		}
		c.errorf(t.Range, "unbound-variable", "variable "+t.Text()+" is not bound by an enclosing quantifier",
			"bind it with (forall (?"+t.Name+" - TYPE) ...) or name a declared instance")
		return operand{}, nil, false
	}
	if roomArg {
		if id, ok := c.p.index[key]; ok && c.p.objs[id].constant {
			return objOperand(id), nil, true
		}
		c.errorf(t.Range, "bad-argument", t.Text()+" is not a room type", "inroom takes a room type such as kitchen")
		return operand{}, nil, false
	}
	if dom, ok := c.wildcards[key]; ok {
		slot := c.depth
		c.depth++
		c.maxDepth = max(c.maxDepth, c.depth)
		return operand{slot: slot, name: t.Text()}, &scopeVar{name: t.Text(), slot: slot, dom: dom}, true
	}
	id, ok := c.p.index[key]
	if !ok || c.p.objs[id].constant {
		c.errorf(t.Range, "unknown-instance", t.Text()+" is not declared in :objects", "declare it, or bind it with a quantifier")
		return operand{}, nil, false
	}
	return objOperand(id), nil, true
}

func (c *compiler) noteSubstance(op operand) {
	if op.slot < 0 {
		c.substArgs = append(c.substArgs, op.obj)
		return
	}
	for i := len(c.scope) - 1; i >= 0; i-- {
		if c.scope[i].slot == op.slot {
			c.substArgs = append(c.substArgs, c.p.domains[c.scope[i].dom]...)
			return
		}
	}
}

// didYouMean suggests the registered predicate closest to name.
func didYouMean(name string) string {
	best, bestD := "", 3
	for id := 1; id < numPreds; id++ {
		if d := bddl.EditDistance(name, registry[id].name, 2); d < bestD {
			best, bestD = registry[id].name, d
		}
	}
	if best == "" {
		return ""
	}
	return "; did you mean " + best + "?"
}
