package predicates

import (
	"fmt"
	"sync"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

func TestProgramCacheCompilesOncePerExpansion(t *testing.T) {
	t.Parallel()
	src := problem("apple.n.01_1 apple.n.01_2 - apple.n.01 table.n.02_1 - table.n.02",
		"(ontop apple.n.01_1 table.n.02_1)", "(forall (?apple.n.01 - apple.n.01) (ontop ?apple.n.01 table.n.02_1))")
	prob, diags := bddl.ParseProblem("test.bddl", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("parse: %v", diags)
	}
	c := NewProgramCache(nil, Options{})
	const workers = 8
	progs := make([]*Program, workers)
	var wg sync.WaitGroup
	for i := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, err := c.Compile("a", prob, nil)
			if err != nil {
				t.Error(err)
			}
			progs[i] = p
		}()
	}
	wg.Wait()
	for i, p := range progs {
		if p == nil || p != progs[0] {
			t.Fatalf("worker %d got program %p, want the shared %p", i, p, progs[0])
		}
	}
	// Wildcard expansions are keyed in any map order, and a failed
	// compilation is cached like a program: the same error comes back.
	w1 := map[string][]string{"x": {"1", "2"}, "y": {"3"}}
	w2 := map[string][]string{"y": {"3"}, "x": {"1", "2"}}
	p1, err1 := c.Compile("a", prob, w1)
	p2, err2 := c.Compile("a", prob, w2)
	// Diagnostics are a slice: the same backing array is the same value.
	if err1 == nil || err2 == nil || fmt.Sprintf("%p", err1) != fmt.Sprintf("%p", err2) || p1 != nil || p2 != nil {
		t.Errorf("an expansion of undeclared wildcards: %v, %v; want one cached error", err1, err2)
	}
	if p3, _ := c.Compile("b", prob, nil); p3 == progs[0] {
		t.Errorf("another key shares the program")
	}
}
