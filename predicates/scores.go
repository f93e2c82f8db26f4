package predicates

import (
	"errors"
	"math"
	"slices"
)

// Partial credit (SEMANTICS.md A7), computed exactly without listing the
// ground options.
//
// The library score is the best, over the options, of the fraction of
// the option's literals that are True now; the challenge score counts in
// the numerator only the literals that were False at the first step and
// are True now (the denominator stays the option's length, as in
// OmniGibson's task metric). Success gives 1 for both.
//
// A maximum of ratios over a product of choices does not decompose, but
// its parametric form does: for a trial ratio λ = p/q, the best option
// maximises Σ (q·sat(l) − p) over its literals, and that maximum is a sum
// over products, a maximum over unions, a top-n selection over choices
// and an assignment problem over matchings. Dinkelbach's iteration moves
// λ to the ratio of the maximising option until the maximum is 0; every
// step is exact integer arithmetic and raises λ strictly, so it ends, in
// a handful of passes in practice. The reference drops options holding a
// literal and its negation; a branch and bound over those atoms' polarity
// enforces that: the relaxation that ignores it bounds every branch, and
// an optimum that holds no such pair is the answer for its branch.

// Score is one partial-credit score and the option that achieves it.
type Score struct {
	Value     float64   // Satisfied / Total, or 1 on success
	Satisfied int       // literals counted in the best option
	Total     int       // literals in the best option
	Option    []Literal // the best option's literals
	// Exact is false only when the search over atoms with both
	// polarities ran out of budget; Value is then the best found.
	Exact bool
}

// Scores are the partial-credit scores of one step.
type Scores struct {
	Success      Truth
	Library      Score
	Challenge    Score
	HasChallenge bool // false when no baseline state was given
}

const (
	negInf      = math.MinInt64 / 4
	maxBnBNodes = 1 << 12 // branch-and-bound nodes per score before giving up exactness
)

// Scores computes the library score of now and, when baseline (the
// first step) is not nil, the challenge score.
func (p *Program) Scores(now, baseline *State) (*Scores, error) {
	return p.ScoresMemo(now, baseline, nil)
}

// ScoreMemo remembers the last few scores of one episode, keyed by
// which goal literals count: a step rarely changes them, and the option
// search is most of the cost of a step's result (a session answering
// each step). One per episode, not for concurrent use; the zero value
// is ready.
type ScoreMemo struct {
	entries [scoreMemoSize]scoreMemoEntry
	next    int
	nowV    []Truth
	sat     []bool
	key     []byte

	sc        *scorer // reused by the searches: its tables are per pass
	forbidden []bool  // all false between searches

	// The baseline FixBaseline read: which literals were False in it
	// (baseFalse), for calls given that same baseline.
	fixed     *State
	baseFalse []bool
}

// FixBaseline tells m that baseline (the first step's state, which a
// session copies once and never changes) stays as it is now: the
// challenge score's "False at the first step" is read from it once here,
// not for every literal at every step. A later call with another
// baseline reads that one as before.
func (m *ScoreMemo) FixBaseline(p *Program, baseline *State) error {
	m.fixed, m.baseFalse = nil, m.baseFalse[:0]
	if baseline == nil {
		return nil
	}
	if !p.compatible(baseline) {
		return errors.New("predicates: FixBaseline with a state of another program")
	}
	t, err := p.groundTree()
	if err != nil {
		return err
	}
	for _, l := range t.lits {
		m.baseFalse = append(m.baseFalse, p.literalValue(baseline, l) == False)
	}
	m.fixed = baseline
	return nil
}

// baselineFalse is whether literal i of t was False in baseline.
func (m *ScoreMemo) baselineFalse(p *Program, baseline *State, t *groundTree, i int) bool {
	if m != nil && m.fixed == baseline && len(m.baseFalse) == len(t.lits) {
		return m.baseFalse[i]
	}
	return p.literalValue(baseline, t.lits[i]) == False
}

const scoreMemoSize = 4

type scoreMemoEntry struct {
	key   []byte // one byte per literal: sat, then a separator
	score Score
	ok    bool
}

