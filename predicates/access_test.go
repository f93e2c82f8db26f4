package predicates

import (
	"math/rand/v2"
	"testing"
)

// TestMayTouch: whenever (touching a b) is True, MayTouch says it may be,
// on random states with facts, contacts and boxes (and without).
func TestMayTouch(t *testing.T) {
	trues := 0
	for _, c := range corpusBench(t, Options{}) {
		p := c.p
		n := p.NumObjects()
		if n < 2 {
			continue
		}
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		for k := 0; k < 5; k++ {
			s := geometricState(p, rng)
			s.SetClosedWorld(k%2 == 0)
			for i := 0; i < n; i++ {
				if rng.IntN(3) == 0 {
					_ = s.Clear(ObjectID(i), FieldAABB|FieldContacts)
				}
				_ = s.SetFact(predTouching, ObjectID(i), ObjectID(rng.IntN(n)), Truth(rng.IntN(3)))
			}
			for a := 0; a < n; a++ {
				for b := 0; b < n; b++ {
					if p.Atom(s, predTouching, ObjectID(a), ObjectID(b)) != True {
						continue
					}
					trues++
					if !p.MayTouch(s, ObjectID(a), ObjectID(b)) {
						t.Fatalf("%s: touching %s %s is true but MayTouch says no", c.name, p.Name(ObjectID(a)), p.Name(ObjectID(b)))
					}
				}
			}
		}
	}
	if trues == 0 {
		t.Fatal("no touching atom was true: the test checked nothing")
	}
}
