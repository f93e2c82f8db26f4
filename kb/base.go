package kb

import (
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Base is a loaded knowledge base: the synset taxonomy, properties and
// parameters, predicate applicability, rooms and scenes, object models and
// transition rules. It is immutable after loading and safe for concurrent
// use; scene and model data may be loaded lazily on first use.
type Base struct {
	taxonomy
	depth []int32

	propTable propertyTable
	propWords int
	props     []uint64 // propWords words per synset

	params     [][]propertyParams // per synset; nil for most
	thresholds []Thresholds

	rules     []Rule
	consumers map[SynsetID][]int32
	producers map[SynsetID][]int32
	users     map[SynsetID][]int32

	roomTypes   []string
	roomTypeSet map[string]struct{}
	pruned      map[string]struct{}

	origin   Origin
	loadErrs DataErrors // data errors of the load, kept for Check
	findings []Finding  // non-fatal findings of the load

	// The world: categories, scenes, object models, each tier loaded on
	// first use by worldLoad into worldData (see Base.tier).
	worldOnce [numWorldTiers]sync.Once
	worldInit sync.Once
	worldLoad func(worldTier, *world, *problems)
	worldData *world
	worldMu   sync.Mutex // guards worldProb while tiers load
	worldProb problems

	// cacheKey is the key of the cache entry the Base was stored under or
	// served from; zero when it was not cached.
	cacheKey [32]byte

	// extraChecks runs source-specific consistency checks for Check.
	extraChecks func(*Base) []Finding
}

// Origin says where a Base was loaded from.
type Origin struct {
	Format string // "behavior1k" or "yaml"
	Path   string // directory or file; "(embedded)" for the default
}

// Origin reports where the knowledge base was loaded from.
func (b *Base) Origin() Origin { return b.origin }

// IsPruned reports whether name is a synset the data lists but prunes from
// the hierarchy (BEHAVIOR-1K's synsets.csv prune column): it exists in the
// annotation tables but not in the knowledge base proper.
func (b *Base) IsPruned(name string) bool {
	_, ok := b.pruned[strings.ToLower(name)]
	return ok
}

// builder accumulates a knowledge base while a loader reads its sources;
// finish turns it into a Base.
type builder struct {
	problems
	names   []string
	byName  map[string]SynsetID
	custom  []bool
	parents [][]SynsetID
	defined []Location // where each synset was first defined

	propTable propertyTable
	stride    int      // words per synset in props while building
	props     []uint64 // annotated (or, for BEHAVIOR-1K, propagated) properties
	params    [][]propertyParams

	rules     []Rule
	roomTypes []string
	pruned    map[string]struct{}
}

func newBuilder(sizeHint int) *builder {
	bd := &builder{
		byName:    make(map[string]SynsetID, sizeHint),
		propTable: newPropertyTable(),
		stride:    2,
		pruned:    map[string]struct{}{},
	}
	return bd
}

// synset returns the id for name, creating the synset when new.
func (bd *builder) synset(name string, loc Location) SynsetID {
	key := name
	if hasUpper(key) {
		key = toLowerASCII(key)
	}
	if id, ok := bd.byName[key]; ok {
		return id
	}
	id := SynsetID(len(bd.names))
	bd.names = append(bd.names, name)
	bd.byName[key] = id
	bd.custom = append(bd.custom, false)
	bd.parents = append(bd.parents, nil)
	bd.defined = append(bd.defined, loc)
	bd.params = append(bd.params, nil)
	bd.props = append(bd.props, make([]uint64, bd.stride)...)
	return id
}

func (bd *builder) lookup(name string) (SynsetID, bool) {
	if id, ok := bd.byName[name]; ok {
		return id, true
	}
	if hasUpper(name) {
		id, ok := bd.byName[toLowerASCII(name)]
		return id, ok
	}
	return NoSynset, false
}

// addParent records a hypernym edge once.
func (bd *builder) addParent(child, parent SynsetID) {
	for _, p := range bd.parents[child] {
		if p == parent {
			return
		}
	}
	bd.parents[child] = append(bd.parents[child], parent)
}

func (bd *builder) setProp(id SynsetID, p Property) {
	if int(p) >= bd.stride*64 {
		bd.restride(int(p)/64 + 1)
	}
	bd.props[int(id)*bd.stride+int(p>>6)] |= 1 << (p & 63)
}

func (bd *builder) hasProp(id SynsetID, p Property) bool {
	if int(p) >= bd.stride*64 {
		return false
	}
	return bd.props[int(id)*bd.stride+int(p>>6)]&(1<<(p&63)) != 0
}

func (bd *builder) restride(words int) {
	next := make([]uint64, len(bd.names)*words)
	for i := range bd.names {
		copy(next[i*words:], bd.props[i*bd.stride:(i+1)*bd.stride])
	}
	bd.props, bd.stride = next, words
}

func (bd *builder) setParams(id SynsetID, p Property, params []Param) {
	for i := range bd.params[id] {
		if bd.params[id][i].prop == p {
			bd.params[id][i].params = params
			return
		}
	}
	bd.params[id] = append(bd.params[id], propertyParams{prop: p, params: params})
}

// propagation says how finish relates non-leaf properties to the leaves.
type propagation uint8

const (
	// verifyPropagation keeps the data's properties and reports where a
	// non-leaf synset's differ from the intersection of its leaves'
	// (BEHAVIOR-1K ships already propagated data).
	verifyPropagation propagation = iota
	// computePropagation first passes annotations down to descendants,
	// then gives every non-leaf synset exactly the properties all its
	// leaves share (the YAML format).
	computePropagation
)

// finish builds the Base: CSR adjacency, topological order and cycle
// check, ancestor bitsets, property propagation, thresholds, rule indexes.
func (bd *builder) finish(mode propagation, origin Origin) *Base {
	n := len(bd.names)
	b := bd.taxonomyBase(origin)
	b.topo = bd.topoOrder(b)
	b.computeAncestors()

	// Properties.
	b.propWords = (len(b.propTable.names) + 63) / 64
	if b.propWords == 0 {
		b.propWords = 1
	}
	b.props = make([]uint64, n*b.propWords)
	for i := 0; i < n; i++ {
		copy(b.props[i*b.propWords:(i+1)*b.propWords], bd.props[i*bd.stride:i*bd.stride+min(bd.stride, b.propWords)])
	}
	b.params = bd.params
	switch mode {
	case computePropagation:
		b.propagateDown()
		b.inheritParams()
		b.applyImplications()
		b.intersectLeaves()
	case verifyPropagation:
		bd.findings = append(bd.findings, b.propagationFindings(Location{File: "propagated_annots_params.json"})...)
	}
	bd.finishRest(b)
	return b
}

// rebuild makes a Base from a decoded cache entry: the builder holds
// names, edges, parameters, rules and findings; topo, props and propWords
// are as finish computed them.
func (bd *builder) rebuild(topo []SynsetID, propWords int, props []uint64, origin Origin) *Base {
	b := bd.taxonomyBase(origin)
	b.topo = topo
	b.computeAncestors()
	b.propWords, b.props, b.params = propWords, props, bd.params
	bd.finishRest(b)
	return b
}

// finishRest derives thresholds and the rule index and hands over rooms
// and findings.
func (bd *builder) finishRest(b *Base) {
	b.computeThresholds()

	b.rules = bd.rules
	b.indexRules()

	b.roomTypes = bd.roomTypes
	b.roomTypeSet = make(map[string]struct{}, len(bd.roomTypes))
	for _, r := range bd.roomTypes {
		b.roomTypeSet[r] = struct{}{}
	}
	b.findings = bd.findings
	b.loadErrs = bd.errs
}

// taxonomyBase starts a Base with the names and the compressed rows of
// parents and children.
func (bd *builder) taxonomyBase(origin Origin) *Base {
	n := len(bd.names)
	b := &Base{origin: origin, pruned: bd.pruned}
	b.names = bd.names
	b.byName = bd.byName
	b.propTable = bd.propTable

	b.custom = make([]uint64, (n+63)/64)
	for i, c := range bd.custom {
		if c {
			b.custom[i>>6] |= 1 << (uint(i) & 63)
		}
	}

	// Compressed rows of parents and children.
	b.parentStart = make([]int32, n+1)
	b.childStart = make([]int32, n+1)
	childCount := make([]int32, n)
	total := 0
	for i, ps := range bd.parents {
		b.parentStart[i+1] = b.parentStart[i] + int32(len(ps))
		for _, p := range ps {
			childCount[p]++
		}
		total += len(ps)
	}
	b.parentIDs = make([]SynsetID, 0, total)
	for _, ps := range bd.parents {
		b.parentIDs = append(b.parentIDs, ps...)
	}
	for i := 0; i < n; i++ {
		b.childStart[i+1] = b.childStart[i] + childCount[i]
	}
	b.childIDs = make([]SynsetID, total)
	fill := append([]int32(nil), b.childStart[:n]...)
	for i, ps := range bd.parents {
		for _, p := range ps {
			b.childIDs[fill[p]] = SynsetID(i)
			fill[p]++
		}
	}

	return b
}

// topoOrder sorts ids so every synset comes after its parents (Kahn's
// algorithm) and reports each cycle; synsets on a cycle are appended at
// the end so the rest of the load can proceed.
func (bd *builder) topoOrder(b *Base) []SynsetID {
	n := len(bd.names)
	indeg := make([]int32, n)
	for i := range bd.parents {
		indeg[i] = int32(len(bd.parents[i]))
	}
	order := make([]SynsetID, 0, n)
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			order = append(order, SynsetID(i))
		}
	}
	for head := 0; head < len(order); head++ {
		for _, c := range b.Children(order[head]) {
			indeg[c]--
			if indeg[c] == 0 {
				order = append(order, c)
			}
		}
	}
	if len(order) == n {
		return order
	}
	// Report each cycle once: follow parent edges that stay inside the
	// unresolved set until a synset repeats.
	reported := make([]bool, n)
	for i := 0; i < n; i++ {
		if indeg[i] == 0 || reported[i] {
			continue
		}
		pos := map[SynsetID]int{}
		var path []SynsetID
		cur := SynsetID(i)
		for {
			if at, ok := pos[cur]; ok {
				cycle := path[at:]
				names := make([]string, 0, len(cycle)+1)
				for _, c := range cycle {
					names = append(names, bd.names[c])
					reported[c] = true
				}
				names = append(names, bd.names[cycle[0]])
				bd.errorf(bd.defined[cycle[0]], "cycle", "hypernym cycle: %s", strings.Join(names, " -> "))
				break
			}
			if reported[cur] {
				break
			}
			pos[cur] = len(path)
			path = append(path, cur)
			next := NoSynset
			for _, p := range bd.parents[cur] {
				if indeg[p] > 0 {
					next = p
					break
				}
			}
			if next == NoSynset {
				break
			}
			cur = next
		}
	}
	for i := 0; i < n; i++ {
		if indeg[i] > 0 {
			order = append(order, SynsetID(i))
		}
	}
	return order
}

