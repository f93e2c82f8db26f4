package predicates

import "math"

// Three-valued geometry on estimated boxes.
//
// A box recorded with an error (State.SetBoxError) may lie up to errH
// off along x and along y and errV off along z. For two boxes a and b
// only their relative placement matters, so a is taken to move by δ with
// |δx|, |δy| ≤ uh = errH(a)+errH(b) and |δz| ≤ uv = errV(a)+errV(b),
// and b to stay. Each test a predicate is built of (a separation against
// a tolerance, a ray meeting a box, a point in a box, two heights) is
// True when it holds for every such δ, False when it holds for none, and
// Unknown otherwise; the predicate combines its tests over every
// combination of their possible values, so it is decided only when its
// decision margin exceeds the uncertainty. With no error recorded (or
// Geometry.IgnoreError) every test is today's two-valued one.

// pairError is the bound on the relative displacement of two boxes.
func (p *Program) pairError(s *State, a, b ObjectID) (uh, uv float64) {
	if p.opts.Geometry.IgnoreError {
		return 0, 0
	}
	ha, va := s.BoxError(a)
	hb, vb := s.BoxError(b)
	return ha + hb, va + vb
}

// reach is how far a displacement within (uh, uv) can move a point along
// the unit axis ax.
func reach(ax [3]float64, uh, uv float64) float64 {
	return uh*(math.Abs(ax[0])+math.Abs(ax[1])) + uv*math.Abs(ax[2])
}

// resized is f grown (sign +1) or shrunk (-1) along each of its axes by
// how far a displacement within (uh, uv) reaches along it; ok is false
// when a shrunk box vanishes.
func resized(f frame3, uh, uv, sign float64) (frame3, bool) {
	for k := 0; k < 3; k++ {
		f.h[k] += sign * reach(f.ax[k], uh, uv)
		if f.h[k] < 0 {
			return f, false
		}
	}
	return f, true
}

// between is the value of a test that holds for every displacement
// (sure) or for some (possible).
func between(sure, possible bool) Truth {
	switch {
	case sure:
		return True
	case !possible:
		return False
	}
	return Unknown
}

// margin is the value of "m ≥ 0" when m may be off by u.
func margin(m, u float64) Truth {
	return between(m-u >= 0, m+u >= 0)
}

// separationBounds bounds the separation (as separation measures it)
// between a displaced by δ and b, over every δ within (uh, uv).
func separationBounds(a, b *frame3, uh, uv float64) (lo, hi float64) {
	axes := separatingAxes(a, b)
	d := sub(b.c, a.c)
	for _, axis := range axes {
		l2 := dot(axis, axis)
		if l2 < 1e-18 {
			continue
		}
		inv := 1 / math.Sqrt(l2)
		n := scale(axis, inv)
		ra, rb := 0.0, 0.0
		for i := 0; i < 3; i++ {
			ra += math.Abs(dot(a.ax[i], n)) * a.h[i]
			rb += math.Abs(dot(b.ax[i], n)) * b.h[i]
		}
		proj, w := math.Abs(dot(d, n)), reach(n, uh, uv)
		lo = max(lo, max(proj-w, 0)-ra-rb)
		hi = max(hi, proj+w-ra-rb)
	}
	return lo, hi
}

// gapBounds bounds the distance between two axis-aligned boxes, a
// displaced by δ within (uh, uv).
func gapBounds(a, b Box, uh, uv float64) (lo, hi float64) {
	var gl, gh [3]float64
	ca, cb, ea, eb := a.Center(), b.Center(), a.Extent(), b.Extent()
	for k := 0; k < 3; k++ {
		u := uh
		if k == 2 {
			u = uv
		}
		dc, r := math.Abs(ca[k]-cb[k]), (ea[k]+eb[k])/2
		gl[k] = max(0, max(dc-u, 0)-r)
		gh[k] = max(0, dc+u-r)
	}
	return norm(gl), norm(gh)
}

// touchingT is touching(a, b) by box separation, three-valued.
func touchingT(p *Program, s *State, a, b ObjectID) Truth {
	uh, uv := p.pairError(s, a, b)
	tol := p.opts.Geometry.TouchTolerance
	if uh == 0 && uv == 0 {
		d, ok := s.boxDistance(a, b)
		if !ok {
			return Unknown
		}
		return TruthOf(d <= tol)
	}
	oa, ob := &s.obj[a], &s.obj[b]
	var lo, hi float64
	if oa.has&FieldOBB == 0 && ob.has&FieldOBB == 0 {
		ba, okA := s.box(a)
		bb, okB := s.box(b)
		if !okA || !okB {
			return Unknown
		}
		lo, hi = gapBounds(ba, bb, uh, uv)
	} else {
		fa, okA := s.frame(a)
		fb, okB := s.frame(b)
		if !okA || !okB {
			return Unknown
		}
		lo, hi = separationBounds(&fa, &fb, uh, uv)
	}
	return between(hi <= tol, lo <= tol)
}

// verticalT is vertical(a, b, dir), three-valued: the ray from a's
// displaced centre meets b's box for every displacement when it meets
// b's box shrunk by their reach, for none when it misses it grown.
func verticalT(p *Program, s *State, a, b ObjectID, dir [3]float64, uh, uv float64) (Truth, bool) {
	if uh == 0 && uv == 0 {
		hit, ok := s.vertical(a, b, dir, p.opts.Geometry.VerticalRange)
		return TruthOf(hit), ok
	}
	ca, okA := s.center(a)
	fb, okB := s.frame(b)
	if !okA || !okB {
		return Unknown, false
	}
	return rayT(fb, ca, dir, p.opts.Geometry.VerticalRange, uh, uv), true
}

// rayT is whether the segment from o meets f when o may be displaced
// within (uh, uv).
func rayT(f frame3, o, dir [3]float64, length, uh, uv float64) Truth {
	sure := false
	if in, ok := resized(f, uh, uv, -1); ok {
		sure = in.rayHits(o, dir, length)
	}
	out, _ := resized(f, uh, uv, 1)
	return between(sure, out.rayHits(o, dir, length))
}

// containsT is whether p, displaced within (uh, uv), lies in f.
func containsT(f frame3, pt [3]float64, uh, uv float64) Truth {
	sure := false
	if in, ok := resized(f, uh, uv, -1); ok {
		sure = in.contains(pt)
	}
	out, _ := resized(f, uh, uv, 1)
	return between(sure, out.contains(pt))
}

// overTruths enumerates the values a tuple of three-valued tests can take:
// every combination of True and False, an Unknown test taking both.
// f is called for each; the result is True (False) when every call
// returns true (false), else Unknown.
func overTruths(ts []Truth, f func(v []bool) bool) Truth {
	var buf [8]bool
	v := buf[:len(ts)]
	seenT, seenF := false, false
	n := 1 << len(ts)
	for m := 0; m < n; m++ {
		skip := false
		for i, t := range ts {
			bit := m>>i&1 == 1
			if t == True && !bit || t == False && bit {
				skip = true
				break
			}
			v[i] = bit
		}
		if skip {
			continue
		}
		if f(v) {
			seenT = true
		} else {
			seenF = true
		}
		if seenT && seenF {
			return Unknown
		}
	}
	return between(seenT && !seenF, seenT)
}
