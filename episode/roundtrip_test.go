package episode

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/openbddl/bddl/predicates"
)

// episodeValues is a recording as values, for comparisons.
type episodeValues struct {
	Header *Header
	Steps  []*Step
}

func valuesOf(h *Header, steps []*Step) episodeValues { return episodeValues{h, steps} }

var cmpEpisodes = []cmp.Option{cmpopts.EquateNaNs(), cmpopts.EquateEmpty()}

func cmpEqual(a, b episodeValues) bool { return cmp.Equal(a, b, cmpEpisodes...) }

var (
	rtNames  = []string{"apple.n.01_1", "apple.n.01_2", "sink.n.01_1", "towel.n.01_1", `odd"name\u.n.01_1`, "café.n.01_1"}
	rtSubsts = []string{"water.n.06_1", "stain.n.01_1"}
	rtPreds  = []string{"ontop", "inside", "cooked", "open", "covered", "future", "inroom"}
)

// randomObject makes an object record with a random subset of fields,
// each set, null, or absent.
func randomObject(rng *rand.Rand) *Object {
	o := &Object{}
	num := func() float64 {
		switch rng.IntN(4) {
		case 0:
			return float64(rng.IntN(100))
		case 1:
			return float64(float32(rng.NormFloat64()))
		case 2:
			return rng.NormFloat64() * 1e-7
		}
		return rng.NormFloat64() * 1e6
	}
	for _, fn := range fieldNames {
		f := fn.f
		switch rng.IntN(3) {
		case 0:
			continue
		case 1:
			o.Null |= f
			continue
		}
		o.Set |= f
		switch f {
		case predicates.FieldExists:
			o.Exists = rng.IntN(2) == 0
		case predicates.FieldPosition:
			o.Pos = [3]float64{num(), num(), num()}
		case predicates.FieldOrientation:
			o.Quat = [4]float64{num(), num(), num(), num()}
		case predicates.FieldAABB:
			for k := range 3 {
				a, b := num(), num()
				o.AABB.Min[k], o.AABB.Max[k] = min(a, b), max(a, b)
			}
		case predicates.FieldOBB:
			for k := range 8 {
				o.OBB[k] = [3]float64{float64(k & 1), float64(k >> 1 & 1), float64(k >> 2)}
				o.OBB[k][0] += num() * 1e-3
			}
			o.OBB[2], o.OBB[3] = o.OBB[3], o.OBB[2]
			o.OBB[6], o.OBB[7] = o.OBB[7], o.OBB[6]
		case predicates.FieldTemperature:
			o.Temperature = num()
		case predicates.FieldMaxTemperature:
			o.MaxTemperature = num()
		case predicates.FieldJoints:
			o.Joints = []Joint{}
			for k := range rng.IntN(3) {
				lo := num()
				o.Joints = append(o.Joints, Joint{Name: fmt.Sprintf("joint_%d", k), Lo: lo, Hi: lo + 1, Q: lo + 0.5, Dir: int8(rng.IntN(3) - 1)})
			}
		case predicates.FieldOpenFraction:
			o.OpenFraction = rng.Float64()
		case predicates.FieldToggledOn:
			o.ToggledOn = rng.IntN(2) == 0
		case predicates.FieldSliced:
			o.Sliced = rng.IntN(2) == 0
		case predicates.FieldBroken:
			o.Broken = rng.IntN(2) == 0
		case predicates.FieldContacts:
			o.Contacts = []string{}
			for range rng.IntN(3) {
				o.Contacts = append(o.Contacts, rtNames[rng.IntN(len(rtNames))])
			}
		case predicates.FieldAttachedTo:
			o.AttachedTo = []string{"", rtNames[rng.IntN(len(rtNames))]}[rng.IntN(2)]
		case predicates.FieldGraspedBy:
			o.GraspedBy = []string{"", rtNames[rng.IntN(len(rtNames))]}[rng.IntN(2)]
		case predicates.FieldRoom:
			o.Room = []string{"", "kitchen_0", "living_room_1"}[rng.IntN(3)]
		case predicates.FieldParticles:
			o.Particles = []Particles{}
			for _, s := range rtSubsts {
				switch rng.IntN(3) {
				case 0:
					continue
				case 1:
					o.Particles = append(o.Particles, Particles{Substance: s, Null: true, Particles: predicates.NoParticles})
					continue
				}
				p := predicates.NoParticles
				vals := []*float64{&p.Inside, &p.FillFraction, &p.Covering, &p.Absorbed, &p.AbsorbLimit}
				for _, v := range vals {
					if rng.IntN(2) == 0 {
						*v = math.Abs(num())
					}
				}
				o.Particles = append(o.Particles, Particles{Substance: s, Particles: p})
			}
			if len(o.Particles) == 0 {
				o.Set &^= f // {} changes nothing: it reads back as no field
			}
		case predicates.FieldCloth:
			o.Cloth = predicates.Cloth{AreaRatio: math.NaN(), DiagonalRatio: rng.Float64(), Smoothness: rng.Float64()}
		case predicates.FieldBoxError:
			o.BoxError = [2]float64{rng.Float64() * 0.1, rng.Float64() * 0.1}
		}
	}
	return o
}

