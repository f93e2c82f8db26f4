package checkrun

import (
	"strings"
	"testing"

	"github.com/openbddl/bddl/predicates"
)

// TestCompileOptions: the flags' values become predicates options, and
// a value out of range is an error naming its flag.
func TestCompileOptions(t *testing.T) {
	t.Parallel()
	good := predicates.Geometry{TouchTolerance: 0, VerticalRange: 0.2, HorizontalRange: 0.2, NextToRatio: 0.1, HorizontalRays: 8, OverlapFraction: 0.5}
	o, err := CompileOptions("strict", true, good)
	if err != nil || o.Negation != predicates.StrictNegation || !o.StrictPairs || o.Geometry != good {
		t.Errorf("CompileOptions(strict) = %+v, %v", o, err)
	}
	for _, c := range []struct {
		name, negation, want string
		edit                 func(*predicates.Geometry)
	}{
		{"negation", "loose", "--negation", func(*predicates.Geometry) {}},
		{"touch", "reference", "--touch-tolerance", func(g *predicates.Geometry) { g.TouchTolerance = -1 }},
		{"range", "reference", "--vertical-range", func(g *predicates.Geometry) { g.VerticalRange = 0 }},
		{"rays", "reference", "--horizontal-rays", func(g *predicates.Geometry) { g.HorizontalRays = 361 }},
	} {
		g := good
		c.edit(&g)
		if _, err := CompileOptions(c.negation, false, g); err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming %s", c.name, err, c.want)
		}
	}
}

// TestMarkIn: SUCCESS green, ERROR red, the others yellow.
func TestMarkIn(t *testing.T) {
	t.Parallel()
	tag := func(c string) func(string) string { return func(s string) string { return c + ":" + s } }
	mark := MarkIn(tag("g"), tag("r"), tag("y"))
	for verdict, want := range map[string]string{"SUCCESS": "g:x", "ERROR": "r:x", "FAIL": "y:x", "UNDETERMINED": "y:x"} {
		if got := mark(verdict, "x"); got != want {
			t.Errorf("mark(%s) = %q, want %q", verdict, got, want)
		}
	}
}
