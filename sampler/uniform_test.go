package sampler

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/stat/distuv"
)

// TestUniformSameAsGonum: uniform gives distuv.Uniform's numbers from the
// same seeded stream, so seeded samples did not change when it replaced it.
func TestUniformSameAsGonum(t *testing.T) {
	t.Parallel()
	a, b := rand.New(rand.NewPCG(7, 9)), rand.New(rand.NewPCG(7, 9))
	bounds := [][2]float64{{0, 1}, {-math.Pi, math.Pi}, {-1, 1}, {0.3, 0.3}, {2, -5}, {0, 1e-12}}
	for i := 0; i < 10000; i++ {
		lo, hi := bounds[i%len(bounds)][0], bounds[i%len(bounds)][1]
		got, want := uniform(a, lo, hi), distuv.Uniform{Min: lo, Max: hi, Src: b}.Rand()
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("draw %d: uniform(%v, %v) = %v, distuv %v", i, lo, hi, got, want)
		}
	}
}
