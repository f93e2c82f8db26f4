package predicates

import "github.com/openbddl/bddl/kb"

// Everything this package needs from the knowledge base goes through this
// file, read once per object at compile time, so the evaluator never
// touches the knowledge base and a change of its API is fixed here.

// thresholds are the temperatures at which an object's temperature
// predicates switch (SEMANTICS.md A5).
type thresholds struct {
	cook, burn, heat, freeze, ignition float64
}

var defaultThresholds = thresholds{
	cook:     kb.DefaultCookTemperature,
	burn:     kb.DefaultBurnTemperature,
	heat:     kb.DefaultHeatTemperature,
	freeze:   kb.DefaultFreezeTemperature,
	ignition: kb.DefaultIgnitionTemperature,
}

// synsetFacts is what the evaluator knows of an object's synset.
type synsetFacts struct {
	inKB      bool // the synset is in the knowledge base
	thr       thresholds
	substance bool // a particle system: the second argument of particle predicates
	visual    bool // a visual substance (dust, stains)
	remover   bool // a particle remover (saturation limits)
	// enclosure: openable (a door or lid closes over what it holds), so
	// its box's top stands for a real surface above what lies in it.
	enclosure bool
}

// lookupSynset reads a synset's facts; an unknown synset or a nil base
// gives the reference defaults.
func lookupSynset(base *kb.Base, synset string) synsetFacts {
	f := synsetFacts{thr: defaultThresholds}
	if base == nil {
		return f
	}
	id, ok := base.Lookup(synset)
	if !ok {
		return f
	}
	t := base.Thresholds(id)
	f.inKB = true
	f.thr = thresholds{cook: t.Cook, burn: t.Burn, heat: t.Heat, freeze: t.Freeze, ignition: t.Ignition}
	f.substance = base.IsSubstance(id)
	f.visual = base.Has(id, kb.VisualSubstance)
	f.remover = base.Has(id, kb.ParticleRemover)
	f.enclosure = base.Has(id, kb.Openable)
	return f
}
