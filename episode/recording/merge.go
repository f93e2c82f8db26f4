package recording

import (
	"slices"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/predicates"
)

// mergeObject applies src's fields (values and nulls) over dst's: what
// several track samples between two steps record, the later winning.
func mergeObject(dst, src *episode.Object) {
	for f := predicates.Field(1); f != 0 && f <= predicates.FieldBoxError; f <<= 1 {
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

// copyField is episode.CopyField, but a particles record replaces only
// the substances it names.
func copyField(dst, src *episode.Object, f predicates.Field) {
	if f != predicates.FieldParticles {
		episode.CopyField(dst, src, f)
		return
	}
	for _, p := range src.Particles {
		i := slices.IndexFunc(dst.Particles, func(q episode.Particles) bool { return q.Substance == p.Substance })
		if i >= 0 {
			dst.Particles[i] = p
		} else {
			dst.Particles = append(dst.Particles, p)
		}
	}
}
