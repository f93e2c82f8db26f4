package predicates

import (
	"strings"

	"github.com/openbddl/bddl/bddl"
)

// Explanations. Explain evaluates exhaustively and records every node's
// value, per binding of the quantified variables, as a tree mapped back
// to the source; Reasons then picks the ground literals responsible for a
// goal that is not True, with the recorded values they were decided on.
// This path allocates freely; Eval never takes it.

// Trace is the record of one exhaustive evaluation.
type Trace struct {
	Value Truth
	Root  *TraceNode
	Stats EvalStats
}

// TraceNode is one evaluated node. A quantifier has one child per object
// of its domain (per pair for the pair quantifiers), each carrying the
// bindings it was evaluated under.
type TraceNode struct {
	// Formula is the source node this node came from; for a node made by
	// strict negation it is the negation it replaced.
	Formula  bddl.Formula
	Kind     string // "and", "or", "not", "imply", "atom", "forall", ..., "const"
	Value    Truth
	Bindings []Binding // variables bound when this child was evaluated
	Children []*TraceNode

	// Atoms only.
	Pred   string
	Args   []string  // the ground arguments
	Vars   []Binding // the atom's variables and their objects
	Source Source
	Detail string // the recorded values the atom was decided on

	idx int32 // the program node
}

// Binding is a variable and the object it stands for.
type Binding struct {
	Var    string
	Object string
}

type tracer struct {
	stack []*TraceNode
	root  *TraceNode
}

var kindNames = [...]string{irConst: "const", irAtom: "atom", irNot: "not", irAnd: "and", irOr: "or", irImply: "imply",
	irForall: "forall", irExists: "exists", irForN: "forn", irForPairs: "forpairs", irForNPairs: "fornpairs"}

func (t *tracer) enter(m *machine, i int32) {
	tn := &TraceNode{Formula: m.p.meta[i].src, Kind: kindNames[m.nodes[i].op]}
	if k := len(t.stack); k > 0 {
		parent := t.stack[k-1]
		pn := &m.nodes[parent.node()]
		switch pn.op {
		case irForall, irExists, irForN, irForPairs, irForNPairs:
			meta := &m.p.meta[parent.node()]
			tn.Bindings = append(tn.Bindings, Binding{Var: meta.vars[0], Object: m.p.Name(m.frame[pn.slot[0]])})
			if pn.op == irForPairs || pn.op == irForNPairs {
				tn.Bindings = append(tn.Bindings, Binding{Var: meta.vars[1], Object: m.p.Name(m.frame[pn.slot[1]])})
			}
		}
		parent.Children = append(parent.Children, tn)
	} else {
		t.root = tn
	}
	tn.setNode(i)
	t.stack = append(t.stack, tn)
}

func (t *tracer) atom(m *machine, i int32, a, b ObjectID, src Source) {
	tn := t.stack[len(t.stack)-1]
	n := &m.nodes[i]
	info := &registry[n.pred]
	tn.Pred = info.name
	tn.Source = src
	ids := []ObjectID{a, b}[:info.arity]
	encoded := []int32{n.a, n.b}
	for k, id := range ids {
		tn.Args = append(tn.Args, m.p.Name(id))
		if encoded[k] < -1 {
			tn.Vars = append(tn.Vars, Binding{Var: m.p.meta[i].args[k], Object: m.p.Name(id)})
		}
	}
	tn.Detail = m.p.describe(m.s, n.pred, a, b, src)
}

func (t *tracer) exit(_ int32, v Truth) {
	top := t.stack[len(t.stack)-1]
	top.Value = v
	t.stack = t.stack[:len(t.stack)-1]
}

func (tn *TraceNode) setNode(i int32) { tn.idx = i }
func (tn *TraceNode) node() int32     { return tn.idx }

// describe explains how an atom was decided.
func (p *Program) describe(s *State, pred PredID, a, b ObjectID, src Source) string {
	info := &registry[pred]
	if info.ungated && src == SourceExistence {
		return info.detail(p, s, a, b)
	}
	if info.irreflexive && a == b && src == SourceStatic {
		return info.name + " never relates an object to itself"
	}
	switch src {
	case SourceExistence:
		var gone []string
		if s.exists[a] == False {
			gone = append(gone, p.Name(a))
		}
		if info.arity == 2 && s.exists[b] == False {
			gone = append(gone, p.Name(b))
		}
		if len(gone) > 1 {
			return strings.Join(gone, " and ") + " do not exist"
		}
		return strings.Join(gone, " and ") + " does not exist"
	case SourceFact:
		return "recorded fact " + s.Fact(pred, a, b).String()
	case SourceClosedWorld:
		return "not recorded (closed world)"
	case SourceStatic:
		return info.detail(p, s, a, b)
	}
	d := info.detail(p, s, a, b)
	switch src {
	case SourceGeometry:
		d += " (approximate)"
	case SourceUncertain:
		d += " (approximate: undecided within the boxes' uncertainty)"
	}
	if !info.ungated && src == SourceMissing {
		var unsure []string
		if s.exists[a] == Unknown {
			unsure = append(unsure, p.Name(a))
		}
		if info.arity == 2 && s.exists[b] == Unknown {
			unsure = append(unsure, p.Name(b))
		}
		if len(unsure) > 0 {
			d += "; missing existence of " + strings.Join(unsure, " and ")
		}
	}
	return d
}