func randomAtoms(rng *rand.Rand) []Atom {
	var out []Atom
	for range rng.IntN(4) {
		p := rtPreds[rng.IntN(len(rtPreds))]
		id, _ := predicates.PredByName(p)
		a := Atom{Pred: p, A: rtNames[rng.IntN(len(rtNames))]}
		if id.Arity() == 2 {
			a.B = rtNames[rng.IntN(len(rtNames))]
		}
		out = append(out, a)
	}
	return out
}

func randomEpisode(rng *rand.Rand) episodeValues {
	h := &Header{Activity: "some_activity-0", ClosedWorld: rng.IntN(2) == 0}
	if rng.IntN(2) == 0 {
		h.DT = 1.0 / 30
	}
	if rng.IntN(2) == 0 {
		h.Meta = []byte(`{"a":[1,{"b":null}],"c":"d"}`)
	}
	h.Objects = map[string]*Object{}
	for _, n := range rtNames[:rng.IntN(len(rtNames))] {
		h.Objects[n] = randomObject(rng)
	}
	var steps []*Step
	step := int64(rng.IntN(3)) - 1
	for range 1 + rng.IntN(5) {
		step += 1 + int64(rng.IntN(3))
		s := &Step{Step: step, Objects: map[string]*Object{}}
		if rng.IntN(2) == 0 {
			s.T, s.HasT = float64(step)/30, true
		}
		for _, n := range rtNames {
			if rng.IntN(2) == 0 {
				s.Objects[n] = randomObject(rng)
			}
		}
		s.Facts, s.False, s.Unset = randomAtoms(rng), randomAtoms(rng), randomAtoms(rng)
		steps = append(steps, s)
	}
	return episodeValues{h, steps}
}

