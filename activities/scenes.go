package activities

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// Scene feasibility (SEMANTICS.md B §3.3 phases 4 and 7): the sampler
// binds every in-room instance to a distinct scene object of its synset
// (or a descendant) in one room instance per room type, by maximum
// bipartite matching. An activity fits a scene when, for every room type
// it names, some single room of that type has such a matching covering
// all its in-room instances.
//
// Wildcard instances (cabinet.n.01_*) stand for all matching objects of
// the room, however many: they need at least one matching object but do
// not consume one, so an explicit cabinet.n.01_1 of the same room still
// gets its own.
//
// Instances of unknown synsets or rooms, and of synsets that are not scene
// objects, are left out: their own rules report them.
//
// Object models are not checked (abilities, attachment links), nor whether
// the objects placed on in-room instances fit on them: a compatible scene
// may still fail to sample, an incompatible one never succeeds.

// Feasibility says which scenes of the knowledge base can host an activity.
type Feasibility struct {
	// Needs lists, per room type the activity names, its in-room instances.
	Needs []RoomNeed `json:"needs"`
	// Scenes has one entry per scene of the knowledge base, in name order.
	Scenes []SceneFit `json:"scenes"`
}

// RoomNeed is what the activity places in one room type.
type RoomNeed struct {
	Type      string   `json:"type"`
	Instances []string `json:"instances"`
}

// SceneFit is how one scene fits the activity.
type SceneFit struct {
	Scene string `json:"scene"`
	// OK is true when every needed room type has a compatible room.
	OK    bool      `json:"ok"`
	Rooms []RoomFit `json:"rooms"`
}

// RoomFit is how a scene serves one room type.
type RoomFit struct {
	Type string `json:"type"`
	// Rooms are the room instances that can host every in-room instance of
	// the type.
	Rooms []string `json:"rooms,omitempty"`
	// Lacks says, when Rooms is empty, what the closest room lacks:
	// "kitchen_0 lacks 1 oven.n.01", or "no garden".
	Lacks string `json:"lacks,omitempty"`
	// Missing counts the instances the closest room cannot host.
	Missing int `json:"missing"`
}

// Compatible returns the scenes that can host the activity.
func (f *Feasibility) Compatible() []SceneFit {
	var out []SceneFit
	for _, s := range f.Scenes {
		if s.OK {
			out = append(out, s)
		}
	}
	return out
}

// Summary describes a scene's fit on one line: its compatible rooms, or
// what it lacks.
func (s SceneFit) Summary() string {
	parts := make([]string, 0, len(s.Rooms))
	for _, r := range s.Rooms {
		if s.OK {
			parts = append(parts, strings.Join(r.Rooms, ", "))
		} else if r.Lacks != "" {
			parts = append(parts, r.Lacks)
		}
	}
	return s.Scene + ": " + strings.Join(parts, "; ")
}

// sceneIndex is the knowledge base's scenes with each room's objects
// grouped by synset.
type sceneIndex struct {
	scenes []indexedScene
}

type indexedScene struct {
	name  string
	rooms []indexedRoom
}

type indexedRoom struct {
	name, typ string
	groups    []objectGroup // by synset id
}

type objectGroup struct {
	synset kb.SynsetID
	count  int
}

func (bi *baseInfo) sceneIndex() *sceneIndex {
	bi.scenesOnce.Do(func() {
		idx := &sceneIndex{}
		b := bi.base
		for _, s := range b.Scenes() {
			is := indexedScene{name: s.Name}
			for _, r := range s.Rooms {
				ir := indexedRoom{name: r.Name, typ: r.Type}
				for _, o := range r.Objects {
					syn, ok := b.SynsetOfCategory(o.Category)
					if !ok || o.Count <= 0 {
						continue
					}
					ir.groups = append(ir.groups, objectGroup{syn, o.Count})
				}
				sort.Slice(ir.groups, func(i, j int) bool { return ir.groups[i].synset < ir.groups[j].synset })
				merged := ir.groups[:0]
				for _, g := range ir.groups {
					if n := len(merged); n > 0 && merged[n-1].synset == g.synset {
						merged[n-1].count += g.count
						continue
					}
					merged = append(merged, g)
				}
				ir.groups = merged
				is.rooms = append(is.rooms, ir)
			}
			idx.scenes = append(idx.scenes, is)
		}
		bi.scenes = idx
	})
	return bi.scenes
}

// candidates appends to dst the groups of room r that can stand for an
// instance of synset s (leaf says whether s is a leaf of the taxonomy).
func (r *indexedRoom) candidates(b *kb.Base, s kb.SynsetID, leaf bool, dst []int) []int {
	if leaf {
		if i, ok := slices.BinarySearchFunc(r.groups, s, func(g objectGroup, s kb.SynsetID) int { return int(g.synset - s) }); ok {
			dst = append(dst, i)
		}
		return dst
	}
	for i, g := range r.groups {
		if b.IsA(g.synset, s) {
			dst = append(dst, i)
		}
	}
	return dst
}

