package predicates

import (
	"errors"
	"fmt"
	"iter"
	"math/big"
	"strings"
)

// Ground options (SEMANTICS.md A7). The reference expands a goal into a
// disjunction of "options", each a list of ground literals, bottom-up
// (bddl condition_evaluation.py, get_ground_options):
//
//	atom             one option: the literal
//	and, forall      the product of the children's options, concatenated
//	or, exists       the union of the children's options
//	imply a b        (or (not a) b)
//	not x            one literal from each of x's options, negated (De Morgan)
//	forn N           every choice of N children, the product of their options
//	forpairs         every matching of L = min(rows, columns) pairs, the
//	                 product of the matched cells' options
//	fornpairs N      every matching of N pairs, likewise
//
// and at the top drops every option holding a literal and its negation.
// We keep that structure as a tree of products, unions, choices and
// matchings over literal leaves, and never list the options unless asked:
// the scores and the count are computed on the tree. Where the reference
// lists one option several times (forn repeats each choice once per
// option of the children left out; the pair quantifiers list each
// matching once per ordering of its pairs) we count it once.

// Literal is a ground literal of an option: a predicate over objects,
// possibly negated.
type Literal struct {
	Pred    PredID
	A, B    ObjectID
	Negated bool
}

type gkind uint8

const (
	gLit    gkind = iota
	gProd         // every combination of one option per child
	gUnion        // the options of any child
	gChoose       // n of the children, combined as a product
	gMatch        // a matching of n cells of a rows × cols grid
)

type gnode struct {
	kind gkind
	lit  int32   // gLit
	kids []int32 // children; for gMatch the grid, row-major, -1 where absent
	n    int     // gChoose, gMatch
	rows int     // gMatch
	cols int     // gMatch
}

// groundTree is a goal's options, shared by scores, counts and iteration.
type groundTree struct {
	lits    []Literal
	litIdx  map[Literal]int32
	litNode map[int32]int32
	nodes   []gnode
	root    int32
	// contested lists, for each atom that occurs with both polarities,
	// its positive and negative literal: an option holding both is
	// dropped, as the reference drops it.
	contested [][2]int32
	contestOf map[int32]int // literal → index in contested
	// plain: the goal has one option, all its literals (a conjunction,
	// foralls of ground literals: no union, choice or matching, no atom
	// with both polarities); plainOpt is that option in extract's order.
	plain    bool
	plainOpt []Literal
	plainIdx []int32 // plainOpt's indices in lits
}

// Limits that keep the ground tree bounded. The tree is linear in the
// size of the ground formula except under a negation of a non-literal,
// which the reference expands by listing its child's options.
const (
	maxGroundNodes   = 1 << 20
	maxNegatedOption = 1 << 12
)

// ErrTooManyOptions reports a goal whose options cannot be represented:
// a negation over a part with very many options, or a huge ground goal.
var ErrTooManyOptions = errors.New("predicates: goal has too many ground options to represent")

type gbuilder struct {
	p     *Program
	t     *groundTree
	frame []ObjectID
	err   error
}

// groundTree builds the tree once per program.
func (p *Program) groundTree() (*groundTree, error) {
	p.groundOnce.Do(func() {
		b := &gbuilder{p: p, t: &groundTree{litIdx: map[Literal]int32{}, litNode: map[int32]int32{}, contestOf: map[int32]int{}},
			frame: make([]ObjectID, max(p.nSlots, 1))}
		b.t.root = b.build(p.goalIR)
		if b.err == nil && len(b.t.nodes) > maxGroundNodes {
			b.err = ErrTooManyOptions
		}
		if b.err != nil {
			p.groundErr = b.err
			return
		}
		b.t.findContested()
		b.t.findPlain()
		p.ground = b.t
	})
	return p.ground, p.groundErr
}

func (b *gbuilder) add(n gnode) int32 {
	b.t.nodes = append(b.t.nodes, n)
	if len(b.t.nodes) > maxGroundNodes && b.err == nil {
		b.err = ErrTooManyOptions
	}
	return int32(len(b.t.nodes) - 1)
}