// best is bestScore through the memo: the same Score for the same sat.
func (m *ScoreMemo) best(t *groundTree, sat []bool) Score {
	if m == nil || t.plain {
		return t.bestScore(sat)
	}
	m.key = m.key[:0]
	for _, v := range sat {
		b := byte(0)
		if v {
			b = 1
		}
		m.key = append(m.key, b)
	}
	for i := range m.entries {
		if e := &m.entries[i]; e.ok && string(e.key) == string(m.key) {
			return e.score
		}
	}
	if m.sc == nil || m.sc.t != t {
		m.sc, m.forbidden = newScorer(t), make([]bool, len(t.lits))
	} else {
		clear(m.sc.matched) // the choose tables are rewritten by every pass
	}
	sc := t.bestScoreWith(sat, m.sc, m.forbidden)
	e := &m.entries[m.next]
	m.next = (m.next + 1) % scoreMemoSize
	e.key, e.score, e.ok = append(e.key[:0], m.key...), sc, true
	return sc
}

// ScoresMemo is Scores remembering results in m (nil: none). The
// Option slices of its results may be shared with later results: do
// not modify them.
func (p *Program) ScoresMemo(now, baseline *State, m *ScoreMemo) (*Scores, error) {
	if !p.compatible(now) {
		return nil, errors.New("predicates: Scores with a state of another program")
	}
	return p.ScoresKnowing(now, baseline, m, p.Eval(now))
}

// ScoresKnowing is ScoresMemo for a caller that has just evaluated the
// goal on now (success is p.Eval(now)): a checker stepping an episode
// evaluates it every step, and evaluating it again for the scores was a
// tenth of a group step's work.
func (p *Program) ScoresKnowing(now, baseline *State, m *ScoreMemo, success Truth) (*Scores, error) {
	if !p.compatible(now) || baseline != nil && !p.compatible(baseline) {
		return nil, errors.New("predicates: Scores with a state of another program")
	}
	t, err := p.groundTree()
	if err != nil {
		return nil, err
	}
	out := &Scores{Success: success}
	var nowV []Truth
	var sat []bool
	if m != nil {
		m.nowV, m.sat = slices.Grow(m.nowV[:0], len(t.lits))[:len(t.lits)], slices.Grow(m.sat[:0], len(t.lits))[:len(t.lits)]
		nowV, sat = m.nowV, m.sat
	} else {
		nowV, sat = make([]Truth, len(t.lits)), make([]bool, len(t.lits))
	}
	for i, l := range t.lits {
		nowV[i] = p.literalValue(now, l)
	}
	for i, v := range nowV {
		sat[i] = v == True
	}
	out.Library = m.best(t, sat)
	if baseline != nil {
		out.HasChallenge = true
		for i := range t.lits {
			sat[i] = nowV[i] == True && m.baselineFalse(p, baseline, t, i)
		}
		out.Challenge = m.best(t, sat)
	}
	if out.Success == True {
		out.Library.Value = 1
		out.Challenge.Value = 1
	}
	return out, nil
}

// ScoreValues are the values of ScoresKnowing's library and challenge
// scores (the challenge 0 without a baseline), without the options that
// achieve them: a session's per-step result reads only these, and a
// step where no literal counts needs no search.
func (p *Program) ScoreValues(now, baseline *State, m *ScoreMemo, success Truth) (library, challenge float64, err error) {
	if !p.compatible(now) || baseline != nil && !p.compatible(baseline) {
		return 0, 0, errors.New("predicates: ScoreValues with a state of another program")
	}
	t, err := p.groundTree()
	if err != nil {
		return 0, 0, err
	}
	if success == True {
		return 1, 1, nil
	}
	var sat []bool
	if m != nil {
		m.sat = slices.Grow(m.sat[:0], len(t.lits))[:len(t.lits)]
		sat = m.sat
	} else {
		sat = make([]bool, len(t.lits))
	}
	counted := false
	for i, l := range t.lits {
		sat[i] = p.literalValue(now, l) == True
		counted = counted || sat[i]
	}
	if !counted { // every option scores 0 (or there is none: 0 too)
		return 0, 0, nil
	}
	library = m.best(t, sat).Value
	if baseline != nil {
		counted = false
		for i := range t.lits {
			sat[i] = sat[i] && m.baselineFalse(p, baseline, t, i)
			counted = counted || sat[i]
		}
		if counted {
			challenge = m.best(t, sat).Value
		}
	}
	return library, challenge, nil
}

