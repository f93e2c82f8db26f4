package kb

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// largeTaxonomy builds n synsets in a tree of fan-out 8 where every 97th
// synset also has a second parent, the shape of a large WordNet-derived
// knowledge base, through the builder as the loaders do.
func largeTaxonomy(tb testing.TB, n int) *Base {
	tb.Helper()
	bd := newBuilder(n)
	ids := make([]SynsetID, n)
	for i := range ids {
		ids[i] = bd.synset(fmt.Sprintf("s%d.n.01", i), Location{})
	}
	for i := 1; i < n; i++ {
		p := (i - 1) / 8
		bd.addParent(ids[i], ids[p])
		if i%97 == 0 && p > 1 {
			bd.addParent(ids[i], ids[p-1])
		}
	}
	b := bd.finish(computePropagation, Origin{Format: "test"})
	if err := b.loadErrs.Err(); err != nil {
		tb.Fatal(err)
	}
	return b
}

// TestLargeTaxonomyAncestors: with 200,000 synsets the ancestor index
// stays near-linear (here under twice synsets × depth entries, where a bit
// table would take n² bits, 5 GB), and IsA agrees with a walk of the
// hypernyms.
func TestLargeTaxonomyAncestors(t *testing.T) {
	if testing.Short() {
		t.Skip("large taxonomy")
	}
	const n = 200_000
	b := largeTaxonomy(t, n)
	maxDepth := 0
	for id := range n {
		maxDepth = max(maxDepth, b.Depth(SynsetID(id)))
	}
	if got, bound := len(b.extraIDs), 2*n*(maxDepth+1); got > bound {
		t.Errorf("%d ancestor entries for %d synsets of depth ≤ %d, want ≤ %d", got, n, maxDepth, bound)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		a := SynsetID(r.IntN(n))
		anc := b.Ancestors(a)
		for _, c := range anc {
			if !b.IsA(a, c) {
				t.Fatalf("IsA(%s, %s) = false for an ancestor", b.Name(a), b.Name(c))
			}
		}
		if !b.IsA(a, a) {
			t.Fatalf("IsA(%s, itself) = false", b.Name(a))
		}
		c := SynsetID(r.IntN(n))
		if c != a && !slices.Contains(anc, c) && b.IsA(a, c) {
			t.Fatalf("IsA(%s, %s) = true for a non-ancestor", b.Name(a), b.Name(c))
		}
	}
}

// TestYAMLLargeDocumentIsNotAnAliasBomb: a document with more nodes than
// the alias budget, but no aliases, loads; an alias bomb still fails,
// saying so.
func TestYAMLLargeDocumentIsNotAnAliasBomb(t *testing.T) {
	saved := yamlAliasBudget
	yamlAliasBudget = 1000
	defer func() { yamlAliasBudget = saved }()

	var sb strings.Builder
	sb.WriteString("synsets:\n  entity.n.01: {}\n")
	for i := range 2000 {
		fmt.Fprintf(&sb, "  s%d.n.01: {parents: [entity.n.01], properties: [cookable]}\n", i)
	}
	b, err := LoadYAML("large.yaml", []byte(sb.String()))
	if err != nil {
		t.Fatalf("a large document without aliases: %v", err)
	}
	if got := b.NumSynsets(); got != 2001 {
		t.Errorf("%d synsets, want 2001", got)
	}

	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nsynsets: {entity.n.01: {}}\n"
	_, err = LoadYAML("bomb.yaml", []byte(bomb))
	if err == nil || !strings.Contains(err.Error(), "aliases expand to more than 1000 nodes") {
		t.Errorf("alias bomb: %v, want the alias limit", err)
	}
}

func BenchmarkLargeTaxonomyBuild(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		largeTaxonomy(b, 200_000)
	}
}

func BenchmarkLargeTaxonomyIsA(b *testing.B) {
	base := largeTaxonomy(b, 200_000)
	n := base.NumSynsets()
	pairs := make([][2]SynsetID, 1024)
	for i := range pairs {
		pairs[i] = [2]SynsetID{SynsetID(i * 7919 % n), SynsetID(i * 104729 % n / 64)}
	}
	hits, i := 0, 0
	for b.Loop() {
		p := pairs[i&1023]
		if base.IsA(p[0], p[1]) {
			hits++
		}
		i++
	}
	b.ReportMetric(float64(len(base.extraIDs))/float64(n), "extra-ancestors/synset")
}

// Item 8: a chain of 20,000 synsets (each the only child of the one
// before) is cheap: no ancestor entries stored, IsA and Depth right.
func TestDeepChainLinear(t *testing.T) {
	const n = 20_000
	bd := newBuilder(n)
	ids := make([]SynsetID, n)
	for i := range n {
		ids[i] = bd.synset(fmt.Sprintf("s%d.n.01", i), Location{})
	}
	for i := 1; i < n; i++ {
		bd.addParent(ids[i], ids[i-1])
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	b := bd.finish(computePropagation, Origin{Format: "test"})
	runtime.ReadMemStats(&after)
	if err := b.loadErrs.Err(); err != nil {
		t.Fatal(err)
	}
	if len(b.extraIDs) != 0 {
		t.Errorf("%d extra ancestor entries for a chain", len(b.extraIDs))
	}
	if got := after.TotalAlloc - before.TotalAlloc; got > 64<<20 {
		t.Errorf("building a %d-synset chain allocated %d MiB", n, got>>20)
	}
	if !b.IsA(ids[n-1], ids[0]) || b.IsA(ids[0], ids[n-1]) || b.Depth(ids[n-1]) != n-1 {
		t.Errorf("IsA/Depth wrong on the chain")
	}
}
