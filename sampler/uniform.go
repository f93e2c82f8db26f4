package sampler

import "math/rand/v2"

// uniform draws from [lo, hi) with rng: the arithmetic of gonum's
// distuv.Uniform{Min: lo, Max: hi, Src: rng}.Rand() (the same number from
// the same stream, so seeded samples are unchanged), without the gonum
// statistics packages it brought into the binary, or the allocation of a
// rand.Rand per draw.
func uniform(rng *rand.Rand, lo, hi float64) float64 {
	return rng.Float64()*(hi-lo) + lo
}