func (b *gbuilder) literal(l Literal) int32 {
	t := b.t
	id, ok := t.litIdx[l]
	if !ok {
		id = int32(len(t.lits))
		t.lits = append(t.lits, l)
		t.litIdx[l] = id
	}
	if n, ok := t.litNode[id]; ok {
		return n
	}
	n := b.add(gnode{kind: gLit, lit: id})
	t.litNode[id] = n
	return n
}

func (b *gbuilder) resolve(op operand) ObjectID {
	if op.slot >= 0 {
		return b.frame[op.slot]
	}
	return op.obj
}

func (b *gbuilder) build(n *ir) int32 {
	if b.err != nil {
		return 0
	}
	switch n.kind {
	case irAtom:
		return b.literal(Literal{Pred: n.pred, A: b.resolve(n.args[0]), B: b.resolve(n.args[1])})
	case irNot:
		return b.negate(b.build(n.kids[0]))
	case irAnd, irOr:
		kids := make([]int32, len(n.kids))
		for i, k := range n.kids {
			kids[i] = b.build(k)
		}
		if n.kind == irAnd {
			return b.add(gnode{kind: gProd, kids: kids})
		}
		return b.add(gnode{kind: gUnion, kids: kids})
	case irImply:
		a := b.negate(b.build(n.kids[0]))
		return b.add(gnode{kind: gUnion, kids: []int32{a, b.build(n.kids[1])}})
	case irForall, irExists, irForN:
		var kids []int32
		for _, o := range b.p.domains[n.dom[0]] {
			b.frame[n.slot[0]] = o
			kids = append(kids, b.build(n.kids[0]))
		}
		switch n.kind {
		case irForall:
			return b.add(gnode{kind: gProd, kids: kids})
		case irExists:
			return b.add(gnode{kind: gUnion, kids: kids})
		}
		return b.add(gnode{kind: gChoose, kids: kids, n: n.n})
	case irForPairs, irForNPairs:
		return b.pairs(n)
	}
	// A constant (only from a definition that failed to compile): one
	// empty option.
	return b.add(gnode{kind: gProd})
}

// pairs lays the cells out as the reference does: row r holds the column
// objects other than row r's own object, by position, and the number of
// columns is the first row's length.
func (b *gbuilder) pairs(n *ir) int32 {
	rows, cols := b.p.domains[n.dom[0]], b.p.domains[n.dom[1]]
	width := 0
	lists := make([][]ObjectID, len(rows))
	for r, a := range rows {
		for _, c := range cols {
			if c != a {
				lists[r] = append(lists[r], c)
			}
		}
		if r == 0 {
			width = len(lists[r])
		}
	}
	grid := make([]int32, len(rows)*width)
	for r, a := range rows {
		b.frame[n.slot[0]] = a
		for j := 0; j < width; j++ {
			grid[r*width+j] = -1
			if j < len(lists[r]) {
				b.frame[n.slot[1]] = lists[r][j]
				grid[r*width+j] = b.build(n.kids[0])
			}
		}
	}
	size := n.n
	if n.kind == irForPairs {
		size = min(len(rows), width)
	}
	return b.add(gnode{kind: gMatch, kids: grid, n: size, rows: len(rows), cols: width})
}

// negate builds (not g): one literal from each option of g, negated.
// Through a union this is the product of the negations; in general the
// options of g are listed, which the reference does too.
func (b *gbuilder) negate(g int32) int32 {
	if b.err != nil {
		return 0
	}
	node := b.t.nodes[g]
	switch node.kind {
	case gLit:
		l := b.t.lits[node.lit]
		l.Negated = !l.Negated
		return b.literal(l)
	case gUnion:
		kids := make([]int32, len(node.kids))
		for i, k := range node.kids {
			kids[i] = b.negate(k)
		}
		return b.add(gnode{kind: gProd, kids: kids})
	}
	var options [][]int32
	for opt := range b.t.each(g, nil) {
		if len(options) == maxNegatedOption {
			b.err = fmt.Errorf("%w: a negation over more than %d options", ErrTooManyOptions, maxNegatedOption)
			return 0
		}
		options = append(options, append([]int32(nil), opt...))
	}
	prod := make([]int32, 0, len(options))
	for _, opt := range options {
		alts := make([]int32, len(opt))
		for i, lit := range opt {
			l := b.t.lits[lit]
			l.Negated = !l.Negated
			alts[i] = b.literal(l)
		}
		prod = append(prod, b.add(gnode{kind: gUnion, kids: alts}))
	}
	return b.add(gnode{kind: gProd, kids: prod})
}