// TestRoundTrip writes random recordings with every field (set, null or
// absent), plain and gzip-compressed, and reads them back: the reader
// gives exactly what the writer was given.
func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	for i := range 300 {
		want := randomEpisode(rng)
		for _, gz := range []bool{false, true} {
			var buf bytes.Buffer
			newW := NewWriter
			if gz {
				newW = NewGzipWriter
			}
			w, err := newW(&buf, want.Header)
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range want.Steps {
				if err := w.WriteStep(s); err != nil {
					t.Fatalf("episode %d: WriteStep: %v", i, err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			h, steps, err := ReadAll(bytes.NewReader(buf.Bytes()), "rt.jsonl")
			if err != nil {
				t.Fatalf("episode %d (gzip %v): ReadAll: %v\n%s", i, gz, err, buf.Bytes())
			}
			if diff := cmp.Diff(want, valuesOf(h, steps), cmpEpisodes...); diff != "" {
				t.Fatalf("episode %d (gzip %v): reader(writer(x)) != x (-x +read):\n%s", i, gz, diff)
			}
		}
	}
}

// TestSnapshotDelta writes full snapshots and checks that applying the
// written deltas in order rebuilds each snapshot.
func TestSnapshotDelta(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for i := range 100 {
		h := &Header{Activity: "a", Objects: map[string]*Object{rtNames[0]: randomObject(rng)}}
		h.Objects[rtNames[0]].Null = 0
		// The header is a complete state too: no null particle records.
		ho := h.Objects[rtNames[0]]
		var hps []Particles
		for _, p := range ho.Particles {
			if !p.Null {
				hps = append(hps, p)
			}
		}
		if ho.Particles = hps; len(hps) == 0 {
			ho.Set &^= predicates.FieldParticles
		}
		var snaps []*Step
		var buf bytes.Buffer
		w, err := NewWriter(&buf, h)
		if err != nil {
			t.Fatal(err)
		}
		for k := range 4 {
			s := &Step{Step: int64(k), Objects: map[string]*Object{}}
			for _, n := range rtNames[:3] {
				o := randomObject(rng)
				o.Null = 0
				// A snapshot is the complete state: no null records.
				var ps []Particles
				for _, p := range o.Particles {
					if !p.Null {
						ps = append(ps, p)
					}
				}
				if o.Particles = ps; len(ps) == 0 {
					o.Set &^= predicates.FieldParticles
				}
				s.Objects[n] = o
			}
			s.Facts = randomAtoms(rng)
			snaps = append(snaps, s)
			if err := w.WriteSnapshot(s); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		_, steps, err := ReadAll(bytes.NewReader(buf.Bytes()), "snap.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		state := map[string]*Object{}
		for n, o := range h.Objects {
			state[n] = cloneObject(o)
		}
		facts := map[Atom]bool{}
		for k, d := range steps {
			for n, delta := range d.Objects {
				state[n] = applyDelta(state[n], delta)
			}
			for _, a := range d.Facts {
				facts[a] = true
			}
			for _, a := range d.Unset {
				delete(facts, a)
			}
			for n, want := range snaps[k].Objects {
				got := state[n]
				w := cloneObject(want)
				if w.Set&predicates.FieldExists == 0 {
					w.Set |= predicates.FieldExists
					w.Exists = true
				}
				if got.Set&predicates.FieldExists == 0 { // first mention: exists
					got.Set |= predicates.FieldExists
					got.Exists = true
				}
				bySubstance := cmpopts.SortSlices(func(a, b Particles) bool { return a.Substance < b.Substance })
				if diff := cmp.Diff(w, got, append(cmpEpisodes, bySubstance)...); diff != "" {
					t.Fatalf("case %d step %d object %s: deltas rebuild (-want +got):\n%s", i, k, n, diff)
				}
			}
			wantFacts := map[Atom]bool{}
			for _, a := range snaps[k].Facts {
				wantFacts[a] = true
			}
			if diff := cmp.Diff(wantFacts, facts, cmpopts.EquateEmpty()); diff != "" {
				t.Fatalf("case %d step %d facts (-want +got):\n%s", i, k, diff)
			}
		}
	}
}

// applyDelta applies one written object record to a full one.
func applyDelta(prev, d *Object) *Object {
	out := &Object{}
	if prev != nil {
		out = cloneObject(prev)
	}
	for _, fn := range fieldNames {
		f := fn.f
		switch {
		case d.Null&f != 0:
			out.Set &^= f
			clearField(out, f)
		case d.Set&f != 0:
			if f == predicates.FieldParticles && prev != nil && prev.Set&f != 0 {
				for _, p := range d.Particles {
					i := -1
					for k := range out.Particles {
						if out.Particles[k].Substance == p.Substance {
							i = k
						}
					}
					switch {
					case p.Null && i >= 0:
						out.Particles = append(out.Particles[:i], out.Particles[i+1:]...)
					case i >= 0:
						out.Particles[i] = p
					case !p.Null:
						out.Particles = append(out.Particles, p)
					}
				}
			} else {
				CopyField(out, d, f)
			}
			out.Set |= f
		}
	}
	return out
}

func clearField(o *Object, f predicates.Field) {
	var zero Object
	CopyField(o, &zero, f)
}
