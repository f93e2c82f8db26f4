package episode

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"

	"github.com/openbddl/bddl/predicates"
)

// SynthKind selects what Synthesize records.
type SynthKind int

const (
	// SynthSymbolic is a closed-world symbolic recording: the definition's
	// :init at step 0, then each step changes one or two atoms of the
	// goal (delta-encoded, a few dozen bytes a step).
	SynthSymbolic SynthKind = iota
	// SynthPoses records the position and box of every object at every
	// step as a float32 simulator would (17 significant digits), objects
	// drifting at random.
	SynthPoses
)

// Synthesize writes a recording of the given kind and length for a
// compiled activity, reproducibly from seed: test and benchmark input
// with the shape of real recordings. It is not a simulation: the goal
// is rarely reached.
func Synthesize(w io.Writer, prog *predicates.Program, activity string, kind SynthKind, steps int, seed uint64) error {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	switch kind {
	case SynthSymbolic:
		return synthSymbolic(w, prog, activity, steps, rng)
	case SynthPoses:
		return synthPoses(w, prog, activity, steps, rng)
	}
	return fmt.Errorf("episode: unknown synthetic kind %d", kind)
}

func synthSymbolic(w io.Writer, prog *predicates.Program, activity string, steps int, rng *rand.Rand) error {
	h, init := FromInit(prog, activity)
	h.Steps = steps
	wr, err := NewWriter(w, h)
	if err != nil {
		return err
	}
	if err := wr.WriteStep(init); err != nil {
		return err
	}
	// The atoms a plan would change: the first ground option's literals.
	var lits []predicates.Literal
	for opt := range prog.GroundOptions(1) {
		lits = opt
	}
	for i := 1; i < steps; i++ {
		st := &Step{Step: int64(i)}
		for range 1 + rng.IntN(2) {
			if len(lits) == 0 {
				break
			}
			l := lits[rng.IntN(len(lits))]
			a := Atom{Pred: l.Pred.String(), A: prog.Name(l.A)}
			if l.Pred.Arity() == 2 {
				a.B = prog.Name(l.B)
			}
			if l.Negated == (rng.IntN(10) < 7) {
				st.False = append(st.False, a)
			} else {
				st.Facts = append(st.Facts, a)
			}
		}
		if err := wr.WriteStep(st); err != nil {
			return err
		}
	}
	return wr.Close()
}

func synthPoses(w io.Writer, prog *predicates.Program, activity string, steps int, rng *rand.Rand) error {
	n := prog.NumObjects()
	h := &Header{Activity: activity, DT: 1.0 / 30, Steps: steps, Objects: map[string]*Object{}}
	type body struct {
		name string
		pos  [3]float64
		half [3]float64
	}
	bodies := make([]body, n)
	for i := range bodies {
		bodies[i] = body{
			name: prog.Name(predicates.ObjectID(i)),
			pos:  [3]float64{rng.Float64() * 6, rng.Float64() * 6, rng.Float64() * 1.5},
			half: [3]float64{0.05 + rng.Float64()*0.4, 0.05 + rng.Float64()*0.4, 0.05 + rng.Float64()*0.3},
		}
		h.Objects[bodies[i].name] = &Object{}
	}
	wr, err := NewWriter(w, h)
	if err != nil {
		return err
	}
	f32 := func(v float64) float64 { return float64(float32(v)) }
	st := &Step{Objects: map[string]*Object{}}
	objs := make([]Object, n)
	for i := range steps {
		st.Step, st.T, st.HasT = int64(i), f32(float64(i)/30), true
		for k := range bodies {
			b := &bodies[k]
			for a := range 3 {
				b.pos[a] += rng.NormFloat64() * 0.01
			}
			o := &objs[k]
			o.Set = predicates.FieldPosition | predicates.FieldAABB
			for a := range 3 {
				o.Pos[a] = f32(b.pos[a])
				o.AABB.Min[a] = f32(b.pos[a] - b.half[a])
				o.AABB.Max[a] = f32(b.pos[a] + b.half[a])
				if o.AABB.Min[a] > o.AABB.Max[a] || math.IsNaN(o.AABB.Min[a]) {
					o.AABB.Min[a] = o.AABB.Max[a]
				}
			}
			st.Objects[b.name] = o
		}
		if err := wr.WriteStep(st); err != nil {
			return err
		}
	}
	return wr.Close()
}
