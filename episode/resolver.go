package episode

import (
	"encoding/binary"
	"math/bits"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/predicates"
)

// resolver turns the names of a line into ids. Bound to a program it
// knows the activity's instances and constants, and an unknown name is
// an error; unbound (reading values, no program) it numbers names as it
// meets them. Lookups index a map with string(bytes), which Go does
// without allocating.
type resolver struct {
	prog  *predicates.Program
	state *predicates.State
	ids   map[string]predicates.ObjectID
	names []string // unbound: the name of each id
	nObj  int      // bound: ids below are instances, the rest constants

	rooms     map[string]predicates.RoomID
	roomNames []string // unbound

	// Recently resolved names, in front of the maps (nameCache).
	objCache  nameCache[predicates.ObjectID]
	predCache nameCache[predicates.PredID]
}

// nameCache remembers resolved names in slots chosen by a cheap mix of
// the name's bytes (nameSlot): a hit costs that and one string
// comparison, where a map lookup (which a step pays once per predicate
// and argument) hashes the name first. A name is cached once it
// resolved, in an empty slot only (a slot is never reassigned, so names
// sharing one cannot make the cache churn and allocate); any other name
// falls through to the map, as before.
type nameCache[V any] struct {
	keys [nameCacheSlots]string
	vals [nameCacheSlots]V
}

const (
	nameCacheBits  = 7
	nameCacheSlots = 1 << nameCacheBits
)

// nameSlot mixes the name's length, first and last eight bytes (which
// tell apart apple.n.01_1 and apple.n.01_2) with one multiplication.
func nameSlot(b []byte) int {
	n := len(b)
	var h uint64
	if n >= 8 {
		h = binary.LittleEndian.Uint64(b) ^ bits.RotateLeft64(binary.LittleEndian.Uint64(b[n-8:]), 31)
	} else {
		for _, c := range b {
			h = h<<8 | uint64(c)
		}
	}
	h = (h ^ uint64(n)) * 0x9E3779B97F4A7C15
	return int(h >> (64 - nameCacheBits))
}

func (c *nameCache[V]) get(b []byte) (V, bool) {
	if len(b) > 0 {
		if k := nameSlot(b); c.keys[k] == string(b) {
			return c.vals[k], true
		}
	}
	var zero V
	return zero, false
}

func (c *nameCache[V]) put(b []byte, v V) {
	if len(b) > 0 {
		if k := nameSlot(b); c.keys[k] == "" {
			c.keys[k], c.vals[k] = string(b), v
		}
	}
}

func newResolver(prog *predicates.Program, state *predicates.State) *resolver {
	r := &resolver{prog: prog, state: state, ids: map[string]predicates.ObjectID{}, rooms: map[string]predicates.RoomID{}}
	if prog != nil {
		r.nObj = prog.NumObjects()
		for id := 0; id < prog.NumIDs(); id++ {
			r.ids[prog.Name(predicates.ObjectID(id))] = predicates.ObjectID(id)
		}
	}
	return r
}

// object resolves a name to an instance or constant.
func (r *resolver) object(name []byte) (predicates.ObjectID, bool) {
	if id, ok := r.objCache.get(name); ok {
		return id, true
	}
	id, ok := r.objectUncached(name)
	if ok {
		r.objCache.put(name, id)
	}
	return id, ok
}

func (r *resolver) objectUncached(name []byte) (predicates.ObjectID, bool) {
	if id, ok := r.ids[string(name)]; ok {
		return id, true
	}
	if r.prog == nil {
		if len(name) == 0 {
			return predicates.NoObject, false
		}
		id := predicates.ObjectID(len(r.names))
		n := string(name)
		r.names = append(r.names, n)
		r.ids[n] = id
		return id, true
	}
	// Names are case-insensitive, and goals write instances with a "?":
	// accept both spellings and remember them.
	id, ok := r.prog.ObjectID(string(name))
	if !ok && len(name) > 1 && name[0] == '?' {
		id, ok = r.prog.ObjectID(string(name[1:]))
	}
	if ok {
		r.ids[string(name)] = id
	}
	return id, ok
}

// isInstance reports whether id is an instance of :objects rather than
// a constant such as a room type.
func (r *resolver) isInstance(id predicates.ObjectID) bool {
	return r.prog == nil || int(id) < r.nObj
}

func (r *resolver) name(id predicates.ObjectID) string {
	if r.prog != nil {
		return r.prog.Name(id)
	}
	if id == predicates.NoObject {
		return ""
	}
	return r.names[id]
}

func (r *resolver) room(name []byte) predicates.RoomID {
	if id, ok := r.rooms[string(name)]; ok {
		return id
	}
	n := string(name)
	var id predicates.RoomID
	if r.state != nil {
		id = r.state.Room(n)
	} else {
		id = predicates.RoomID(len(r.roomNames))
		r.roomNames = append(r.roomNames, n)
	}
	r.rooms[n] = id
	return id
}

func (r *resolver) roomName(id predicates.RoomID) string {
	if id == predicates.NoRoom {
		return ""
	}
	if r.state != nil {
		return r.state.RoomName(id)
	}
	return r.roomNames[id]
}

// predByName indexes the registry by name once.
var predByName = func() map[string]predicates.PredID {
	m := map[string]predicates.PredID{}
	for _, p := range predicates.Predicates() {
		m[p.Name] = p.ID
	}
	return m
}()

// pred resolves a predicate's name (lookupPred, cached).
func (r *resolver) pred(name []byte) (predicates.PredID, bool) {
	if id, ok := r.predCache.get(name); ok {
		return id, true
	}
	id, ok := lookupPred(name)
	if ok {
		r.predCache.put(name, id)
	}
	return id, ok
}

func lookupPred(name []byte) (predicates.PredID, bool) {
	if id, ok := predByName[string(name)]; ok {
		return id, true
	}
	return predicates.PredByName(bddl.Fold(string(name)))
}