func (t *groundTree) findPlain() {
	if len(t.contested) > 0 {
		return
	}
	var opt []Literal
	var idx []int32
	var walk func(k int32) bool
	walk = func(k int32) bool {
		switch n := &t.nodes[k]; n.kind {
		case gLit:
			opt, idx = append(opt, t.lits[n.lit]), append(idx, n.lit)
			return true
		case gProd:
			for _, c := range n.kids {
				if !walk(c) {
					return false
				}
			}
			return true
		}
		return false
	}
	if walk(t.root) && len(opt) > 0 {
		t.plain, t.plainOpt, t.plainIdx = true, opt, idx
	}
}

// plainScore is bestScore of a plain tree: its one option's share of
// sat literals (a search would find the same, at a tenth of a group
// step's cost).
func (t *groundTree) plainScore(sat []bool) Score {
	s := 0
	for _, l := range t.plainIdx {
		if sat[l] {
			s++
		}
	}
	return Score{Exact: true, Satisfied: s, Total: len(t.plainOpt), Value: float64(s) / float64(len(t.plainOpt)), Option: t.plainOpt}
}

func (t *groundTree) findContested() {
	// Only literals some option can hold count: building a negation
	// leaves its positive operand behind, unreachable.
	reach := make([]bool, len(t.nodes))
	used := make([]bool, len(t.lits))
	reach[t.root] = true
	for i := len(t.nodes) - 1; i >= 0; i-- {
		if !reach[i] {
			continue
		}
		n := &t.nodes[i]
		if n.kind == gLit {
			used[n.lit] = true
		}
		for _, k := range n.kids {
			if k >= 0 {
				reach[k] = true
			}
		}
	}
	for i, l := range t.lits {
		if l.Negated || !used[i] {
			continue
		}
		neg := l
		neg.Negated = true
		if j, ok := t.litIdx[neg]; ok && used[j] {
			t.contestOf[int32(i)] = len(t.contested)
			t.contestOf[j] = len(t.contested)
			t.contested = append(t.contested, [2]int32{int32(i), j})
		}
	}
}

// each lists the options of node g (literal ids, possibly repeated). The
// slice is reused between options; copy it to keep it.
func (t *groundTree) each(g int32, forbidden []bool) iter.Seq[[]int32] {
	return func(yield func([]int32) bool) {
		t.walk(g, nil, forbidden, yield)
	}
}

func (t *groundTree) walk(g int32, acc []int32, forbidden []bool, k func([]int32) bool) bool {
	n := &t.nodes[g]
	switch n.kind {
	case gLit:
		if forbidden != nil && forbidden[n.lit] {
			return true
		}
		return k(append(acc, n.lit))
	case gUnion:
		for _, c := range n.kids {
			if !t.walk(c, acc, forbidden, k) {
				return false
			}
		}
		return true
	case gProd:
		return t.walkProd(n.kids, acc, forbidden, k)
	case gChoose:
		return t.walkChoose(n.kids, n.n, acc, forbidden, k)
	case gMatch:
		used := make([]bool, n.cols)
		return t.walkMatch(n, 0, 0, used, acc, forbidden, k)
	}
	return true
}

func (t *groundTree) walkProd(kids []int32, acc []int32, forbidden []bool, k func([]int32) bool) bool {
	if len(kids) == 0 {
		return k(acc)
	}
	return t.walk(kids[0], acc, forbidden, func(a []int32) bool {
		return t.walkProd(kids[1:], a, forbidden, k)
	})
}

func (t *groundTree) walkChoose(kids []int32, need int, acc []int32, forbidden []bool, k func([]int32) bool) bool {
	if need == 0 {
		return k(acc)
	}
	for i := 0; i+need <= len(kids); i++ {
		rest := kids[i+1:]
		if !t.walk(kids[i], acc, forbidden, func(a []int32) bool {
			return t.walkChoose(rest, need-1, a, forbidden, k)
		}) {
			return false
		}
	}
	return true
}

