package predicates

import (
	"fmt"
	"maps"
	"strings"
	"sync"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// Program is a compiled problem: the goal and init formulas as flat node
// arrays over dense object ids, with the per-object knowledge (synset,
// thresholds) the predicates need. A Program is immutable and safe for
// concurrent use; each goroutine evaluates its own State.
type Program struct {
	problem *bddl.Problem
	base    *kb.Base
	opts    Options
	rays    [][3]float64

	objs          []objInfo // objects, then constants
	index         map[string]ObjectID
	numObjects    int
	numIDs        int
	substIdx      []int32
	numSubstances int
	domains       [][]ObjectID

	nodes     []node
	meta      []nodeMeta // parallel to nodes, for traces
	goalRoot  int32
	initRoot  int32
	conjuncts []int32 // roots of the goal's top-level conjuncts
	nSlots    int
	truthBuf  int // scratch Truths the pair quantifiers need
	intBuf    int // scratch ints the pair quantifiers need

	// The lowered trees before any rewrite: ground options follow the
	// definition's own structure.
	goalIR, initIR *ir

	groundOnce sync.Once
	ground     *groundTree
	groundErr  error
}

// objInfo is what the program knows of one id.
type objInfo struct {
	name     string // as declared
	synset   string // its :objects type; "" for constants
	constant bool   // a bare name such as a room type
	synsetFacts
}

// node is one step of the flat program. Children follow their parent in
// pre-order; end is the index just past the node's subtree, so the next
// sibling of child c is nodes[c].end.
type node struct {
	op   irKind
	val  Truth  // opConst
	pred PredID // opAtom
	a, b int32  // atom arguments: ≥ -1 an object id (or NoObject), else the frame slot -x-2
	end  int32
	n    int32    // forn, fornpairs
	dom  [2]int32 // quantifier domains
	slot [2]int32 // quantifier slots
	tbuf int32    // pair quantifiers: offset of their Truth scratch
	ibuf int32    // pair quantifiers: offset of their int scratch
}

// nodeMeta maps a node back to the source for explanations.
type nodeMeta struct {
	src  bddl.Formula
	args [2]string // variable names of slot arguments
	vars [2]string // variables a quantifier binds
}

func encode(op operand) int32 {
	if op.slot >= 0 {
		return -op.slot - 2
	}
	return int32(op.obj)
}

// build rewrites and flattens the lowered trees.
func (p *Program) build(goal, init *ir, slots int32) {
	p.nSlots = int(slots)
	p.goalIR, p.initIR = goal, init
	prep := func(n *ir) *ir {
		if p.opts.Negation == StrictNegation {
			n = strictNNF(n, false, nil)
		}
		return fold(n, p.domains)
	}
	p.goalRoot = p.flatten(prep(goal))
	p.initRoot = p.flatten(prep(init))
	if goal.kind == irAnd {
		for _, k := range goal.kids {
			p.conjuncts = append(p.conjuncts, p.flatten(prep(k)))
		}
	} else {
		p.conjuncts = []int32{p.goalRoot}
	}
}

func (p *Program) flatten(n *ir) int32 {
	i := int32(len(p.nodes))
	p.nodes = append(p.nodes, node{op: n.kind, val: n.val, pred: n.pred, n: int32(n.n), dom: n.dom, slot: n.slot})
	p.meta = append(p.meta, nodeMeta{src: n.src, args: [2]string{n.args[0].name, n.args[1].name}, vars: n.vars})
	if n.kind == irAtom {
		p.nodes[i].a, p.nodes[i].b = encode(n.args[0]), encode(n.args[1])
	}
	if n.kind == irForPairs || n.kind == irForNPairs {
		rows, cols := len(p.domains[n.dom[0]]), len(p.domains[n.dom[1]])
		p.nodes[i].tbuf, p.nodes[i].ibuf = int32(p.truthBuf), int32(p.intBuf)
		if n.kind == irForPairs {
			p.nodes[i].n = int32(pairsSize(p.domains[n.dom[0]], p.domains[n.dom[1]]))
		}
		p.truthBuf += rows*cols + rows + cols
		p.intBuf += 2*cols + rows
	}
	for _, k := range n.kids {
		p.flatten(k)
	}
	p.nodes[i].end = int32(len(p.nodes))
	return i
}

// Problem returns the problem the program was compiled from.
func (p *Program) Problem() *bddl.Problem { return p.problem }

// Options returns the options in effect, defaults filled in.
func (p *Program) Options() Options { return p.opts }

// NumObjects is the number of instances (wildcards expanded); their ids
// are 0 to NumObjects()-1.
func (p *Program) NumObjects() int { return p.numObjects }

// NumIDs is the number of ids, instances and then constants.
func (p *Program) NumIDs() int { return p.numIDs }

// ObjectID looks up an instance (or a constant such as a room type) by
// name, case-insensitively. Do it once, at header time.
func (p *Program) ObjectID(name string) (ObjectID, bool) {
	if id, ok := p.index[bddl.Fold(name)]; ok {
		return id, true
	}
	return NoObject, false
}

// Name returns the name of an id as declared.
func (p *Program) Name(id ObjectID) string {
	if uint(id) >= uint(len(p.objs)) {
		if id == NoObject {
			return "none"
		}
		return "?"
	}
	return p.objs[id].name
}

// Synset returns the :objects type of an instance ("" for a constant).
func (p *Program) Synset(id ObjectID) string {
	if uint(id) >= uint(len(p.objs)) {
		return ""
	}
	return p.objs[id].synset
}

// IsConstant reports whether the id is a constant (a room type).
func (p *Program) IsConstant(id ObjectID) bool {
	return uint(id) < uint(len(p.objs)) && p.objs[id].constant
}

// IsSubstance reports whether the object can carry particle records: a
// substance by the knowledge base, or used as one by the definition.
func (p *Program) IsSubstance(id ObjectID) bool { return p.substanceIndex(id) >= 0 }

func (p *Program) substanceIndex(id ObjectID) int {
	if uint(id) >= uint(len(p.substIdx)) {
		return -1
	}
	return int(p.substIdx[id])
}

// Domain returns the instances a quantifier over synset ranges over:
// those declared under exactly that synset in :objects, in order, as the
// reference does (so a quantifier over fruit.n.01 does not reach apples
// declared as apple.n.01).
func (p *Program) Domain(synset string) []ObjectID {
	var out []ObjectID
	key := bddl.Fold(synset)
	for id := 0; id < p.numObjects; id++ {
		if p.objs[id].synset == key {
			out = append(out, ObjectID(id))
		}
	}
	return out
}

// PredID returns a predicate's id by name (see PredByName).
func (p *Program) PredID(name string) (PredID, bool) { return PredByName(bddl.Fold(name)) }

// ExpandWildcard returns a program compiled from the same problem and
// options in which the wildcard name (such as cabinet.n.01_*) stands for
// the given concrete instances. Programs are immutable, so this compiles
// anew; do it once per recording, at header time.
func (p *Program) ExpandWildcard(name string, concrete []string) (*Program, error) {
	opts := p.opts
	opts.Wildcards = maps.Clone(p.opts.Wildcards)
	if opts.Wildcards == nil {
		opts.Wildcards = map[string][]string{}
	}
	opts.Wildcards[name] = append([]string(nil), concrete...)
	return Compile(p.problem, p.base, opts)
}

// thresholdOrigin says where a threshold came from, for explanations.
func (p *Program) thresholdOrigin(a ObjectID, param string) string {
	if p.objs[a].inKB {
		return param + " of " + p.objs[a].synset
	}
	return "default " + param
}

// Disassemble lists the program's nodes, one per line with its depth,
// for debugging the compiler: "3 atom cooked ?x" or "0 forall ?x in
// sugar_cookie.n.01 (6)".
func (p *Program) Disassemble() string {
	var b strings.Builder
	var walk func(i int32, depth int)
	walk = func(i int32, depth int) {
		n := &p.nodes[i]
		fmt.Fprintf(&b, "%4d %s%s", i, strings.Repeat("  ", depth), kindNames[n.op])
		arg := func(x int32, name string) string {
			if x < -1 {
				return name
			}
			return p.Name(ObjectID(x))
		}
		switch n.op {
		case irConst:
			fmt.Fprintf(&b, " %v", n.val)
		case irAtom:
			fmt.Fprintf(&b, " %s %s", n.pred, arg(n.a, p.meta[i].args[0]))
			if n.pred.Arity() == 2 {
				b.WriteString(" " + arg(n.b, p.meta[i].args[1]))
			}
		case irForall, irExists, irForN, irForPairs, irForNPairs:
			if n.op == irForN || n.op == irForNPairs {
				fmt.Fprintf(&b, " %d", n.n)
			}
			fmt.Fprintf(&b, " %s in %d objects", p.meta[i].vars[0], len(p.domains[n.dom[0]]))
			if n.op == irForPairs || n.op == irForNPairs {
				fmt.Fprintf(&b, ", %s in %d objects", p.meta[i].vars[1], len(p.domains[n.dom[1]]))
			}
		}
		b.WriteByte('\n')
		for c := i + 1; c < n.end; c = p.nodes[c].end {
			walk(c, depth+1)
		}
	}
	b.WriteString("goal:\n")
	walk(p.goalRoot, 1)
	b.WriteString("init:\n")
	walk(p.initRoot, 1)
	return b.String()
}