// literalValue evaluates one ground literal with the program's negation.
func (p *Program) literalValue(s *State, l Literal) Truth {
	pred := l.Pred
	if l.Negated && p.opts.Negation == StrictNegation {
		if partner := registry[pred].partner; partner != predInvalid {
			v, _ := p.atom(s, partner, l.A, l.B)
			return v
		}
	}
	v, _ := p.atom(s, pred, l.A, l.B)
	if l.Negated {
		return v.Not()
	}
	return v
}

// bestScore maximises the fraction of sat literals over the consistent
// options.
func (t *groundTree) bestScore(sat []bool) Score {
	if t.plain {
		return t.plainScore(sat)
	}
	return t.bestScoreWith(sat, newScorer(t), make([]bool, len(t.lits)))
}

// bestScoreWith is bestScore with a scorer of t and an all-false
// forbidden slice to reuse (a ScoreMemo's).
func (t *groundTree) bestScoreWith(sat []bool, sc *scorer, forbidden []bool) Score {
	var best struct {
		p, q int64
		opt  []int32
		have bool
	}
	budget := maxBnBNodes
	exact := true
	var search func()
	search = func() {
		if budget == 0 {
			exact = false
			return
		}
		budget--
		p, q, opt, ok := sc.maximize(sat, forbidden, best.p, best.q, best.have)
		if !ok {
			return
		}
		pos, neg := t.clash(opt)
		if pos < 0 {
			best.p, best.q, best.opt, best.have = p, q, opt, true
			return
		}
		// Keep the polarity the relaxed optimum leans to first.
		first, second := neg, pos
		if sat[pos] {
			first, second = pos, neg
		}
		for _, banned := range []int32{first, second} {
			forbidden[banned] = true
			search()
			forbidden[banned] = false
		}
	}
	search()
	out := Score{Exact: exact}
	if best.have {
		out.Satisfied, out.Total = int(best.p), int(best.q)
		if best.q > 0 {
			out.Value = float64(best.p) / float64(best.q)
		}
		out.Option = make([]Literal, len(best.opt))
		for i, l := range best.opt {
			out.Option[i] = t.lits[l]
		}
	}
	return out
}

// clash returns a literal of opt and its negation when opt holds both.
func (t *groundTree) clash(opt []int32) (pos, neg int32) {
	if len(t.contested) == 0 {
		return -1, -1
	}
	seen := map[int]uint8{}
	for _, l := range opt {
		c, ok := t.contestOf[l]
		if !ok {
			continue
		}
		bit := uint8(1)
		if t.contested[c][1] == l {
			bit = 2
		}
		seen[c] |= bit
		if seen[c] == 3 {
			return t.contested[c][0], t.contested[c][1]
		}
	}
	return -1, -1
}

// scorer holds the per-node values of one parametric pass: f is the best
// weight of a non-empty option of the node, e whether the node has an
// empty option (a forall over no object), which counts as a choice of
// weight 0 inside a product but never as an option of its own, as the
// reference's metric skips empty options.
type scorer struct {
	t       *groundTree
	w       []int64
	f       []int64
	e       []bool
	choose  map[int32][][][2]int64 // gChoose tables for reconstruction
	matched map[int32][]matchPick  // gMatch picks for reconstruction
}

type matchPick struct {
	cell     int32
	nonempty bool
}

func newScorer(t *groundTree) *scorer {
	return &scorer{t: t, w: make([]int64, len(t.lits)), f: make([]int64, len(t.nodes)), e: make([]bool, len(t.nodes)),
		choose: map[int32][][][2]int64{}, matched: map[int32][]matchPick{}}
}

func add(a, b int64) int64 {
	if a == negInf || b == negInf {
		return negInf
	}
	return a + b
}

