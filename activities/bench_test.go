package activities

import (
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
)

// BenchmarkValidateCorpus validates the BEHAVIOR-1K corpus against the
// BEHAVIOR-1K knowledge base on all cores: every rule, reachability and
// scene feasibility. "full" includes loading the knowledge base (with its
// scenes) and parsing the definitions, as `bddl validate --kb` does;
// "rules" reuses both; "kb" is the knowledge-base load alone.
func BenchmarkValidateCorpus(b *testing.B) {
	kbDir := corpus.KBDir(b)
	defs := corpus.ActivitiesDir(b)
	load := func(b *testing.B) (*kb.Base, *Library) {
		base, err := kb.Load(kbDir)
		if err != nil {
			b.Fatal(err)
		}
		base.Scenes() // the scene data is loaded lazily: count it here
		lib, err := LoadDir(defs)
		if err != nil {
			b.Fatal(err)
		}
		return base, lib
	}
	b.Run("full", func(b *testing.B) {
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			base, lib := load(b)
			lib.Validate(base)
			n = len(lib.Activities)
		}
		b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "activities/s")
	})
	b.Run("rules", func(b *testing.B) {
		base, lib := load(b)
		lib.Validate(base) // build the shared indexes
		b.ReportAllocs()
		b.ResetTimer()
		for b.Loop() {
			lib.Validate(base)
		}
		b.ReportMetric(float64(len(lib.Activities)*b.N)/b.Elapsed().Seconds(), "activities/s")
	})
	b.Run("kb", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			base, err := kb.Load(kbDir)
			if err != nil {
				b.Fatal(err)
			}
			base.Scenes()
		}
	})
}
