package predicates

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"
)

// benchCase is one corpus activity compiled, with the closed-world state
// of its own :init: the setting of the reference's published timing.
type benchCase struct {
	name string
	p    *Program
	s    *State
}

func corpusBench(tb testing.TB, opts Options) []benchCase {
	tb.Helper()
	acts, base := loadCorpus(tb)
	var out []benchCase
	for _, a := range acts {
		p, err := Compile(a.problem, base, opts)
		if err != nil {
			continue
		}
		out = append(out, benchCase{name: a.name, p: p, s: p.InitState()})
	}
	return out
}

// geometricState records boxes, temperatures, joints, particles and
// contacts for every object, so the rules and the geometry run.
func geometricState(p *Program, rng *rand.Rand) *State {
	s := p.NewState()
	s.SetAllExist(true)
	n := p.NumObjects()
	for i := 0; i < n; i++ {
		o := ObjectID(i)
		x, y, z := rng.Float64()*4, rng.Float64()*4, rng.Float64()*2
		w := 0.1 + rng.Float64()*0.5
		_ = s.SetAABB(o, bx(x, y, z, x+w, y+w, z+w))
		_ = s.SetTemperature(o, rng.Float64()*100)
		_ = s.SetMaxTemperature(o, rng.Float64()*200)
		_ = s.SetOpenFraction(o, rng.Float64())
		_ = s.SetToggledOn(o, rng.IntN(2) == 0)
		if rng.IntN(2) == 0 {
			_ = s.SetContacts(o, []ObjectID{ObjectID(rng.IntN(n))})
		}
		_ = s.SetCloth(o, Cloth{AreaRatio: rng.Float64(), DiagonalRatio: rng.Float64(), Smoothness: rng.Float64()})
		_ = s.SetAttachedTo(o, ObjectID(rng.IntN(n)))
	}
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			if p.IsSubstance(ObjectID(j)) {
				_ = s.SetParticles(ObjectID(i), ObjectID(j), Particles{Inside: float64(rng.IntN(3)), FillFraction: rng.Float64() * 0.4,
					Covering: float64(rng.IntN(2)), Absorbed: float64(rng.IntN(500)), AbsorbLimit: 400})
			}
		}
	}
	return s
}

// TestEvalZeroAlloc guards the hot path: Eval, EvalInit and EvalConjuncts
// allocate nothing, on symbolic and on geometric states, in every mode.
func TestEvalZeroAlloc(t *testing.T) {
	acts, base := loadCorpus(t)
	rng := rand.New(rand.NewPCG(9, 10))
	modes := []Options{{}, {Exhaustive: true}, {Negation: StrictNegation, StrictPairs: true}}
	out := make([]Truth, 0, 64)
	for i, a := range acts {
		opts := modes[i%len(modes)]
		p, err := Compile(a.problem, base, opts)
		if err != nil {
			continue
		}
		for _, s := range []*State{p.InitState(), geometricState(p, rng)} {
			p.Eval(s) // let the scratch grow once
			if n := testing.AllocsPerRun(20, func() {
				p.Eval(s)
				p.EvalInit(s)
				out = p.EvalConjuncts(s, out[:0])
			}); n != 0 {
				t.Errorf("%s: %v allocations per evaluation, want 0", a.name, n)
			}
		}
	}
	// Incremental updates allocate nothing once each record exists.
	p, err := Compile(acts[0].problem, base, Options{})
	if err != nil {
		t.Skip(err)
	}
	s := geometricState(p, rng)
	if n := testing.AllocsPerRun(20, func() {
		_ = s.SetAABB(0, bx(0, 0, 0, 1, 1, 1))
		_ = s.SetTemperature(0, 50)
		_ = s.SetContacts(0, []ObjectID{1})
		_ = s.SetFact(predOntop, 0, 1, True)
		_ = s.SetExists(1, true)
	}); n != 0 {
		t.Errorf("state updates: %v allocations, want 0", n)
	}
}

// perEvalNanos times one program on one state: the best of several
// batches, to keep a busy machine's interruptions out.
func perEvalNanos(p *Program, s *State) float64 {
	const batch = 200
	best := time.Duration(1 << 62)
	for rep := 0; rep < 5; rep++ {
		start := time.Now()
		for i := 0; i < batch; i++ {
			p.Eval(s)
		}
		if d := time.Since(start); d < best {
			best = d
		}
	}
	return float64(best.Nanoseconds()) / batch
}

func percentile(sorted []float64, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q * float64(len(sorted)-1))
	return sorted[i]
}