// g is the best weight of any option of node k, empty ones included.
func (sc *scorer) g(k int32) int64 {
	if sc.e[k] && sc.f[k] < 0 {
		return 0
	}
	return sc.f[k]
}

// maximize runs Dinkelbach's iteration from the floor ratio fp/fq (or 0
// without one) and returns the best ratio strictly above the floor with
// its option, or ok false when no option beats it.
func (sc *scorer) maximize(sat, forbidden []bool, fp, fq int64, haveFloor bool) (p, q int64, opt []int32, ok bool) {
	p, q = 0, 1
	if haveFloor {
		p, q = fp, fq
	}
	for {
		for i := range sc.w {
			switch {
			case forbidden[i]:
				sc.w[i] = negInf
			case sat[i]:
				sc.w[i] = q - p
			default:
				sc.w[i] = -p
			}
		}
		sc.pass()
		f := sc.f[sc.t.root]
		if f == negInf || f < 0 || f == 0 && (ok || haveFloor) {
			return p, q, opt, ok
		}
		opt = sc.extract(sc.t.root, true, nil)
		var s int64
		for _, l := range opt {
			if sat[l] {
				s++
			}
		}
		n := int64(len(opt))
		ok = true
		if s*q == p*n {
			return s, n, opt, true
		}
		p, q = s, n
	}
}

// pass computes f and e for every node, children first.
func (sc *scorer) pass() {
	t := sc.t
	for i := range t.nodes {
		n := &t.nodes[i]
		k := int32(i)
		switch n.kind {
		case gLit:
			sc.f[k], sc.e[k] = sc.w[n.lit], false
		case gUnion:
			f, e := int64(negInf), false
			for _, c := range n.kids {
				f = max(f, sc.f[c])
				e = e || sc.e[c]
			}
			sc.f[k], sc.e[k] = f, e
		case gProd:
			sc.f[k], sc.e[k] = sc.prod(n.kids)
		case gChoose:
			sc.f[k], sc.e[k] = sc.chooseN(k, n)
		case gMatch:
			sc.f[k], sc.e[k] = sc.match(k, n)
		}
	}
}

func (sc *scorer) prod(kids []int32) (int64, bool) {
	sum, e := int64(0), true
	nonempty := false
	penalty := int64(negInf)
	for _, c := range kids {
		g := sc.g(c)
		sum = add(sum, g)
		e = e && sc.e[c]
		if sc.f[c] != negInf {
			if sc.f[c] == g {
				nonempty = true
			}
			if d := g - sc.f[c]; penalty == negInf || d < penalty {
				penalty = d
			}
		}
	}
	switch {
	case sum == negInf:
		return negInf, false
	case nonempty:
		return sum, e
	case penalty == negInf:
		return negInf, e
	}
	return sum - penalty, e
}

// chooseN picks n children maximising the sum, at least one non-empty:
// table[i][j] holds, after i children with j chosen, the best sums
// without ([0]) and with ([1]) a non-empty choice.
func (sc *scorer) chooseN(k int32, n *gnode) (int64, bool) {
	// The node's table from an earlier pass is reused: every cell is
	// written again here, and a memo's scorer makes these passes every
	// step of a session.
	table := sc.choose[k]
	if len(table) != len(n.kids)+1 || len(table[0]) != n.n+1 {
		w := n.n + 1
		cells := make([][2]int64, len(n.kids)*w+w)
		table = make([][][2]int64, len(n.kids)+1)
		for i := range table {
			table[i] = cells[i*w : (i+1)*w : (i+1)*w]
		}
		sc.choose[k] = table
	}
	for _, row := range table {
		for j := range row {
			row[j] = [2]int64{negInf, negInf}
		}
	}
	table[0][0][0] = 0
	for i, c := range n.kids {
		cur, next := table[i], table[i+1]
		for j := 0; j <= n.n; j++ {
			for h := 0; h < 2; h++ {
				v := cur[j][h]
				if v == negInf {
					continue
				}
				next[j][h] = max(next[j][h], v)
				if j == n.n {
					continue
				}
				if sc.e[c] {
					next[j+1][h] = max(next[j+1][h], v)
				}
				if sc.f[c] != negInf {
					next[j+1][1] = max(next[j+1][1], v+sc.f[c])
				}
			}
		}
	}
	last := table[len(n.kids)][n.n]
	return last[1], last[0] != negInf
}

