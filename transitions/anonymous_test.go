package transitions

import (
	"math/rand/v2"
	"testing"
)

// TestAnonymousCorpusRandom steps every corpus activity's rules over
// random states long enough for anonymous objects to be made and taken:
// no panic; every anonymous object a firing consumes was made before and
// not consumed since; never more than the bound live at once.
func TestAnonymousCorpusRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	made, used := 0, 0
	for _, a := range corpusEngines(t) {
		if a.eng.NumRules() == 0 {
			continue
		}
		eng := a.eng.Fork()
		live := map[string]bool{}
		for k := 0; k < 120; k++ {
			out := eng.Step(randomState(a.prog, rng))
			for _, f := range out.Firings {
				for _, name := range f.ConsumedAnonymous {
					if !live[name] {
						t.Fatalf("%s step %d: %s consumed %s, which is not a live anonymous object", a.name, k, f.Rule, name)
					}
					delete(live, name)
					used++
				}
				if f.Anonymous != "" {
					delete(live, f.Anonymous)
				}
			}
			for _, f := range out.Firings {
				for _, p := range f.Produced {
					if p.Anonymous && !p.Substance {
						live[p.Name] = true
						made++
					} else if p.Anonymous {
						live[p.Name] = true // a substance may be made again into the same one
					}
				}
			}
			if n := len(live); n > DefaultMaxAnonymous {
				t.Fatalf("%s step %d: %d anonymous objects live, bound %d", a.name, k, n, DefaultMaxAnonymous)
			}
		}
	}
	if made == 0 || used == 0 {
		t.Fatalf("made %d anonymous objects, consumed %d: the test exercised nothing", made, used)
	}
	t.Logf("%d anonymous objects made, %d consumed", made, used)
}
