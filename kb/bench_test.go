package kb

import (
	"testing"
)

// BenchmarkLoadBehavior1K measures loading what validation and evaluation
// need from the BEHAVIOR-1K corpus (scene and model data stay unloaded).
func BenchmarkLoadBehavior1K(b *testing.B) {
	dir := knowledgeBaseDir(b)
	b.ReportAllocs()
	var base *Base
	for b.Loop() {
		var err error
		if base, err = LoadBehavior1K(dir); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(base.NumSynsets()), "synsets")
}

// BenchmarkLoadBehavior1KWorld measures the lazily loaded scene, category
// and object-model data on top of a load.
func BenchmarkLoadBehavior1KWorld(b *testing.B) {
	dir := knowledgeBaseDir(b)
	b.ReportAllocs()
	for b.Loop() {
		base, err := LoadBehavior1K(dir)
		if err != nil {
			b.Fatal(err)
		}
		if err := base.WorldErr(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadDefault(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(defaultYAML)))
	for b.Loop() {
		if _, err := LoadYAML("default.yaml", defaultYAML); err != nil {
			b.Fatal(err)
		}
	}
}

// benchPairs picks synset pairs spread over the whole knowledge base.
func benchPairs(base *Base) [][2]SynsetID {
	n := base.NumSynsets()
	pairs := make([][2]SynsetID, 1024)
	for i := range pairs {
		pairs[i] = [2]SynsetID{SynsetID(i * 7919 % n), SynsetID(i * 104729 % n)}
	}
	return pairs
}

func BenchmarkIsA(b *testing.B) {
	base := behavior1K(b)
	pairs := benchPairs(base)
	hits := 0
	i := 0
	for b.Loop() {
		p := pairs[i&1023]
		if base.IsA(p[0], p[1]) {
			hits++
		}
		i++
	}
	_ = hits
}

func BenchmarkHas(b *testing.B) {
	base := behavior1K(b)
	pairs := benchPairs(base)
	hits := 0
	i := 0
	for b.Loop() {
		p := pairs[i&1023]
		if base.Has(p[0], Property(i%int(numBuiltinProperties))) {
			hits++
		}
		i++
	}
	_ = hits
}

func BenchmarkThresholds(b *testing.B) {
	base := behavior1K(b)
	pairs := benchPairs(base)
	sum := 0.0
	i := 0
	for b.Loop() {
		sum += base.Thresholds(pairs[i&1023][0]).Cook
		i++
	}
	_ = sum
}

func BenchmarkLookup(b *testing.B) {
	base := behavior1K(b)
	for b.Loop() {
		if _, ok := base.Lookup("half__apple.n.01"); !ok {
			b.Fatal("not found")
		}
	}
}

func BenchmarkCheckApplicable(b *testing.B) {
	base := behavior1K(b)
	args := []SynsetID{base.ID("apple.n.01"), base.ID("countertop.n.01")}
	b.ReportAllocs()
	for b.Loop() {
		if vs := base.CheckApplicable(DomainOmniGibson, "ontop", args); len(vs) != 0 {
			b.Fatal(vs)
		}
	}
}

// BenchmarkLoadAndShow measures what `bddl kb show SYNSET` does: a load,
// then the categories, models, rooms and rules of one synset (loading the
// world tiers they need).
func BenchmarkLoadAndShow(b *testing.B) {
	dir := knowledgeBaseDir(b)
	b.ReportAllocs()
	for b.Loop() {
		base, err := LoadBehavior1K(dir)
		if err != nil {
			b.Fatal(err)
		}
		id, ok := base.Lookup("apple.n.01")
		if !ok {
			b.Skip("corpus has no apple.n.01")
		}
		_ = base.ModelsOf(id)
		_ = base.RoomsWith(id)
		_ = base.RulesConsuming(id)
	}
}