func (t *groundTree) walkMatch(n *gnode, r, matched int, used []bool, acc []int32, forbidden []bool, k func([]int32) bool) bool {
	if matched == n.n {
		return k(acc)
	}
	if n.rows-r < n.n-matched {
		return true
	}
	for c := 0; c < n.cols; c++ {
		cell := n.kids[r*n.cols+c]
		if used[c] || cell < 0 {
			continue
		}
		used[c] = true
		ok := t.walk(cell, acc, forbidden, func(a []int32) bool {
			return t.walkMatch(n, r+1, matched+1, used, a, forbidden, k)
		})
		used[c] = false
		if !ok {
			return false
		}
	}
	// Row r left unmatched, when enough rows remain.
	if n.rows-r-1 >= n.n-matched {
		return t.walkMatch(n, r+1, matched, used, acc, forbidden, k)
	}
	return true
}

// consistent reports whether an option holds no literal together with
// its negation.
func (t *groundTree) consistent(opt []int32) bool {
	if len(t.contested) == 0 {
		return true
	}
	var seen map[int]bool
	for _, l := range opt {
		c, ok := t.contestOf[l]
		if !ok {
			continue
		}
		pos := t.contested[c][0] == l
		if seen == nil {
			seen = map[int]bool{}
		}
		if prev, ok := seen[c]; ok && prev != pos {
			return false
		}
		seen[c] = pos
	}
	return true
}

// GroundOptions lists the goal's ground options lazily, at most limit of
// them (all when limit ≤ 0), in the reference's order, without the
// inconsistent ones. Each option is a fresh slice. It lists nothing when
// the options cannot be represented (GroundOptionCount says why).
func (p *Program) GroundOptions(limit int) iter.Seq[[]Literal] {
	return func(yield func([]Literal) bool) {
		t, err := p.groundTree()
		if err != nil {
			return
		}
		n := 0
		for opt := range t.each(t.root, nil) {
			if !t.consistent(opt) {
				continue
			}
			out := make([]Literal, len(opt))
			for i, l := range opt {
				out[i] = t.lits[l]
			}
			if !yield(out) {
				return
			}
			n++
			if limit > 0 && n >= limit {
				return
			}
		}
	}
}

// FormatLiteral renders a ground literal: "(not (open fridge.n.01_1))".
func (p *Program) FormatLiteral(l Literal) string {
	var b strings.Builder
	if l.Negated {
		b.WriteString("(not ")
	}
	b.WriteString("(" + l.Pred.String() + " " + p.Name(l.A))
	if l.Pred.Arity() == 2 {
		b.WriteString(" " + p.Name(l.B))
	}
	b.WriteString(")")
	if l.Negated {
		b.WriteString(")")
	}
	return b.String()
}

// OptionCount is the number of ground options of the goal.
type OptionCount struct {
	// N is the number of options, after dropping the inconsistent ones.
	N *big.Int
	// Exact is false when the goal has so many atoms with both polarities
	// that dropping the inconsistent options was not counted exactly; N
	// then counts them too and is an upper bound.
	Exact bool
}

// maxContestedForCount bounds the inclusion–exclusion over atoms that
// occur with both polarities: it costs 3^k counts of the tree.
// Beyond it, options are listed and checked one by one when there are at
// most maxListedForCount of them before dropping.
const (
	maxContestedForCount = 7
	maxListedForCount    = 1 << 20
)

// GroundOptionCount counts the goal's ground options exactly, without
// listing them.
func (p *Program) GroundOptionCount() (OptionCount, error) {
	t, err := p.groundTree()
	if err != nil {
		return OptionCount{}, err
	}
	k := len(t.contested)
	if k > maxContestedForCount {
		n, err := t.count(nil)
		if err != nil {
			return OptionCount{}, err
		}
		if n.IsInt64() && n.Int64() <= maxListedForCount {
			// Few enough to list: count the consistent ones one by one.
			var c int64
			for opt := range t.each(t.root, nil) {
				if t.consistent(opt) {
					c++
				}
			}
			return OptionCount{N: big.NewInt(c), Exact: true}, nil
		}
		return OptionCount{N: n, Exact: false}, nil
	}
	// Inclusion–exclusion: an option is consistent iff for every contested
	// atom it avoids the positive or the negative literal, so the count is
	// the sum over choices per atom of (avoid +) + (avoid −) − (avoid both).
	total := new(big.Int)
	forbidden := make([]bool, len(t.lits))
	choice := make([]int, k)
	for {
		clear(forbidden)
		sign := 1
		for i, c := range choice {
			pos, neg := t.contested[i][0], t.contested[i][1]
			switch c {
			case 0:
				forbidden[pos] = true
			case 1:
				forbidden[neg] = true
			case 2:
				forbidden[pos], forbidden[neg] = true, true
				sign = -sign
			}
		}
		n, err := t.count(forbidden)
		if err != nil {
			return OptionCount{}, err
		}
		if sign > 0 {
			total.Add(total, n)
		} else {
			total.Sub(total, n)
		}
		i := 0
		for i < k && choice[i] == 2 {
			choice[i] = 0
			i++
		}
		if i == k {
			break
		}
		choice[i]++
	}
	return OptionCount{N: total, Exact: true}, nil
}