func (b *Base) computeAncestors() {
	n := len(b.names)
	b.depth = make([]int32, n)
	for _, id := range b.topo {
		for _, p := range b.Parents(id) {
			if d := b.depth[p] + 1; d > b.depth[id] {
				b.depth[id] = d
			}
		}
	}
	b.computeTreeIntervals()
	// The ancestors of a synset are its first-parent chain, which the
	// tree intervals answer, and its extras: the ancestors off that
	// chain, reached through a second parent somewhere above. Only the
	// extras are stored, so a chain of 20,000 synsets (or any tree) costs
	// nothing here where full rows would cost 200 million ids. The extras
	// of id are those of its first parent, and for each other parent p,
	// p's chain up to where it joins id's chain, with p's extras; each
	// synset walked is stored, so the time is linear in what is stored.
	b.extraStart = make([]int32, n)
	b.extraEnd = make([]int32, n)
	b.treeOnly = make([]uint64, (n+63)/64)
	var ids, scratch []SynsetID
	stamp := make([]int32, n) // the topo position + 1 of the last walk through a synset
	for i, id := range b.topo {
		ps := b.Parents(id)
		scratch = scratch[:0]
		if len(ps) > 0 {
			scratch = append(scratch, ids[b.extraStart[ps[0]]:b.extraEnd[ps[0]]]...)
		}
		for _, p := range ps[min(1, len(ps)):] {
			for _, x := range ids[b.extraStart[p]:b.extraEnd[p]] {
				if !b.onChain(x, id) {
					scratch = append(scratch, x)
				}
			}
			// Up p's chain until it joins id's (a cycle's chain ends
			// where the walk meets itself).
			for x := p; !b.onChain(x, id) && stamp[x] != int32(i+1); {
				stamp[x] = int32(i + 1)
				scratch = append(scratch, x)
				up := b.Parents(x)
				if len(up) == 0 {
					break
				}
				x = up[0]
			}
		}
		start := int32(len(ids))
		if len(scratch) > 0 {
			slices.Sort(scratch)
			ids = append(ids, slices.Compact(scratch)...)
		} else {
			b.treeOnly[id>>6] |= 1 << (uint(id) & 63)
		}
		b.extraStart[id], b.extraEnd[id] = start, int32(len(ids))
	}
	b.extraIDs = slices.Clip(ids)
}