// hasCandidate reports whether room r has an object that can stand for an
// instance of synset s.
func (r *indexedRoom) hasCandidate(b *kb.Base, s kb.SynsetID, leaf bool) bool {
	if leaf {
		_, ok := slices.BinarySearchFunc(r.groups, s, func(g objectGroup, s kb.SynsetID) int { return int(g.synset - s) })
		return ok
	}
	for _, g := range r.groups {
		if b.IsA(g.synset, s) {
			return true
		}
	}
	return false
}

// matcher computes maximum matchings of instances to object groups, each
// group taking at most its count of instances, by augmenting paths
// (Kuhn's algorithm with capacities). Its buffers are reused from room to
// room.
type matcher struct {
	candStart []int // instance i's candidate groups are cands[candStart[i]:candStart[i+1]]
	cands     []int
	capacity  []int // per group
	load      []int // per group: instances assigned
	assign    []int // per instance: its group, or -1
	seen      []bool
}

// reset prepares the matcher for a room with these groups and no
// instances yet; add them with addInstance.
func (m *matcher) reset(groups []objectGroup) {
	m.candStart = append(m.candStart[:0], 0)
	m.cands = m.cands[:0]
	m.capacity = m.capacity[:0]
	for _, g := range groups {
		m.capacity = append(m.capacity, g.count)
	}
	n := len(groups)
	m.load = slices.Grow(m.load[:0], n)[:n]
	clear(m.load)
	m.seen = slices.Grow(m.seen[:0], n)[:n]
	m.assign = m.assign[:0]
}

// addInstance closes the candidate list of the next instance (appended
// to m.cands by the caller).
func (m *matcher) addInstance() {
	m.candStart = append(m.candStart, len(m.cands))
	m.assign = append(m.assign, -1)
}

// match computes a maximum matching and appends the unmatched instances
// to dst.
func (m *matcher) match(dst []int) []int {
	for i := range m.assign {
		clear(m.seen)
		if !m.try(i) {
			dst = append(dst, i)
		}
	}
	return dst
}

func (m *matcher) try(i int) bool {
	for _, g := range m.cands[m.candStart[i]:m.candStart[i+1]] {
		if m.seen[g] {
			continue
		}
		m.seen[g] = true
		if m.load[g] < m.capacity[g] {
			m.move(i, g)
			return true
		}
		// g is full: move one of its instances elsewhere.
		for j := range m.assign {
			if m.assign[j] == g && j != i && m.try(j) {
				m.move(i, g)
				return true
			}
		}
	}
	return false
}

func (m *matcher) move(i, g int) {
	if old := m.assign[i]; old >= 0 {
		m.load[old]--
	}
	m.assign[i] = g
	m.load[g]++
}

// matchRoom is the matching of instances with candidate groups cand to
// groups of the given capacities; it returns the unmatched instances.
func matchRoom(cand [][]int, capacity []int) []int {
	var m matcher
	groups := make([]objectGroup, len(capacity))
	for i, c := range capacity {
		groups[i].count = c
	}
	m.reset(groups)
	for _, cs := range cand {
		m.cands = append(m.cands, cs...)
		m.addInstance()
	}
	return m.match(nil)
}

