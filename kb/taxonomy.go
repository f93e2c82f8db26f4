package kb

import (
	"sort"
)

// SynsetID is a dense index of a synset in one Base, in [0, NumSynsets()).
// Ids are only meaningful for the Base that issued them.
type SynsetID int32

// NoSynset is the id of no synset: Lookup's zero answer and the value of
// optional synset fields that are unset.
const NoSynset SynsetID = -1

// taxonomy is the synset DAG in compressed sparse rows plus the ancestor
// bitsets that make IsA one memory access.
type taxonomy struct {
	names  []string
	byName map[string]SynsetID
	custom []uint64 // bitset over ids

	parentStart []int32 // parents of i are parentIDs[parentStart[i]:parentStart[i+1]]
	parentIDs   []SynsetID
	childStart  []int32
	childIDs    []SynsetID

	// topo lists every id after all of its parents.
	topo []SynsetID

	// Entry and exit times of a depth-first walk of the first-parent
	// forest (see computeTreeIntervals): they answer whether c is on a's
	// first-parent chain. The ancestors of i off that chain, sorted by
	// id, are extraIDs[extraStart[i]:extraEnd[i]]; treeOnly marks the
	// synsets that have none (nearly all: see computeAncestors).
	treeIn, treeOut      []int32
	treeOnly             []uint64
	extraStart, extraEnd []int32
	extraIDs             []SynsetID
}

// NumSynsets is the number of synsets; ids run from 0 to NumSynsets()-1.
func (b *Base) NumSynsets() int { return len(b.names) }

func (b *Base) valid(id SynsetID) bool { return uint(id) < uint(len(b.names)) }

// Lookup returns the id of a synset name such as "apple.n.01". Names are
// case-insensitive; an already lower-case name is looked up without
// allocating.
func (b *Base) Lookup(name string) (SynsetID, bool) {
	if id, ok := b.byName[name]; ok {
		return id, true
	}
	if !hasUpper(name) {
		return NoSynset, false
	}
	id, ok := b.byName[toLowerASCII(name)]
	if !ok {
		return NoSynset, false
	}
	return id, true
}

// ID is Lookup without the ok: it returns NoSynset for an unknown name,
// which every query treats as "no such synset".
func (b *Base) ID(name string) SynsetID {
	id, _ := b.Lookup(name)
	return id
}

func hasUpper(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			return true
		}
	}
	return false
}

func toLowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// Name returns the synset's name, or "" for an invalid id.
func (b *Base) Name(id SynsetID) string {
	if !b.valid(id) {
		return ""
	}
	return b.names[id]
}

// Names maps ids to names.
func (b *Base) Names(ids []SynsetID) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = b.Name(id)
	}
	return out
}

// Parents returns the direct hypernyms of id. The slice is shared: do not
// modify it.
func (b *Base) Parents(id SynsetID) []SynsetID {
	if !b.valid(id) {
		return nil
	}
	return b.parentIDs[b.parentStart[id]:b.parentStart[id+1]:b.parentStart[id+1]]
}

// Children returns the direct hyponyms of id. The slice is shared: do not
// modify it.
func (b *Base) Children(id SynsetID) []SynsetID {
	if !b.valid(id) {
		return nil
	}
	return b.childIDs[b.childStart[id]:b.childStart[id+1]:b.childStart[id+1]]
}

// IsLeaf reports whether id has no hyponyms. Only leaf synsets name
// concrete kinds of objects that a scene can contain.
func (b *Base) IsLeaf(id SynsetID) bool {
	return b.valid(id) && b.childStart[id] == b.childStart[id+1]
}

// IsCustom reports whether id is a BEHAVIOR-1K custom synset rather than
// a WordNet one (e.g. half__apple.n.01, carton__of__milk.n.01).
func (b *Base) IsCustom(id SynsetID) bool {
	return b.valid(id) && b.custom[id>>6]&(1<<(uint(id)&63)) != 0
}

// IsA reports whether a is c or a descendant of c: two comparisons on the
// first-parent forest's walk order, and for synsets with several
// hypernyms up their chain a binary search of their sorted extra
// ancestors.
func (b *Base) IsA(a, c SynsetID) bool {
	if uint(a) >= uint(len(b.names)) || uint(c) >= uint(len(b.names)) {
		return false
	}
	if in := b.treeIn[a]; b.treeIn[c] <= in && in < b.treeOut[c] {
		return true // c is on a's first-parent chain
	}
	if b.treeOnly[a>>6]&(1<<(uint(a)&63)) != 0 {
		return false // a has no other ancestors
	}
	row := b.extraIDs[b.extraStart[a]:b.extraEnd[a]]
	lo, hi := 0, len(row)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if row[m] < c {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo < len(row) && row[lo] == c
}

// Ancestors returns every strict ancestor of id, nearest first (breadth
// first over the hypernyms).
func (b *Base) Ancestors(id SynsetID) []SynsetID {
	return b.walk(id, b.Parents)
}

// Descendants returns every strict descendant of id, nearest first.
func (b *Base) Descendants(id SynsetID) []SynsetID {
	return b.walk(id, b.Children)
}

// LeafDescendants returns the leaves of id's subtree in id order; a leaf's
// only leaf descendant is itself.
func (b *Base) LeafDescendants(id SynsetID) []SynsetID {
	if !b.valid(id) {
		return nil
	}
	if b.IsLeaf(id) {
		return []SynsetID{id}
	}
	var out []SynsetID
	for _, d := range b.Descendants(id) {
		if b.IsLeaf(d) {
			out = append(out, d)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// walk does a breadth-first traversal along next, without id itself.
func (b *Base) walk(id SynsetID, next func(SynsetID) []SynsetID) []SynsetID {
	if !b.valid(id) {
		return nil
	}
	seen := make([]uint64, (len(b.names)+63)/64)
	seen[id>>6] |= 1 << (uint(id) & 63)
	var out []SynsetID
	queue := []SynsetID{id}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, n := range next(cur) {
			if seen[n>>6]&(1<<(uint(n)&63)) != 0 {
				continue
			}
			seen[n>>6] |= 1 << (uint(n) & 63)
			out = append(out, n)
			queue = append(queue, n)
		}
	}
	return out
}

// Roots returns the synsets without hypernyms (entity.n.01 in BEHAVIOR-1K).
func (b *Base) Roots() []SynsetID {
	var out []SynsetID
	for id := range b.names {
		if b.parentStart[id] == b.parentStart[id+1] {
			out = append(out, SynsetID(id))
		}
	}
	return out
}

// Depth is the length of the longest hypernym path from id to a root.
func (b *Base) Depth(id SynsetID) int {
	if !b.valid(id) {
		return -1
	}
	return int(b.depth[id])
}