// onChain reports whether x is on a's first-parent chain (a itself
// included).
func (b *Base) onChain(x, a SynsetID) bool {
	in := b.treeIn[a]
	return b.treeIn[x] <= in && in < b.treeOut[x]
}

// computeTreeIntervals numbers the forest that keeps each synset's first
// parent by a depth-first walk: c is an ancestor of a along first parents
// exactly when a's entry time lies in c's interval.
func (b *Base) computeTreeIntervals() {
	n := len(b.names)
	b.treeIn = make([]int32, n)
	b.treeOut = make([]int32, n)
	kids := make([][]SynsetID, n)
	var roots []SynsetID
	for i := range n {
		ps := b.Parents(SynsetID(i))
		if len(ps) == 0 {
			roots = append(roots, SynsetID(i))
		} else {
			kids[ps[0]] = append(kids[ps[0]], SynsetID(i))
		}
	}
	clock := int32(0)
	type frame struct {
		id   SynsetID
		next int
	}
	var stack []frame
	visited := make([]bool, n)
	enter := func(id SynsetID) {
		visited[id] = true
		b.treeIn[id] = clock
		clock++
		stack = append(stack, frame{id: id})
	}
	walk := func(root SynsetID) {
		enter(root)
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next < len(kids[top.id]) {
				c := kids[top.id][top.next]
				top.next++
				if !visited[c] {
					enter(c)
				}
				continue
			}
			b.treeOut[top.id] = clock
			stack = stack[:len(stack)-1]
		}
	}
	for _, r := range roots {
		walk(r)
	}
	// Synsets on a hypernym cycle are reached from no root: give each an
	// empty interval of its own, so only the extras answer for them.
	for i := range n {
		if !visited[i] {
			b.treeIn[i], b.treeOut[i] = clock, clock
			clock++
		}
	}
}