// Explain evaluates :goal exhaustively and records every node.
func (p *Program) Explain(s *State) *Trace {
	return p.explain(s, p.goalRoot)
}

// ExplainInit is Explain for the :init literals.
func (p *Program) ExplainInit(s *State) *Trace {
	return p.explain(s, p.initRoot)
}

func (p *Program) explain(s *State, root int32) *Trace {
	if !p.compatible(s) {
		return &Trace{Value: Unknown}
	}
	m := p.machine(s)
	m.exhaustive = true
	tr := &tracer{}
	var st EvalStats
	m.tr, m.stats = tr, &st
	v := m.eval(root)
	return &Trace{Value: v, Root: tr.root, Stats: st}
}

// Reason is a ground literal responsible for a goal not being True.
type Reason struct {
	// Value is False for an unsatisfied literal, Unknown for an
	// undetermined one (True when explaining why a negated part holds).
	Value Truth
	// Literal is the literal as written: "(cooked ?sugar_cookie.n.01)" or
	// "(not (open ?fridge.n.01_1))".
	Literal string
	Range   bddl.Range
	// Ground is the literal with its arguments bound:
	// "(cooked sugar_cookie.n.01_3)".
	Ground string
	// Args are the ground literal's arguments: the instances it is about.
	Args   []string
	Vars   []Binding
	Source Source
	Detail string
}

// String renders the reason as one line: "unsatisfied: (cooked
// ?sugar_cookie.n.01) for sugar_cookie.n.01_3: max_temperature 41.0 < 70
// (cook_temperature of sugar_cookie.n.01)".
func (r Reason) String() string {
	var b strings.Builder
	switch r.Value {
	case False:
		b.WriteString("unsatisfied: ")
	case Unknown:
		b.WriteString("undetermined: ")
	default:
		b.WriteString("holds: ")
	}
	b.WriteString(r.Literal)
	if len(r.Vars) > 0 {
		b.WriteString(" for ")
		for i, v := range r.Vars {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(v.Object)
		}
	}
	if r.Detail != "" {
		b.WriteString(": ")
		b.WriteString(r.Detail)
	}
	return b.String()
}

// Reasons lists the ground literals that make the traced formula not
// True: for a False conjunction its False parts, for a False disjunction
// all of its parts, for an Unknown result the Unknown parts, down to the
// literals. It is empty when the value is True.
func (t *Trace) Reasons() []Reason {
	if t == nil || t.Root == nil || t.Value == True {
		return nil
	}
	var out []Reason
	collect(t.Root, t.Value, nil, &out)
	return out
}

// collect explains why n has value want; negation is the Not node above
// an atom, if any, so the literal is reported as written.
func collect(n *TraceNode, want Truth, negation *TraceNode, out *[]Reason) {
	if n.Value != want {
		return
	}
	switch n.Kind {
	case "const":
		return
	case "atom":
		*out = append(*out, reasonFor(n, negation))
		return
	case "not":
		if len(n.Children) == 1 && n.Children[0].Kind == "atom" {
			collect(n.Children[0], want.Not(), n, out)
			return
		}
		for _, c := range n.Children {
			collect(c, want.Not(), nil, out)
		}
		return
	case "imply":
		if len(n.Children) == 2 {
			// (or (not a) b): explain a's value flipped, and b.
			collect(n.Children[0], want.Not(), nil, out)
			collect(n.Children[1], want, nil, out)
		}
		return
	case "forn", "forpairs", "fornpairs":
		// For a count that is False, the parts that are not True explain
		// too few, the True parts too many; report the kind that failed.
		if want == False {
			nTrue := 0
			for _, c := range n.Children {
				if c.Value == True {
					nTrue++
				}
			}
			if n.Kind == "forn" && nTrue > quantN(n) {
				for _, c := range n.Children {
					collect(c, True, nil, out)
				}
				return
			}
			for _, c := range n.Children {
				if c.Value != True {
					collect(c, c.Value, nil, out)
				}
			}
			return
		}
	}
	for _, c := range n.Children {
		collect(c, want, nil, out)
	}
}

func quantN(n *TraceNode) int {
	if q, ok := n.Formula.(*bddl.Quant); ok {
		return q.N
	}
	return 0
}

func reasonFor(atom, negation *TraceNode) Reason {
	r := Reason{Value: atom.Value, Source: atom.Source, Detail: atom.Detail, Vars: atom.Vars}
	lit := atom
	if negation != nil {
		r.Value = atom.Value.Not()
		lit = negation
	}
	if lit.Formula != nil {
		r.Literal = bddl.String(lit.Formula)
		r.Range = lit.Formula.Info().Range
	}
	ground := "(" + atom.Pred + " " + strings.Join(atom.Args, " ") + ")"
	if negation != nil {
		ground = "(not " + ground + ")"
	}
	r.Ground = ground
	r.Args = atom.Args
	if r.Literal == "" {
		r.Literal = ground
	}
	return r
}
