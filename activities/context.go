package activities

import (
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// Context is one problem prepared for the rules: instances resolved to
// synset ids, :init literals and :goal atoms with their arguments
// classified and typed. It is built once per problem; rules only read it
// and report through it.
type Context struct {
	Problem *bddl.Problem
	Base    *kb.Base
	// Domain is the problem's predicate vocabulary; 0 when its (:domain)
	// is unknown (the checker reports that).
	Domain kb.Domain
	// Instances are the declared instances in :objects order; a name
	// declared twice keeps its first declaration.
	Instances []Instance
	// Init holds the :init literals that are atoms or negated atoms.
	Init []Literal
	// Goal holds every atom of :goal in source order.
	Goal []GoalAtom

	index  map[string]int   // folded instance name → index in Instances
	ofType map[string][]int // folded type → instances declared under it
	info   *baseInfo        // knowledge-base indexes shared by problems
	cfg    *config
	rule   *Rule     // the rule running now
	out    []Finding // the findings so far

	// What several rules need, computed on first use.
	cache struct {
		placed     []bool
		violations *[]violation
		atoms      []atomRef
		reach      *reach
		reachDone  bool
		strict     *reach
		strictDone bool
	}
	feas *Feasibility
}

// Instance is one declared object or substance instance.
type Instance struct {
	Name  string     // folded, as names compare
	Ident bddl.Ident // as declared
	Decl  *bddl.ObjectDecl
	// Synset is the synset of the declared type, kb.NoSynset when the
	// knowledge base does not know it.
	Synset    kb.SynsetID
	Substance bool // the synset is a substance
	Wildcard  bool // name_*: every such object of its room
	Agent     bool // an agent.n.01 instance
	Future    bool // (future x) is in :init
	InInit    bool // some :init literal names it
	InGoal    bool // the goal names it directly
	// Quantified is true when the goal quantifies over its type, so it
	// takes part in the goal through a variable.
	Quantified bool
	// Room is the room type of its first inroom literal, "" if none.
	Room    string
	RoomLit int // index in Init of that literal, -1 if none
}

// ArgKind classifies an atom's argument.
type ArgKind uint8

const (
	// ArgUndeclared is an instance or variable name that is neither
	// declared nor bound; the checker reports it.
	ArgUndeclared ArgKind = iota
	ArgInstance           // a declared instance
	ArgVariable           // a variable bound by an enclosing quantifier
	ArgConstant           // a bare name such as a room type
)

// Arg is one argument of an atom, resolved.
type Arg struct {
	Kind ArgKind
	Term bddl.Term
	// Inst is the index in Instances of an ArgInstance, else -1.
	Inst int
	// Synset is the synset of the instance's or variable's type, or
	// kb.NoSynset.
	Synset kb.SynsetID
	// Var is the declaration binding an ArgVariable.
	Var *bddl.VarDecl
}

// Literal is one :init literal.
type Literal struct {
	Formula bddl.Formula // as written: the atom or its (not ...)
	Atom    *bddl.Atom
	Pred    string // folded
	Negated bool
	Args    []Arg
}

// GoalAtom is one atom of :goal.
type GoalAtom struct {
	Atom *bddl.Atom
	Pred string // folded
	Args []Arg
	// Negated is true under an odd number of negations (an imply's
	// condition counts as one).
	Negated bool
}

// AgentSynset is the synset BDDL uses for the robot.
const AgentSynset = "agent.n.01"

func newContext(p *bddl.Problem, base *kb.Base, cfg *config) *Context {
	c := &Context{Problem: p, Base: base, cfg: cfg, info: infoFor(base)}
	c.Domain, _ = kb.ParseDomain(p.Domain.Name)
	n := 0
	for _, d := range p.Objects {
		n += len(d.Instances)
	}
	c.Instances = make([]Instance, 0, n)
	c.index = make(map[string]int, n)
	c.ofType = make(map[string][]int, len(p.Objects))
	for _, d := range p.Objects {
		typ := d.Type.Key()
		syn, ok := base.Lookup(typ)
		if !ok {
			syn = kb.NoSynset
		}
		sub := ok && base.IsSubstance(syn)
		for _, id := range d.Instances {
			key := id.Key()
			if _, dup := c.index[key]; dup {
				continue
			}
			c.index[key] = len(c.Instances)
			c.ofType[typ] = append(c.ofType[typ], len(c.Instances))
			c.Instances = append(c.Instances, Instance{Name: key, Ident: id, Decl: d, Synset: syn, Substance: sub,
				Wildcard: strings.HasSuffix(key, "_*"), Agent: typ == AgentSynset, RoomLit: -1})
		}
	}
	c.resolveInit()
	c.resolveGoal()
	return c
}

// arg resolves a term outside any quantifier scope.
func (c *Context) arg(t bddl.Term) Arg {
	if t.Kind == bddl.ConstantTerm {
		return Arg{Kind: ArgConstant, Term: t, Inst: -1, Synset: kb.NoSynset}
	}
	if i, ok := c.index[t.Key()]; ok {
		return Arg{Kind: ArgInstance, Term: t, Inst: i, Synset: c.Instances[i].Synset}
	}
	return Arg{Kind: ArgUndeclared, Term: t, Inst: -1, Synset: kb.NoSynset}
}

func (c *Context) resolveInit() {
	nargs := 0
	for _, f := range c.Problem.Init {
		if a := literalAtom(f); a != nil {
			nargs += len(a.Args)
		}
	}
	args := make([]Arg, 0, nargs) // one backing array for every literal
	c.Init = make([]Literal, 0, len(c.Problem.Init))
	for _, f := range c.Problem.Init {
		a := literalAtom(f)
		if a == nil {
			continue // the checker reports non-literals
		}
		start := len(args)
		for _, t := range a.Args {
			arg := c.arg(t)
			args = append(args, arg)
			if arg.Kind == ArgInstance {
				c.Instances[arg.Inst].InInit = true
			}
		}
		lit := Literal{Formula: f, Atom: a, Pred: a.Pred.Key(), Negated: a != f, Args: args[start:len(args):len(args)]}
		if !lit.Negated && len(lit.Args) >= 1 && lit.Args[0].Kind == ArgInstance {
			in := &c.Instances[lit.Args[0].Inst]
			switch {
			case lit.Pred == "future" && len(lit.Args) == 1:
				in.Future = true
			case lit.Pred == "inroom" && len(lit.Args) == 2 && in.RoomLit < 0:
				in.Room, in.RoomLit = lit.Args[1].Term.Key(), len(c.Init)
			}
		}
		c.Init = append(c.Init, lit)
	}
}

// literalAtom returns the atom of an :init literal, or nil when f is not
// an atom or a negated atom.
func literalAtom(f bddl.Formula) *bddl.Atom {
	if n, ok := f.(*bddl.Not); ok {
		f = n.X
	}
	a, _ := f.(*bddl.Atom)
	return a
}

func (c *Context) resolveGoal() {
	if c.Problem.Goal == nil {
		return
	}
	var scope []*bddl.VarDecl
	var walk func(f bddl.Formula, neg bool)
	walk = func(f bddl.Formula, neg bool) {
		switch n := f.(type) {
		case *bddl.Atom:
			ga := GoalAtom{Atom: n, Pred: n.Pred.Key(), Negated: neg, Args: make([]Arg, len(n.Args))}
			for i, t := range n.Args {
				ga.Args[i] = c.goalArg(t, scope)
				if ga.Args[i].Kind == ArgInstance {
					c.Instances[ga.Args[i].Inst].InGoal = true
				}
			}
			c.Goal = append(c.Goal, ga)
		case *bddl.Not:
			walk(n.X, !neg)
		case *bddl.Imply:
			walk(n.If, !neg)
			walk(n.Then, neg)
		case *bddl.Quant:
			mark := len(scope)
			for i := range n.Vars {
				v := &n.Vars[i]
				scope = append(scope, v)
				for _, j := range c.ofType[v.Type.Key()] {
					c.Instances[j].Quantified = true
				}
			}
			walk(n.Body, neg)
			scope = scope[:mark]
		default:
			for _, x := range bddl.Operands(f) {
				walk(x, neg)
			}
		}
	}
	walk(c.Problem.Goal, false)
}

func (c *Context) goalArg(t bddl.Term, scope []*bddl.VarDecl) Arg {
	key := t.Key()
	for i := len(scope) - 1; i >= 0; i-- {
		if scope[i].Var.Key() == key {
			v := scope[i]
			syn, ok := c.Base.Lookup(v.Type.Key())
			if !ok {
				syn = kb.NoSynset
			}
			return Arg{Kind: ArgVariable, Term: t, Inst: -1, Synset: syn, Var: v}
		}
	}
	if i, ok := c.index[key]; ok {
		return Arg{Kind: ArgInstance, Term: t, Inst: i, Synset: c.Instances[i].Synset}
	}
	if t.Kind == bddl.ConstantTerm {
		return Arg{Kind: ArgConstant, Term: t, Inst: -1, Synset: kb.NoSynset}
	}
	return Arg{Kind: ArgUndeclared, Term: t, Inst: -1, Synset: kb.NoSynset}
}

// Lookup returns the index in Instances of a declared instance name.
func (c *Context) Lookup(name string) (int, bool) {
	i, ok := c.index[bddl.Fold(name)]
	return i, ok
}

// OfType returns the indexes of the instances declared under exactly the
// synset typ: the domain of a quantifier over typ.
func (c *Context) OfType(typ string) []int { return c.ofType[bddl.Fold(typ)] }

// Has reports whether the synset has property p; unknown synsets have
// nothing.
func (c *Context) Has(id kb.SynsetID, p kb.Property) bool {
	return id != kb.NoSynset && c.Base.Has(id, p)
}

// Report records a finding of the running rule at r.
func (c *Context) Report(r bddl.Range, message, fix string) {
	c.ReportSeverity(c.rule.Severity, r, message, fix)
}

// ReportSeverity records a finding of the running rule with an explicit
// severity.
func (c *Context) ReportSeverity(sev bddl.Severity, r bddl.Range, message, fix string) {
	c.out = append(c.out, Finding{Rule: c.rule.Name, Diagnostic: bddl.Diagnostic{
		Severity: sev, Code: c.rule.Code, Summary: message, Detail: fix, Subject: r, Source: c.Problem.Source}})
}

// whole returns a range for findings about the activity as a whole: the
// problem's name.
func (c *Context) whole() bddl.Range {
	if c.Problem.Name.Range.Start.IsValid() {
		return c.Problem.Name.Range
	}
	return c.Problem.Range
}

// section returns the range of a section's keyword, or whole().
func (c *Context) section(keyword string) bddl.Range {
	if s, ok := c.Problem.Section(keyword); ok {
		return s.Keyword.Range
	}
	return c.whole()
}

// name is the synset name of an id for messages.
func (c *Context) name(id kb.SynsetID) string {
	if id == kb.NoSynset {
		return "?"
	}
	return c.Base.Name(id)
}
