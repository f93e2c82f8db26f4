package predicates

import "github.com/openbddl/bddl/bddl"

// The intermediate form between the BDDL tree and the flat program: names
// are resolved to ids and slots, and rewrites (strict negation, constant
// folding) are plain functions from trees to trees. Ground options for
// the scores are built from the lowered tree before any rewrite, because
// they follow the definition's own structure as the reference does.

type irKind uint8

const (
	irConst irKind = iota
	irAtom
	irNot
	irAnd
	irOr
	irImply
	irForall
	irExists
	irForN
	irForPairs
	irForNPairs
)

// operand is an atom argument: a variable slot, or a fixed object.
type operand struct {
	slot int32    // ≥ 0: the variable in this frame slot
	obj  ObjectID // the object when slot < 0
	name string   // the variable's name, for traces
}

func objOperand(id ObjectID) operand { return operand{slot: -1, obj: id} }

type ir struct {
	kind irKind
	src  bddl.Formula // the source node it came from, for traces
	val  Truth        // irConst
	pred PredID       // irAtom
	args [2]operand   // irAtom; args[1] unused for unary predicates
	kids []*ir
	n    int       // irForN, irForNPairs
	dom  [2]int32  // domain ids of the bound variables
	slot [2]int32  // frame slots of the bound variables
	vars [2]string // names of the bound variables ("?x", or a wildcard's name)
}

func (n *ir) copyWith(kids []*ir) *ir {
	c := *n
	c.kids = kids
	return &c
}

func constIR(v Truth, src bddl.Formula) *ir { return &ir{kind: irConst, val: v, src: src} }

// strictNNF rewrites a tree to negation normal form and replaces negated
// members of the predicate pairs by their strict partners (SEMANTICS.md
// A6). Negation cannot pass through forn, forpairs and fornpairs, which
// are not De Morgan duals of anything; it stays on top of them while
// their bodies are rewritten on their own.
// negSrc is the source of the innermost negation being pushed down, so a
// rewritten literal still points at the (not ...) it came from.
func strictNNF(n *ir, neg bool, negSrc bddl.Formula) *ir {
	switch n.kind {
	case irConst:
		if neg {
			return constIR(n.val.Not(), n.src)
		}
		return n
	case irAtom:
		if !neg {
			return n
		}
		if partner := registry[n.pred].partner; partner != predInvalid {
			c := *n
			c.pred = partner
			if negSrc != nil {
				c.src = negSrc
			}
			return &c
		}
		src := negSrc
		if src == nil {
			src = n.src
		}
		return &ir{kind: irNot, src: src, kids: []*ir{n}}
	case irNot:
		return strictNNF(n.kids[0], !neg, n.src)
	case irAnd, irOr:
		kids := make([]*ir, len(n.kids))
		for i, k := range n.kids {
			kids[i] = strictNNF(k, neg, negSrc)
		}
		c := n.copyWith(kids)
		if neg {
			c.kind = irAnd + irOr - n.kind
		}
		return c
	case irImply:
		// (imply a b) = (or (not a) b); negated: (and a (not b)).
		a, b := n.kids[0], n.kids[1]
		c := n.copyWith([]*ir{strictNNF(a, !neg, n.src), strictNNF(b, neg, negSrc)})
		c.kind = irOr
		if neg {
			c.kind = irAnd
		}
		return c
	case irForall, irExists:
		c := n.copyWith([]*ir{strictNNF(n.kids[0], neg, negSrc)})
		if neg {
			c.kind = irForall + irExists - n.kind
		}
		return c
	default: // forn, forpairs, fornpairs
		c := n.copyWith([]*ir{strictNNF(n.kids[0], false, nil)})
		if neg {
			src := negSrc
			if src == nil {
				src = n.src
			}
			return &ir{kind: irNot, src: src, kids: []*ir{c}}
		}
		return c
	}
}

// fold evaluates what does not depend on the state: static atoms
// (insource), connectives over constants, quantifiers over empty domains.
// Folding never changes a value, so every evaluation mode agrees.
func fold(n *ir, domains [][]ObjectID) *ir {
	if n.kind == irAtom {
		if v := registry[n.pred].static; v != Unknown {
			return constIR(v, n.src)
		}
		return n
	}
	if n.kind == irConst {
		return n
	}
	kids := make([]*ir, len(n.kids))
	for i, k := range n.kids {
		kids[i] = fold(k, domains)
	}
	switch n.kind {
	case irNot:
		if kids[0].kind == irConst {
			return constIR(kids[0].val.Not(), n.src)
		}
	case irAnd, irOr:
		absorbing, neutral := False, True
		if n.kind == irOr {
			absorbing, neutral = True, False
		}
		var live []*ir
		for _, k := range kids {
			if k.kind == irConst {
				if k.val == absorbing {
					return constIR(absorbing, n.src)
				}
				if k.val == neutral {
					continue
				}
			}
			live = append(live, k)
		}
		switch len(live) {
		case 0:
			return constIR(neutral, n.src)
		case 1:
			return live[0]
		}
		kids = live
	case irImply:
		a, b := kids[0], kids[1]
		switch {
		case a.kind == irConst && a.val == False, b.kind == irConst && b.val == True:
			return constIR(True, n.src)
		case a.kind == irConst && a.val == True:
			return b
		case b.kind == irConst && b.val == False:
			return fold(&ir{kind: irNot, src: n.src, kids: []*ir{a}}, domains)
		}
	case irForall, irExists:
		size := len(domains[n.dom[0]])
		empty := False
		if n.kind == irForall {
			empty = True
		}
		if size == 0 {
			return constIR(empty, n.src)
		}
		if kids[0].kind == irConst && kids[0].val != Unknown {
			return constIR(kids[0].val, n.src)
		}
	case irForN:
		size := len(domains[n.dom[0]])
		if size == 0 {
			return constIR(TruthOf(n.n == 0), n.src)
		}
		if b := kids[0]; b.kind == irConst && b.val != Unknown {
			if b.val == True {
				return constIR(TruthOf(size == n.n), n.src)
			}
			return constIR(TruthOf(n.n == 0), n.src)
		}
	case irForPairs, irForNPairs:
		rows, cols := len(domains[n.dom[0]]), len(domains[n.dom[1]])
		need := n.n
		if n.kind == irForPairs {
			need = 0 // L = min(rows, cols) is 0 only for an empty domain
		}
		if rows == 0 || cols == 0 {
			return constIR(TruthOf(need == 0), n.src)
		}
	}
	return n.copyWith(kids)
}