// Feasibility computes (once) which scenes can host the activity; nil
// when the knowledge base has no scenes.
func (c *Context) Feasibility() *Feasibility {
	if c.feas != nil {
		return c.feas
	}
	idx := c.info.sceneIndex()
	if len(idx.scenes) == 0 {
		return nil
	}
	// In-room instances by room type, in order of first use.
	type need struct {
		typ      string
		fixed    []int // instances that take an object each
		wildcard []int // instances that need one object to exist
	}
	var needs []need
	checkRooms := len(c.Base.RoomTypes()) > 0
	for i := range c.Instances {
		in := &c.Instances[i]
		if in.RoomLit < 0 || in.Synset == kb.NoSynset || !c.Base.Has(in.Synset, kb.SceneObject) ||
			(checkRooms && !c.Base.IsRoomType(in.Room)) {
			continue // unknown synsets and rooms, and inroom of non-scene objects, have their own rules
		}
		k := slices.IndexFunc(needs, func(n need) bool { return n.typ == in.Room })
		if k < 0 {
			needs = append(needs, need{typ: in.Room})
			k = len(needs) - 1
		}
		if in.Wildcard {
			needs[k].wildcard = append(needs[k].wildcard, i)
		} else {
			needs[k].fixed = append(needs[k].fixed, i)
		}
	}
	f := &Feasibility{Scenes: make([]SceneFit, 0, len(idx.scenes))}
	for _, n := range needs {
		rn := RoomNeed{Type: n.typ}
		for _, i := range append(slices.Clip(n.fixed), n.wildcard...) {
			rn.Instances = append(rn.Instances, c.Instances[i].Ident.Name)
		}
		f.Needs = append(f.Needs, rn)
	}
	leaf := make([]bool, len(c.Instances))
	for i := range c.Instances {
		leaf[i] = c.Base.IsLeaf(c.Instances[i].Synset)
	}
	var m matcher
	var unmatched []int
	var lacking []kb.SynsetID
	fits := make([]RoomFit, len(idx.scenes)*len(needs)) // one allocation for every scene's rooms
	for si := range idx.scenes {
		s := &idx.scenes[si]
		fit := SceneFit{Scene: s.name, OK: true, Rooms: fits[si*len(needs) : (si+1)*len(needs) : (si+1)*len(needs)]}
		for ni, n := range needs {
			rf := RoomFit{Type: n.typ, Missing: len(n.fixed) + len(n.wildcard)}
			var best *indexedRoom
			for ri := range s.rooms {
				room := &s.rooms[ri]
				if room.typ != n.typ {
					continue
				}
				m.reset(room.groups)
				for _, i := range n.fixed {
					m.cands = room.candidates(c.Base, c.Instances[i].Synset, leaf[i], m.cands)
					m.addInstance()
				}
				unmatched = m.match(unmatched[:0])
				missing := len(unmatched)
				for _, i := range n.wildcard {
					if !room.hasCandidate(c.Base, c.Instances[i].Synset, leaf[i]) {
						missing++
					}
				}
				if missing == 0 {
					rf.Rooms = append(rf.Rooms, room.name)
					rf.Missing = 0
					continue
				}
				if len(rf.Rooms) == 0 && (best == nil || missing < rf.Missing) {
					rf.Missing, best = missing, room
					lacking = lacking[:0]
					for _, u := range unmatched {
						lacking = append(lacking, c.Instances[n.fixed[u]].Synset)
					}
					for _, i := range n.wildcard {
						if !room.hasCandidate(c.Base, c.Instances[i].Synset, leaf[i]) {
							lacking = append(lacking, c.Instances[i].Synset)
						}
					}
					rf.Lacks = room.name + " lacks " + c.countSynsets(lacking)
				}
			}
			switch {
			case len(rf.Rooms) > 0:
				rf.Lacks = ""
			case best == nil:
				rf.Lacks = "no " + n.typ
			}
			fit.OK = fit.OK && len(rf.Rooms) > 0
			fit.Rooms[ni] = rf
		}
		f.Scenes = append(f.Scenes, fit)
	}
	c.feas = f
	return f
}

// countSynsets renders synsets with multiplicity: "2 sink.n.01, 1 oven.n.01".
func (c *Context) countSynsets(ids []kb.SynsetID) string {
	var parts []string
	counted := make([]bool, len(ids))
	for i, id := range ids {
		if counted[i] {
			continue
		}
		n := 0
		for j := i; j < len(ids); j++ {
			if ids[j] == id {
				n++
				counted[j] = true
			}
		}
		parts = append(parts, fmt.Sprintf("%d %s", n, c.name(id)))
	}
	return strings.Join(parts, ", ")
}

var ruleNoScene = &Rule{
	Code: "no-scene", Name: "scenes", Severity: bddl.Error,
	Doc: "some scene of the knowledge base can host the activity: for every room type named by inroom, one room " +
		"of that type holds a distinct object for each of its in-room instances (maximum bipartite matching; an " +
		"object fits when its category's synset is the instance's or a descendant; a wildcard needs one object " +
		"and takes none); skipped when the knowledge base has no scenes",
	Fix: "use in-room objects that some scene has, in the room types it has them",
	Check: func(c *Context) {
		f := c.Feasibility()
		if f == nil || len(f.Needs) == 0 || slices.ContainsFunc(f.Scenes, func(s SceneFit) bool { return s.OK }) {
			return
		}
		closest := slices.Clone(f.Scenes)
		missing := func(s SceneFit) int {
			n := 0
			for _, r := range s.Rooms {
				n += r.Missing
			}
			return n
		}
		sort.SliceStable(closest, func(i, j int) bool { return missing(closest[i]) < missing(closest[j]) })
		var parts []string
		for _, s := range closest[:min(3, len(closest))] {
			parts = append(parts, s.Summary())
		}
		c.Report(c.whole(), fmt.Sprintf("no scene of the knowledge base can host the activity (%d scenes tried)", len(f.Scenes)),
			"closest: "+strings.Join(parts, "; ")+"; use in-room objects these rooms have, or other room types")
	},
}
