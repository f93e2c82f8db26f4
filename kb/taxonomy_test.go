package kb

import (
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTaxonomy(t *testing.T) {
	t.Parallel()
	b := loadSmall(t)
	names := func(ids []SynsetID) []string {
		out := b.Names(ids)
		sort.Strings(out)
		return out
	}
	tests := []struct {
		name string
		got  []string
		want []string
	}{
		{"Parents(edible_fruit)", names(b.Parents(lookup(t, b, "edible_fruit.n.01"))), []string{"food.n.01", "fruit.n.01"}},
		{"Children(food)", names(b.Children(lookup(t, b, "food.n.01"))), []string{"bread.n.01", "edible_fruit.n.01"}},
		{"Ancestors(apple)", names(b.Ancestors(lookup(t, b, "apple.n.01"))),
			[]string{"edible_fruit.n.01", "entity.n.01", "food.n.01", "fruit.n.01", "object.n.01"}},
		{"Descendants(food)", names(b.Descendants(lookup(t, b, "food.n.01"))),
			[]string{"Apple.n.01", "bread.n.01", "edible_fruit.n.01", "half__apple.n.01"}},
		{"LeafDescendants(object)", names(b.LeafDescendants(lookup(t, b, "object.n.01"))),
			[]string{"Apple.n.01", "bread.n.01", "half__apple.n.01", "oven.n.01", "towel.n.01"}},
		{"LeafDescendants(leaf)", names(b.LeafDescendants(lookup(t, b, "oven.n.01"))), []string{"oven.n.01"}},
		{"Roots", names(b.Roots()), []string{"entity.n.01"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, tt.got); diff != "" {
				t.Errorf("%s mismatch (-want +got):\n%s", tt.name, diff)
			}
		})
	}
	// Nearest first: the parent before the grandparent.
	anc := b.Names(b.Ancestors(lookup(t, b, "apple.n.01")))
	if anc[0] != "edible_fruit.n.01" || anc[len(anc)-1] != "entity.n.01" {
		t.Errorf("Ancestors(apple) order = %v", anc)
	}
	if got := b.Depth(lookup(t, b, "apple.n.01")); got != 4 {
		t.Errorf("Depth(apple) = %d, want 4 (the longest path)", got)
	}
}

func TestIsA(t *testing.T) {
	t.Parallel()
	b := loadSmall(t)
	tests := []struct {
		a, b string
		want bool
	}{
		{"apple.n.01", "apple.n.01", true},
		{"apple.n.01", "edible_fruit.n.01", true},
		{"apple.n.01", "food.n.01", true},
		{"apple.n.01", "fruit.n.01", true},
		{"apple.n.01", "entity.n.01", true},
		{"food.n.01", "apple.n.01", false},
		{"apple.n.01", "half__apple.n.01", false},
		{"bread.n.01", "fruit.n.01", false},
		{"water.n.06", "object.n.01", false},
	}
	for _, tt := range tests {
		if got := b.IsA(lookup(t, b, tt.a), lookup(t, b, tt.b)); got != tt.want {
			t.Errorf("IsA(%s, %s) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	for _, bad := range []SynsetID{NoSynset, SynsetID(b.NumSynsets()), 1 << 30} {
		if b.IsA(bad, 0) || b.IsA(0, bad) || b.Has(bad, Cookable) || b.Name(bad) != "" || b.Parents(bad) != nil {
			t.Errorf("invalid id %d answered as valid", bad)
		}
	}
}

func TestLookup(t *testing.T) {
	b := loadSmall(t) // not parallel: AllocsPerRun
	tests := []struct {
		name string
		ok   bool
	}{
		{"apple.n.01", true},
		{"APPLE.N.01", true},
		{"Apple.n.01", true},
		{"half__Apple.n.01", true},
		{"pear.n.01", false},
		{"", false},
	}
	for _, tt := range tests {
		if _, ok := b.Lookup(tt.name); ok != tt.ok {
			t.Errorf("Lookup(%q) ok = %v, want %v", tt.name, ok, tt.ok)
		}
	}
	if n := testing.AllocsPerRun(100, func() { b.Lookup("half__apple.n.01") }); n != 0 {
		t.Errorf("Lookup of a lower-case name allocates %v times", n)
	}
}

// TestHotPathAllocs guards the evaluator's per-atom queries.
func TestHotPathAllocs(t *testing.T) {
	b := Default()
	apple, fruit := b.ID("apple.n.01"), b.ID("edible_fruit.n.01")
	n := testing.AllocsPerRun(100, func() {
		_ = b.IsA(apple, fruit)
		_ = b.Has(apple, Cookable)
		_ = b.Thresholds(apple)
	})
	if n != 0 {
		t.Errorf("IsA, Has, Thresholds allocate %v times per run", n)
	}
}