// match finds the best matching of n.n cells, at least one non-empty.
func (sc *scorer) match(k int32, n *gnode) (int64, bool) {
	weight := func(cell int32) int64 {
		if cell < 0 {
			return negInf
		}
		return sc.g(cell)
	}
	best, picks := assignment(n.rows, n.cols, n.n, func(r, c int) int64 { return weight(n.kids[r*n.cols+c]) }, -1, -1)
	e := best != negInf && emptyMatchingExists(n, sc.e)
	chosen := make([]matchPick, 0, len(picks))
	nonempty := false
	for _, pk := range picks {
		cell := n.kids[pk]
		ne := sc.f[cell] != negInf && sc.f[cell] == sc.g(cell)
		nonempty = nonempty || ne
		chosen = append(chosen, matchPick{cell: int32(pk), nonempty: ne})
	}
	if best != negInf && !nonempty {
		// Every pick was an empty option; force one cell non-empty.
		best = negInf
		for r := 0; r < n.rows; r++ {
			for c := 0; c < n.cols; c++ {
				cell := n.kids[r*n.cols+c]
				if cell < 0 || sc.f[cell] == negInf {
					continue
				}
				rest, restPicks := assignment(n.rows, n.cols, n.n-1, func(r2, c2 int) int64 { return weight(n.kids[r2*n.cols+c2]) }, r, c)
				if v := add(rest, sc.f[cell]); v > best {
					best = v
					chosen = chosen[:0]
					chosen = append(chosen, matchPick{cell: int32(r*n.cols + c), nonempty: true})
					for _, pk := range restPicks {
						chosen = append(chosen, matchPick{cell: int32(pk), nonempty: false})
					}
				}
			}
		}
	}
	sc.matched[k] = chosen
	return best, e
}

func emptyMatchingExists(n *gnode, e []bool) bool {
	some := false
	for _, k := range n.kids {
		some = some || k >= 0 && e[k]
	}
	if !some {
		return false
	}
	cells := make([]Truth, n.rows*n.cols)
	for i, k := range n.kids {
		if k >= 0 && e[k] {
			cells[i] = True
		}
	}
	ints := make([]int32, 2*n.cols)
	return maxMatching(cells, n.rows, n.cols, False, ints) >= n.n
}

// extract lists the literals of the best option of node k found by the
// last pass (non-empty, or an empty one when nonempty is false).
func (sc *scorer) extract(k int32, nonempty bool, out []int32) []int32 {
	t := sc.t
	n := &t.nodes[k]
	switch n.kind {
	case gLit:
		return append(out, n.lit)
	case gUnion:
		for _, c := range n.kids {
			if nonempty && sc.f[c] == sc.f[k] && sc.f[c] != negInf || !nonempty && sc.e[c] {
				return sc.extract(c, nonempty, out)
			}
		}
	case gProd:
		if !nonempty {
			for _, c := range n.kids {
				out = sc.extract(c, false, out)
			}
			return out
		}
		// Non-empty children where that is best; if none is, force the
		// one that costs least, as prod did.
		anyNonEmpty := false
		for _, c := range n.kids {
			if sc.f[c] != negInf && sc.f[c] == sc.g(c) {
				anyNonEmpty = true
			}
		}
		force := int32(-1)
		if !anyNonEmpty {
			penalty := int64(negInf)
			for _, c := range n.kids {
				if sc.f[c] != negInf {
					if d := sc.g(c) - sc.f[c]; penalty == negInf || d < penalty {
						penalty, force = d, c
					}
				}
			}
		}
		for _, c := range n.kids {
			ne := c == force || sc.f[c] != negInf && sc.f[c] == sc.g(c)
			out = sc.extract(c, ne, out)
		}
		return out
	case gChoose:
		table := sc.choose[k]
		j, h := n.n, 1
		if !nonempty {
			h = 0
		}
		for i := len(n.kids) - 1; i >= 0 && j > 0; i-- {
			c := n.kids[i]
			target := table[i+1][j][h]
			switch {
			case table[i][j][h] == target:
				// skipped
			case h == 1 && sc.f[c] != negInf && (table[i][j-1][1] != negInf && table[i][j-1][1]+sc.f[c] == target):
				out = sc.extract(c, true, out)
				j--
			case h == 1 && sc.f[c] != negInf && (table[i][j-1][0] != negInf && table[i][j-1][0]+sc.f[c] == target):
				out = sc.extract(c, true, out)
				j, h = j-1, 0
			default: // taken as an empty option
				out = sc.extract(c, false, out)
				j--
			}
		}
		return out
	case gMatch:
		if !nonempty {
			return out // an all-empty matching contributes no literal
		}
		for _, pk := range sc.matched[k] {
			out = sc.extract(n.kids[pk.cell], pk.nonempty, out)
		}
		return out
	}
	return out
}

