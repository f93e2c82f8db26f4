package recording

import (
	"slices"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/predicates"
)

// mergeObject applies src's fields (values and nulls) over dst's: what
// several track samples between two steps record, the later winning.
func mergeObject(dst, src *episode.Object) {
	for f := predicates.Field(1); f != 0 && f <= predicates.FieldCloth; f <<= 1 {
		switch {
		case src.Set&f != 0:
			copyField(dst, src, f)
			dst.Set |= f
			dst.Null &^= f
		case src.Null&f != 0:
			dst.Null |= f
			dst.Set &^= f
		}
	}
}

func copyField(dst, src *episode.Object, f predicates.Field) {
	switch f {
	case predicates.FieldExists:
		dst.Exists = src.Exists
	case predicates.FieldPosition:
		dst.Pos = src.Pos
	case predicates.FieldOrientation:
		dst.Quat = src.Quat
	case predicates.FieldAABB:
		dst.AABB = src.AABB
	case predicates.FieldOBB:
		dst.OBB = src.OBB
	case predicates.FieldTemperature:
		dst.Temperature = src.Temperature
	case predicates.FieldMaxTemperature:
		dst.MaxTemperature = src.MaxTemperature
	case predicates.FieldJoints:
		dst.Joints = slices.Clone(src.Joints)
	case predicates.FieldOpenFraction:
		dst.OpenFraction = src.OpenFraction
	case predicates.FieldToggledOn:
		dst.ToggledOn = src.ToggledOn
	case predicates.FieldSliced:
		dst.Sliced = src.Sliced
	case predicates.FieldBroken:
		dst.Broken = src.Broken
	case predicates.FieldContacts:
		dst.Contacts = slices.Clone(src.Contacts)
	case predicates.FieldAttachedTo:
		dst.AttachedTo = src.AttachedTo
	case predicates.FieldGraspedBy:
		dst.GraspedBy = src.GraspedBy
	case predicates.FieldRoom:
		dst.Room = src.Room
	case predicates.FieldParticles:
		// a substance's record replaces that substance's only
		for _, p := range src.Particles {
			i := slices.IndexFunc(dst.Particles, func(q episode.Particles) bool { return q.Substance == p.Substance })
			if i >= 0 {
				dst.Particles[i] = p
			} else {
				dst.Particles = append(dst.Particles, p)
			}
		}
	case predicates.FieldCloth:
		dst.Cloth = src.Cloth
	}
}
