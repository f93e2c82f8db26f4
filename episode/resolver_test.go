package episode

import (
	"fmt"
	"testing"

	"github.com/openbddl/bddl/predicates"
)

// TestNameCache: a cached name is found with its value; a name never put,
// or put into a slot another holds, is not (the map answers it); an empty
// name is never cached.
func TestNameCache(t *testing.T) {
	var c nameCache[int32]
	put := map[string]int32{}
	for i := 0; i < 300; i++ {
		n := fmt.Sprintf("obj%d.n.01_%d", i, i%5)
		if _, taken := c.get([]byte(n)); taken {
			t.Fatalf("%q found before it was put", n)
		}
		slotFree := c.keys[nameSlot([]byte(n))] == ""
		c.put([]byte(n), int32(i))
		if slotFree {
			put[n] = int32(i)
		}
	}
	if len(put) < 50 {
		t.Fatalf("only %d of 300 names cached", len(put))
	}
	for n, want := range put {
		if v, ok := c.get([]byte(n)); !ok || v != want {
			t.Errorf("get(%q) = %d, %v; want %d", n, v, ok, want)
		}
	}
	for i := 0; i < 300; i++ {
		n := fmt.Sprintf("obj%d.n.01_%d", i, i%5)
		if _, cached := put[n]; !cached {
			if _, ok := c.get([]byte(n)); ok {
				t.Errorf("get(%q) found a name that lost its slot", n)
			}
		}
	}
	c.put(nil, 1)
	if _, ok := c.get(nil); ok {
		t.Errorf("the empty name was cached")
	}
}

// TestResolverCached: resolving a name twice (the second through the
// cache) gives the same answer, for every object and predicate of the
// test activity, their other spellings, and unknown names.
func TestResolverCached(t *testing.T) {
	prog := testProgram(t, nil)
	r := newResolver(prog, nil)
	var names []string
	for id := 0; id < prog.NumIDs(); id++ {
		n := prog.Name(predicates.ObjectID(id))
		names = append(names, n, "?"+n, "nope_"+n)
	}
	for range 2 {
		for _, n := range names {
			id, ok := r.object([]byte(n))
			wid, wok := newResolver(prog, nil).objectUncached([]byte(n))
			if id != wid || ok != wok {
				t.Errorf("object(%q) = %d, %v; uncached %d, %v", n, id, ok, wid, wok)
			}
		}
		for _, p := range []string{"ontop", "inside", "cooked", "ONTOP", "nope", ""} {
			id, ok := r.pred([]byte(p))
			wid, wok := lookupPred([]byte(p))
			if id != wid || ok != wok {
				t.Errorf("pred(%q) = %d, %v; lookupPred %d, %v", p, id, ok, wid, wok)
			}
		}
	}
}
