package episode

import (
	"cmp"
	"math"
	"slices"

	"github.com/openbddl/bddl/predicates"
)

// WriteSnapshot writes a step given as the complete state: every object
// with every field it has now, Facts and False the complete sets of atoms
// recorded true and false. Only what changed since the previous snapshot
// (or the header, for the first) is written: a field that is new or has a
// new value, null for a field that is gone, unset for an atom no longer
// recorded. An object left out of a snapshot keeps its values, and an
// object's existence defaults to true, so a simulator can dump its state
// each step and let the writer delta-encode it.
func (w *Writer) WriteSnapshot(s *Step) error {
	if w.prev == nil {
		w.prev = map[string]*Object{}
		for name, o := range w.header.Objects {
			w.prev[name] = cloneObject(o)
		}
		w.prevFacts = map[Atom]predicates.Truth{}
	}
	d := &Step{Step: s.Step, T: s.T, HasT: s.HasT}
	for name, o := range s.Objects {
		prev, seen := w.prev[name]
		if delta := diffObject(prev, o); delta != nil || !seen {
			if delta == nil {
				delta = &Object{}
			}
			if d.Objects == nil {
				d.Objects = map[string]*Object{}
			}
			d.Objects[name] = delta
		}
	}
	cur := make(map[Atom]predicates.Truth, len(s.Facts)+len(s.False))
	for _, a := range s.Facts {
		cur[a] = predicates.True
	}
	for _, a := range s.False {
		cur[a] = predicates.False
	}
	for a, t := range cur {
		if w.prevFacts[a] != t {
			if t == predicates.True {
				d.Facts = append(d.Facts, a)
			} else {
				d.False = append(d.False, a)
			}
		}
	}
	for a := range w.prevFacts {
		if _, ok := cur[a]; !ok {
			d.Unset = append(d.Unset, a)
		}
	}
	for _, list := range [][]Atom{d.Facts, d.False, d.Unset} {
		slices.SortFunc(list, compareAtoms)
	}
	if err := w.WriteStep(d); err != nil {
		return err
	}
	for name, o := range s.Objects {
		w.prev[name] = cloneObject(o)
	}
	w.prevFacts = cur
	return nil
}

func compareAtoms(a, b Atom) int {
	return cmp.Or(cmp.Compare(a.Pred, b.Pred), cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B))
}

func cloneObject(o *Object) *Object {
	c := *o
	c.Joints = slices.Clone(o.Joints)
	c.Contacts = slices.Clone(o.Contacts)
	c.Particles = slices.Clone(o.Particles)
	return &c
}

