package r3

import (
	"math"
	"math/rand/v2"
	"testing"

	gonum "gonum.org/v1/gonum/spatial/r3"
)

// TestSameAsGonum: every operation gives gonum's bits, on random and on
// special values.
func TestSameAsGonum(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	vals := []float64{0, -0.0, 1, -1, 0.5, math.Pi, 1e-300, 1e300, math.Inf(1), math.NaN()}
	pick := func() float64 {
		if rng.IntN(4) == 0 {
			return vals[rng.IntN(len(vals))]
		}
		return rng.NormFloat64() * 10
	}
	same := func(a Vec, b gonum.Vec) bool {
		bits := func(x, y float64) bool {
			return math.Float64bits(x) == math.Float64bits(y) || (math.IsNaN(x) && math.IsNaN(y))
		}
		return bits(a.X, b.X) && bits(a.Y, b.Y) && bits(a.Z, b.Z)
	}
	for i := 0; i < 20000; i++ {
		p, q := Vec{pick(), pick(), pick()}, Vec{pick(), pick(), pick()}
		gp, gq := gonum.Vec(p), gonum.Vec(q)
		f := pick()
		if !same(Add(p, q), gonum.Add(gp, gq)) || !same(Sub(p, q), gonum.Sub(gp, gq)) || !same(Scale(f, p), gonum.Scale(f, gp)) {
			t.Fatalf("Add/Sub/Scale of %v, %v, %v differ from gonum", p, q, f)
		}
		if d, g := Dot(p, q), gonum.Dot(gp, gq); math.Float64bits(d) != math.Float64bits(g) && !(math.IsNaN(d) && math.IsNaN(g)) {
			t.Fatalf("Dot(%v, %v) = %v, gonum %v", p, q, d, g)
		}
		alpha := pick()
		if i%7 == 0 {
			alpha = 0
		}
		if got, want := NewRotation(alpha, q).Rotate(p), gonum.NewRotation(alpha, gq).Rotate(gp); !same(got, want) {
			t.Fatalf("NewRotation(%v, %v).Rotate(%v) = %v, gonum %v", alpha, q, p, got, want)
		}
	}
}

func BenchmarkRotate(b *testing.B) {
	r := NewRotation(0.7, Vec{0, 0, 1})
	p := Vec{1, 2, 3}
	b.ReportAllocs()
	for b.Loop() {
		p = r.Rotate(p)
	}
}