// maxMatchCountWidth bounds the bitmask counting of matchings.
const maxMatchCountWidth = 20

// count counts the options of the whole tree with the given literals
// forbidden (an option holding one is not counted).
func (t *groundTree) count(forbidden []bool) (*big.Int, error) {
	counts := make([]*big.Int, len(t.nodes))
	one := big.NewInt(1)
	for i := range t.nodes {
		n := &t.nodes[i]
		c := new(big.Int)
		switch n.kind {
		case gLit:
			if forbidden == nil || !forbidden[n.lit] {
				c.Set(one)
			}
		case gProd:
			c.Set(one)
			for _, k := range n.kids {
				c.Mul(c, counts[k])
			}
		case gUnion:
			for _, k := range n.kids {
				c.Add(c, counts[k])
			}
		case gChoose:
			// The elementary symmetric polynomial e_n of the children's counts.
			e := make([]*big.Int, n.n+1)
			for j := range e {
				e[j] = new(big.Int)
			}
			e[0].Set(one)
			tmp := new(big.Int)
			for _, k := range n.kids {
				for j := n.n; j >= 1; j-- {
					e[j].Add(e[j], tmp.Mul(e[j-1], counts[k]))
				}
			}
			c.Set(e[n.n])
		case gMatch:
			m, err := countMatchings(n, counts)
			if err != nil {
				return nil, err
			}
			c = m
		}
		counts[i] = c
	}
	return counts[t.root], nil
}

// countMatchings sums, over the matchings of n.n cells, the product of
// the cells' counts: a dynamic program over rows with the set of used
// columns (or over columns with the set of used rows, whichever is
// narrower).
func countMatchings(n *gnode, counts []*big.Int) (*big.Int, error) {
	rows, cols := n.rows, n.cols
	cell := func(r, c int) *big.Int {
		if k := n.kids[r*cols+c]; k >= 0 {
			return counts[k]
		}
		return nil
	}
	if cols > rows {
		// Count over columns instead.
		rows, cols = cols, rows
		orig := cell
		cell = func(r, c int) *big.Int { return orig(c, r) }
	}
	if cols > maxMatchCountWidth {
		return nil, fmt.Errorf("%w: a pair quantifier over %d × %d objects", ErrTooManyOptions, n.rows, n.cols)
	}
	if n.n > cols {
		return new(big.Int), nil
	}
	dp := make([]*big.Int, 1<<cols)
	dp[0] = big.NewInt(1)
	tmp := new(big.Int)
	for r := 0; r < rows; r++ {
		next := make([]*big.Int, len(dp))
		for mask, v := range dp {
			if v == nil || v.Sign() == 0 {
				continue
			}
			// Leave row r unmatched.
			if next[mask] == nil {
				next[mask] = new(big.Int)
			}
			next[mask].Add(next[mask], v)
			if popcount(mask) == n.n {
				continue
			}
			for c := 0; c < cols; c++ {
				if mask&(1<<c) != 0 {
					continue
				}
				w := cell(r, c)
				if w == nil || w.Sign() == 0 {
					continue
				}
				m2 := mask | 1<<c
				if next[m2] == nil {
					next[m2] = new(big.Int)
				}
				next[m2].Add(next[m2], tmp.Mul(v, w))
			}
		}
		dp = next
	}
	total := new(big.Int)
	for mask, v := range dp {
		if v != nil && popcount(mask) == n.n {
			total.Add(total, v)
		}
	}
	return total, nil
}

func popcount(x int) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}
