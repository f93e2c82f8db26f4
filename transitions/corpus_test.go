package transitions

import (
	"math/rand/v2"
	"testing"

	"github.com/openbddl/bddl/predicates"
)

// randomState records random boxes, toggles, openness, temperatures,
// contacts and facts for every object of an activity, so that the rules
// meet every kind of condition, decided and undecided.
func randomState(p *predicates.Program, rng *rand.Rand) *predicates.State {
	s := p.NewState()
	s.SetClosedWorld(rng.IntN(2) == 0)
	n := p.NumObjects()
	facts := []predicates.PredID{pInside, pOntop, pTouching, pContains, pFilled, pCovered, pSaturated, pCooked, pToggledOn, pOpen, pHot}
	for i := 0; i < n; i++ {
		o := predicates.ObjectID(i)
		_ = s.SetExists(o, rng.IntN(5) != 0)
		if rng.IntN(3) != 0 {
			x, y, z := rng.Float64(), rng.Float64(), rng.Float64()
			w := 0.05 + rng.Float64()*0.5
			_ = s.SetAABB(o, predicates.Box{Min: [3]float64{x, y, z}, Max: [3]float64{x + w, y + w, z + w}})
		}
		if rng.IntN(2) == 0 {
			_ = s.SetMaxTemperature(o, rng.Float64()*150)
			_ = s.SetTemperature(o, rng.Float64()*100)
		}
		for k := 0; k < 3; k++ {
			pred := facts[rng.IntN(len(facts))]
			b := predicates.ObjectID(rng.IntN(n))
			_ = s.SetFact(pred, o, b, predicates.Truth(rng.IntN(3)))
		}
	}
	return s
}

// TestStepCorpusRandom steps every corpus activity's rules over random
// states: no panic, and every firing's bookkeeping agrees with the state
// (what was consumed no longer exists unless an output rebound it; what
// was bound exists).
func TestStepCorpusRandom(t *testing.T) {
	acts := corpusEngines(t)
	rng := rand.New(rand.NewPCG(1, 2))
	fired, ruled := 0, 0
	for _, a := range acts {
		if a.eng.NumRules() == 0 {
			continue
		}
		ruled++
		eng := a.eng.Fork()
		for k := 0; k < 30; k++ {
			s := randomState(a.prog, rng)
			out := eng.Step(s)
			// Removals come first, so an output may rebind an instance
			// another firing of the step consumed.
			rebound := map[predicates.ObjectID]bool{}
			for _, f := range out.Firings {
				fired++
				for _, pr := range f.Produced {
					if pr.Object != NoObject {
						rebound[pr.Object] = true
						if s.Exists(pr.Object) != predicates.True {
							t.Fatalf("%s: %s bound %s, which does not exist", a.name, f.Rule, pr.Name)
						}
					}
				}
			}
			for _, f := range out.Firings {
				for _, o := range f.Consumed {
					if !rebound[o] && s.Exists(o) != predicates.False {
						t.Fatalf("%s: %s consumed %s, which still exists", a.name, f.Rule, a.prog.Name(o))
					}
				}
			}
		}
	}
	t.Logf("%d activities with rules, %d firings on random states", ruled, fired)
	if fired == 0 {
		t.Error("no rule fired on any random state")
	}
}