// propagateDown gives every synset the annotations of its ancestors.
func (b *Base) propagateDown() {
	for _, id := range b.topo {
		row := b.propRow(id)
		for _, p := range b.Parents(id) {
			for k, word := range b.propRow(p) {
				row[k] |= word
			}
		}
	}
}

// inheritParams gives a synset the parameters of the nearest ancestor
// that has them, for each property it has no parameters of its own for
// (the first parent wins where several have them).
func (b *Base) inheritParams() {
	for _, id := range b.topo {
		for _, p := range b.Parents(id) {
			for _, pp := range b.params[p] {
				own := false
				for _, mine := range b.params[id] {
					own = own || mine.prop == pp.prop
				}
				if !own {
					b.params[id] = append(b.params[id], pp)
				}
			}
		}
	}
}

// applyImplications adds the classes an object type implies and the
// surface affordances of non-substances.
func (b *Base) applyImplications() {
	for id := range b.names {
		sid := SynsetID(id)
		for _, t := range objectTypes {
			if b.Has(sid, builtinPropertyByName[t.name]) {
				for _, p := range t.classes {
					b.setProp(sid, p)
				}
			}
		}
		if b.Has(sid, NonSubstance) {
			for _, p := range surfaceAffordances {
				b.setProp(sid, p)
			}
		}
	}
}