// BenchmarkEvalCorpus evaluates :goal of every corpus activity on the
// closed-world state of its :init. ns/op is one pass over all activities;
// median-ns and p99-ns are per evaluation, across activities.
func BenchmarkEvalCorpus(b *testing.B) {
	cases := corpusBench(b, Options{})
	per := make([]float64, 0, len(cases))
	want := make([]Truth, len(cases))
	for i, c := range cases {
		per = append(per, perEvalNanos(c.p, c.s))
		want[i] = c.p.Eval(c.s)
	}
	sort.Float64s(per)
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cases {
			c.p.Eval(c.s)
		}
	}
	for i, c := range cases {
		if got := c.p.Eval(c.s); got != want[i] {
			b.Fatalf("%s: Eval changed from %v to %v", c.name, want[i], got)
		}
	}
	b.ReportMetric(percentile(per, 0.5), "median-ns")
	b.ReportMetric(percentile(per, 0.99), "p99-ns")
	b.ReportMetric(per[len(per)-1], "max-ns")
	b.ReportMetric(float64(len(cases)), "activities")
}

// BenchmarkEvalCorpusModes compares the evaluation modes on the same states.
func BenchmarkEvalCorpusModes(b *testing.B) {
	for _, mode := range []struct {
		name string
		opts Options
	}{
		{"exhaustive", Options{Exhaustive: true}},
		{"strict", Options{Negation: StrictNegation, StrictPairs: true}},
	} {
		b.Run(mode.name, func(b *testing.B) {
			cases := corpusBench(b, mode.opts)
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range cases {
					c.p.Eval(c.s)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(cases)), "ns/eval")
		})
	}
}

// BenchmarkEvalGeometric evaluates every corpus goal on a state of
// recorded boxes and quantities, where the rules and geometry run.
func BenchmarkEvalGeometric(b *testing.B) {
	acts, base := loadCorpus(b)
	rng := rand.New(rand.NewPCG(11, 12))
	var cases []benchCase
	for _, a := range acts {
		p, err := Compile(a.problem, base, Options{Exhaustive: true})
		if err != nil {
			continue
		}
		cases = append(cases, benchCase{name: a.name, p: p, s: geometricState(p, rng)})
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cases {
			c.p.Eval(c.s)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(cases)), "ns/eval")
}

// BenchmarkPredicate times single geometric and quantity atoms.
func BenchmarkPredicate(b *testing.B) {
	p := goldenProgram(b, Options{})
	s := p.NewState()
	s.SetAllExist(true)
	o := func(name string) ObjectID { return id(b, p, name) }
	scene(s, o)
	_ = s.SetOBB(o("crate.n.01_1"), rotatedOBB([3]float64{0, 0, 0.5}, 0.5, 0.5, 0.5, 0.7))
	_ = s.SetOBB(o("crate.n.01_2"), rotatedOBB([3]float64{1.2, 0.3, 0.5}, 0.5, 0.5, 0.5, 0.2))
	_ = s.SetMaxTemperature(o("apple.n.01_1"), 80)
	_ = s.SetJoints(o("cabinet.n.01_1"), []Joint{{Q: 0.3, Lo: 0, Hi: 1}, {Q: 0, Lo: -1, Hi: 0, Dir: -1}})
	for _, c := range []struct{ name, pred, a, b string }{
		{"ontop", "ontop", "plate.n.04_1", "table.n.02_1"},
		{"under", "under", "crate.n.01_1", "lamp.n.02_1"},
		{"nextto", "nextto", "plate.n.04_1", "table.n.02_1"},
		{"inside", "inside", "bowl.n.01_1", "shelf.n.01_1"},
		{"touching-aabb", "touching", "plate.n.04_1", "table.n.02_1"},
		{"touching-obb", "touching", "crate.n.01_1", "crate.n.01_2"},
		{"overlaid", "overlaid", "plate.n.04_1", "table.n.02_1"},
		{"cooked", "cooked", "apple.n.01_1", ""},
		{"open-joints", "open", "cabinet.n.01_1", ""},
	} {
		b.Run(c.name, func(b *testing.B) {
			pr := pred(b, c.pred)
			bo := NoObject
			if c.b != "" {
				bo = o(c.b)
			}
			a := o(c.a)
			b.ReportAllocs()
			for b.Loop() {
				p.atom(s, pr, a, bo)
			}
		})
	}
}

// BenchmarkScores times the exact partial credit on every corpus goal.
func BenchmarkScores(b *testing.B) {
	cases := corpusBench(b, Options{})
	for _, c := range cases {
		if _, err := c.p.groundTree(); err != nil {
			b.Fatalf("%s: %v", c.name, err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range cases {
			if _, err := c.p.Scores(c.s, c.s); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(cases)), "ns/activity")
}