// assignment finds a maximum-weight matching of exactly size cells in a
// rows × cols grid (weight negInf: no edge), skipping row skipR and
// column skipC, by successive shortest paths with Bellman–Ford (the grids
// are small). It returns the total weight and the chosen cells
// (r*cols+c), or negInf when no matching of that size exists.
func assignment(rows, cols, size int, weight func(r, c int) int64, skipR, skipC int) (int64, []int) {
	if size <= 0 {
		return 0, nil
	}
	// Nodes: 0 source, 1..rows rows, rows+1..rows+cols columns, sink.
	nv := rows + cols + 2
	src, sink := 0, nv-1
	type edge struct {
		to, rev int
		cap     int
		cost    int64
	}
	graph := make([][]edge, nv)
	addEdge := func(u, v int, cost int64) {
		graph[u] = append(graph[u], edge{to: v, rev: len(graph[v]), cap: 1, cost: cost})
		graph[v] = append(graph[v], edge{to: u, rev: len(graph[u]) - 1, cap: 0, cost: -cost})
	}
	for r := 0; r < rows; r++ {
		if r == skipR {
			continue
		}
		addEdge(src, 1+r, 0)
		for c := 0; c < cols; c++ {
			if c == skipC {
				continue
			}
			if w := weight(r, c); w != negInf {
				addEdge(1+r, 1+rows+c, -w)
			}
		}
	}
	for c := 0; c < cols; c++ {
		if c != skipC {
			addEdge(1+rows+c, sink, 0)
		}
	}
	const inf = math.MaxInt64 / 4
	total := int64(0)
	dist := make([]int64, nv)
	prevV := make([]int, nv)
	prevE := make([]int, nv)
	for flow := 0; flow < size; flow++ {
		for i := range dist {
			dist[i] = inf
		}
		dist[src] = 0
		for changed := true; changed; {
			changed = false
			for u := 0; u < nv; u++ {
				if dist[u] == inf {
					continue
				}
				for ei, e := range graph[u] {
					if e.cap > 0 && dist[u]+e.cost < dist[e.to] {
						dist[e.to] = dist[u] + e.cost
						prevV[e.to], prevE[e.to] = u, ei
						changed = true
					}
				}
			}
		}
		if dist[sink] == inf {
			return negInf, nil
		}
		for v := sink; v != src; v = prevV[v] {
			e := &graph[prevV[v]][prevE[v]]
			e.cap--
			graph[v][e.rev].cap++
		}
		total += dist[sink]
	}
	var picks []int
	for r := 0; r < rows; r++ {
		for _, e := range graph[1+r] {
			if e.to > rows && e.to <= rows+cols && e.cap == 0 {
				picks = append(picks, r*cols+(e.to-1-rows))
			}
		}
	}
	return -total, picks
}

// String renders the count, "≤ N" when it is only an upper bound.
func (c OptionCount) String() string {
	if c.N == nil {
		return "unknown"
	}
	s := c.N.String()
	if !c.Exact {
		s = "≤ " + s
	}
	return s
}