func (b *Base) setProp(id SynsetID, p Property) {
	b.props[int(id)*b.propWords+int(p>>6)] |= 1 << (p & 63)
}

// leafIntersections computes, for every synset, the properties shared by
// all leaves of its subtree (a leaf's own properties for a leaf).
func (b *Base) leafIntersections() []uint64 {
	w := b.propWords
	inter := make([]uint64, len(b.props))
	for i := len(b.topo) - 1; i >= 0; i-- {
		id := b.topo[i]
		row := inter[int(id)*w : int(id+1)*w]
		kids := b.Children(id)
		if len(kids) == 0 {
			copy(row, b.propRow(id))
			continue
		}
		for k := range row {
			row[k] = ^uint64(0)
		}
		for _, c := range kids {
			crow := inter[int(c)*w : int(c+1)*w]
			for k := range row {
				row[k] &= crow[k]
			}
		}
	}
	return inter
}

// intersectLeaves sets every non-leaf synset's properties to those all of
// its leaves share: the BEHAVIOR-1K propagation rule.
func (b *Base) intersectLeaves() {
	inter := b.leafIntersections()
	for id := range b.names {
		if !b.IsLeaf(SynsetID(id)) {
			copy(b.propRow(SynsetID(id)), inter[id*b.propWords:(id+1)*b.propWords])
		}
	}
}

// propagationFindings compares every non-leaf synset's properties with the
// intersection of its leaves'. A property the synset has but some leaf
// lacks is an error: a definition written with the general synset could
// ask for a state a concrete object cannot take. A property all leaves
// share but the synset lacks is a warning: it only makes validation
// stricter than necessary.
func (b *Base) propagationFindings(loc Location) []Finding {
	inter := b.leafIntersections()
	var out []Finding
	for id := range b.names {
		sid := SynsetID(id)
		if b.IsLeaf(sid) {
			continue
		}
		row := b.propRow(sid)
		want := inter[id*b.propWords : (id+1)*b.propWords]
		var extra, missing []string
		for k := range row {
			for x := row[k] &^ want[k]; x != 0; x &= x - 1 {
				extra = append(extra, b.PropertyName(Property(k*64+bits.TrailingZeros64(x))))
			}
			for x := want[k] &^ row[k]; x != 0; x &= x - 1 {
				missing = append(missing, b.PropertyName(Property(k*64+bits.TrailingZeros64(x))))
			}
		}
		l := loc
		l.Key = b.names[id]
		if len(extra) > 0 {
			sort.Strings(extra)
			out = append(out, Finding{Severity: SeverityError, Code: "propagation-extra", Location: l,
				Message: "non-leaf synset " + b.names[id] + " has " + strings.Join(extra, ", ") +
					" but not all of its leaf descendants do"})
		}
		if len(missing) > 0 {
			sort.Strings(missing)
			out = append(out, Finding{Severity: SeverityWarning, Code: "propagation-missing", Location: l,
				Message: "non-leaf synset " + b.names[id] + " lacks " + strings.Join(missing, ", ") +
					" although all of its leaf descendants have it"})
		}
	}
	return out
}