// diffObject returns the changes from prev (nil: never seen) to cur, or
// nil when nothing changed.
func diffObject(prev, cur *Object) *Object {
	var d Object
	changed := false
	for _, fn := range fieldNames {
		f := fn.f
		if f == predicates.FieldExists {
			// In a snapshot an object exists unless it says otherwise.
			was, is := true, true
			if prev != nil && prev.Set&f != 0 {
				was = prev.Exists
			}
			if cur.Set&f != 0 {
				is = cur.Exists
			}
			if prev != nil && was != is || prev == nil && !is {
				d.Set |= f
				d.Exists = is
				changed = true
			}
			continue
		}
		curHas := cur.Set&f != 0
		prevHas := prev != nil && prev.Set&f != 0
		switch {
		case curHas && (!prevHas || !FieldEqual(prev, cur, f)):
			CopyField(&d, cur, f)
			if f == predicates.FieldParticles && prevHas {
				d.Particles = particleDelta(prev.Particles, cur.Particles)
			}
			d.Set |= f
			changed = true
		case !curHas && prevHas:
			d.Null |= f
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return &d
}

// particleDelta is the per-substance change: new or changed records, and
// null for substances no longer recorded.
func particleDelta(prev, cur []Particles) []Particles {
	var out []Particles
	for _, p := range cur {
		i := slices.IndexFunc(prev, func(q Particles) bool { return q.Substance == p.Substance })
		if i < 0 || !sameParticles(prev[i], p) {
			out = append(out, p)
		}
	}
	for _, q := range prev {
		if !slices.ContainsFunc(cur, func(p Particles) bool { return p.Substance == q.Substance }) && !q.Null {
			out = append(out, Particles{Substance: q.Substance, Null: true})
		}
	}
	return out
}

func sameNum(a, b float64) bool { return a == b || math.IsNaN(a) && math.IsNaN(b) }

func sameParticles(a, b Particles) bool {
	return a.Substance == b.Substance && a.Null == b.Null && sameNum(a.Inside, b.Inside) &&
		sameNum(a.FillFraction, b.FillFraction) && sameNum(a.Covering, b.Covering) &&
		sameNum(a.Absorbed, b.Absorbed) && sameNum(a.AbsorbLimit, b.AbsorbLimit)
}

// FieldEqual reports whether a and b hold the same value of field f.
func FieldEqual(a, b *Object, f predicates.Field) bool {
	switch f {
	case predicates.FieldPosition:
		return a.Pos == b.Pos
	case predicates.FieldOrientation:
		return a.Quat == b.Quat
	case predicates.FieldAABB:
		return a.AABB == b.AABB
	case predicates.FieldOBB:
		return a.OBB == b.OBB
	case predicates.FieldTemperature:
		return a.Temperature == b.Temperature
	case predicates.FieldMaxTemperature:
		return a.MaxTemperature == b.MaxTemperature
	case predicates.FieldJoints:
		return slices.Equal(a.Joints, b.Joints)
	case predicates.FieldOpenFraction:
		return a.OpenFraction == b.OpenFraction
	case predicates.FieldToggledOn:
		return a.ToggledOn == b.ToggledOn
	case predicates.FieldSliced:
		return a.Sliced == b.Sliced
	case predicates.FieldBroken:
		return a.Broken == b.Broken
	case predicates.FieldContacts:
		return slices.Equal(a.Contacts, b.Contacts)
	case predicates.FieldAttachedTo:
		return a.AttachedTo == b.AttachedTo
	case predicates.FieldGraspedBy:
		return a.GraspedBy == b.GraspedBy
	case predicates.FieldRoom:
		return a.Room == b.Room
	case predicates.FieldParticles:
		return slices.EqualFunc(a.Particles, b.Particles, sameParticles)
	case predicates.FieldBoxError:
		return a.BoxError == b.BoxError
	case predicates.FieldCloth:
		return sameNum(a.Cloth.AreaRatio, b.Cloth.AreaRatio) && sameNum(a.Cloth.DiagonalRatio, b.Cloth.DiagonalRatio) &&
			sameNum(a.Cloth.Smoothness, b.Cloth.Smoothness)
	}
	return false
}

// CopyField sets field f of d to s's value (a copy of its slices).
func CopyField(d, s *Object, f predicates.Field) {
	switch f {
	case predicates.FieldExists:
		d.Exists = s.Exists
	case predicates.FieldPosition:
		d.Pos = s.Pos
	case predicates.FieldOrientation:
		d.Quat = s.Quat
	case predicates.FieldAABB:
		d.AABB = s.AABB
	case predicates.FieldOBB:
		d.OBB = s.OBB
	case predicates.FieldTemperature:
		d.Temperature = s.Temperature
	case predicates.FieldMaxTemperature:
		d.MaxTemperature = s.MaxTemperature
	case predicates.FieldJoints:
		d.Joints = slices.Clone(s.Joints)
	case predicates.FieldOpenFraction:
		d.OpenFraction = s.OpenFraction
	case predicates.FieldToggledOn:
		d.ToggledOn = s.ToggledOn
	case predicates.FieldSliced:
		d.Sliced = s.Sliced
	case predicates.FieldBroken:
		d.Broken = s.Broken
	case predicates.FieldContacts:
		d.Contacts = slices.Clone(s.Contacts)
	case predicates.FieldAttachedTo:
		d.AttachedTo = s.AttachedTo
	case predicates.FieldGraspedBy:
		d.GraspedBy = s.GraspedBy
	case predicates.FieldRoom:
		d.Room = s.Room
	case predicates.FieldParticles:
		d.Particles = slices.Clone(s.Particles)
	case predicates.FieldCloth:
		d.Cloth = s.Cloth
	case predicates.FieldBoxError:
		d.BoxError = s.BoxError
	}
}
