package predicates

import "math"

// Box geometry for the approximations of SEMANTICS.md B §5.2. The
// reference casts rays against collision meshes; with only boxes recorded
// we cast the same rays against the boxes, which over-approximates for
// concave or holed objects. Every decision made here is reported as
// approximate.

// frame3 is an oriented box: centre, three unit axes and the half extents
// along them. An axis-aligned box has the identity axes.
type frame3 struct {
	c  [3]float64
	ax [3][3]float64
	h  [3]float64
}

func axisFrame(b Box) frame3 {
	return frame3{
		c:  b.Center(),
		ax: [3][3]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}},
		h:  [3]float64{(b.Max[0] - b.Min[0]) / 2, (b.Max[1] - b.Min[1]) / 2, (b.Max[2] - b.Min[2]) / 2},
	}
}

func sub(a, b [3]float64) [3]float64 { return [3]float64{a[0] - b[0], a[1] - b[1], a[2] - b[2]} }
func dot(a, b [3]float64) float64    { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }
func norm(a [3]float64) float64      { return math.Sqrt(dot(a, a)) }
func cross(a, b [3]float64) [3]float64 {
	return [3]float64{a[1]*b[2] - a[2]*b[1], a[2]*b[0] - a[0]*b[2], a[0]*b[1] - a[1]*b[0]}
}
func scale(a [3]float64, k float64) [3]float64 { return [3]float64{a[0] * k, a[1] * k, a[2] * k} }

const geomEps = 1e-9

// obbFrame derives the frame of an oriented box from its corners (0–3 the
// bottom face, 4–7 the top face). The bottom face's corner order is not
// trusted: of the three vectors from corner 0 to the others, the longest
// is the diagonal and the other two are the edges.
func obbFrame(c *OBB) (frame3, bool) {
	var f frame3
	var bottom, top [3]float64
	for i := 0; i < 8; i++ {
		for k := 0; k < 3; k++ {
			v := c[i][k]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return f, false
			}
			f.c[k] += v / 8
			if i < 4 {
				bottom[k] += v / 4
			} else {
				top[k] += v / 4
			}
		}
	}
	v := [3][3]float64{sub(c[1], c[0]), sub(c[2], c[0]), sub(c[3], c[0])}
	diag := 0
	for i := 1; i < 3; i++ {
		if norm(v[i]) > norm(v[diag]) {
			diag = i
		}
	}
	var edges [2][3]float64
	n := 0
	for i := 0; i < 3; i++ {
		if i != diag {
			edges[n] = v[i]
			n++
		}
	}
	e1, e2, w := edges[0], edges[1], sub(top, bottom)
	l1, l2, lw := norm(e1), norm(e2), norm(w)
	if l1 < geomEps || l2 < geomEps {
		return f, false
	}
	f.ax[0], f.ax[1] = scale(e1, 1/l1), scale(e2, 1/l2)
	if lw < geomEps {
		// A flat box (a cloth lying down): its third axis is the normal.
		n := cross(f.ax[0], f.ax[1])
		f.ax[2] = scale(n, 1/norm(n))
	} else {
		f.ax[2] = scale(w, 1/lw)
	}
	f.h = [3]float64{l1 / 2, l2 / 2, lw / 2}
	return f, true
}

// enclosing is the axis-aligned box around the frame.
func (f frame3) enclosing() Box {
	var b Box
	for k := 0; k < 3; k++ {
		r := 0.0
		for i := 0; i < 3; i++ {
			r += math.Abs(f.ax[i][k]) * f.h[i]
		}
		b.Min[k], b.Max[k] = f.c[k]-r, f.c[k]+r
	}
	return b
}

// box returns the object's axis-aligned box: the recorded AABB, else the
// box around its recorded OBB.
func (s *State) box(id ObjectID) (Box, bool) {
	if uint(id) >= uint(s.nObj) {
		return Box{}, false
	}
	o := &s.obj[id]
	switch {
	case o.has&FieldAABB != 0:
		return o.aabb, true
	case o.has&FieldOBB != 0:
		return o.obbBox, true
	}
	return Box{}, false
}

// frame returns the object's tightest box as a frame: its OBB when
// recorded, else its AABB.
func (s *State) frame(id ObjectID) (frame3, bool) {
	if uint(id) >= uint(s.nObj) {
		return frame3{}, false
	}
	o := &s.obj[id]
	switch {
	case o.has&FieldOBB != 0:
		return o.obb, true
	case o.has&FieldAABB != 0:
		return axisFrame(o.aabb), true
	}
	return frame3{}, false
}

// center is where the object's rays start: its box centre, else its
// recorded position.
func (s *State) center(id ObjectID) ([3]float64, bool) {
	if uint(id) >= uint(s.nObj) {
		return [3]float64{}, false
	}
	o := &s.obj[id]
	switch {
	case o.has&FieldOBB != 0:
		return o.obb.c, true
	case o.has&FieldAABB != 0:
		return o.aabb.Center(), true
	case o.has&FieldPosition != 0:
		return o.pos, true
	}
	return [3]float64{}, false
}

// rayHits reports whether the segment from o along the unit direction d,
// of the given length, meets the box (slab test in the box's frame). A
// segment that starts inside the box meets it.
func (f *frame3) rayHits(o, d [3]float64, length float64) bool {
	rel := sub(o, f.c)
	tmin, tmax := 0.0, length
	for k := 0; k < 3; k++ {
		ok, dk := dot(rel, f.ax[k]), dot(d, f.ax[k])
		h := f.h[k] + geomEps
		if math.Abs(dk) < 1e-12 {
			if ok < -h || ok > h {
				return false
			}
			continue
		}
		t1, t2 := (-h-ok)/dk, (h-ok)/dk
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		tmin, tmax = max(tmin, t1), min(tmax, t2)
		if tmin > tmax {
			return false
		}
	}
	return true
}

// contains reports whether p lies in the box (boundary included).
func (f *frame3) contains(p [3]float64) bool {
	rel := sub(p, f.c)
	for k := 0; k < 3; k++ {
		if math.Abs(dot(rel, f.ax[k])) > f.h[k]+geomEps {
			return false
		}
	}
	return true
}

// boxGap is the Euclidean distance between two axis-aligned boxes (0 when
// they overlap): the norm of the per-axis gaps (SEMANTICS.md B §1.3.6).
func boxGap(a, b Box) float64 {
	var g [3]float64
	for k := 0; k < 3; k++ {
		g[k] = max(0, max(a.Min[k], b.Min[k])-min(a.Max[k], b.Max[k]))
	}
	return norm(g)
}

// separatingAxes are the 15 axes of the separating axis test of two
// oriented boxes (each one's faces, and the cross products of their
// edges), and the line between their centres, which tightens the bound
// when the boxes face each other edge to edge or corner to corner.
func separatingAxes(a, b *frame3) (axes [16][3]float64) {
	k := 0
	for i := 0; i < 3; i++ {
		axes[k], axes[k+1] = a.ax[i], b.ax[i]
		k += 2
		for j := 0; j < 3; j++ {
			axes[k] = cross(a.ax[i], b.ax[j])
			k++
		}
	}
	axes[k] = sub(b.c, a.c)
	return axes
}

// separation is a lower bound on the distance between two oriented
// boxes: the largest gap between their projections on the 15 axes of the
// separating axis test and on the line between their centres. It is 0
// exactly when the boxes intersect, and the exact distance whenever the
// closest features are faces or lie on the line between the centres.
func separation(a, b *frame3) float64 {
	axes := separatingAxes(a, b)
	d := sub(b.c, a.c)
	best := 0.0
	for _, axis := range axes {
		l2 := dot(axis, axis)
		if l2 < 1e-18 {
			continue
		}
		inv := 1 / math.Sqrt(l2)
		ra, rb := 0.0, 0.0
		for i := 0; i < 3; i++ {
			ra += math.Abs(dot(a.ax[i], axis)) * a.h[i]
			rb += math.Abs(dot(b.ax[i], axis)) * b.h[i]
		}
		if gap := (math.Abs(dot(d, axis)) - ra - rb) * inv; gap > best {
			best = gap
		}
	}
	return best
}

// boxDistance is the distance between two objects' boxes: exact for two
// axis-aligned boxes, the separating-axis bound when either is oriented.
func (s *State) boxDistance(a, b ObjectID) (float64, bool) {
	oa, ob := &s.obj[a], &s.obj[b]
	if oa.has&FieldOBB == 0 && ob.has&FieldOBB == 0 {
		ba, okA := s.box(a)
		bb, okB := s.box(b)
		if !okA || !okB {
			return 0, false
		}
		return boxGap(ba, bb), true
	}
	fa, okA := s.frame(a)
	fb, okB := s.frame(b)
	if !okA || !okB {
		return 0, false
	}
	return separation(&fa, &fb), true
}

var (
	up   = [3]float64{0, 0, 1}
	down = [3]float64{0, 0, -1}
)

// vertical reports whether b's box is hit by the vertical ray from a's
// centre going up (dir = up) or down, within the given range: the
// approximation of the reference's up(A) / down(A) sets.
func (s *State) vertical(a, b ObjectID, dir [3]float64, rng float64) (hit, ok bool) {
	ca, okA := s.center(a)
	if !okA || uint(b) >= uint(s.nObj) {
		return false, false
	}
	if ob := &s.obj[b]; ob.has&FieldOBB == 0 && ob.has&FieldAABB != 0 {
		// Axis-aligned: the line must cross the footprint, and the
		// segment's z-range meet the box's.
		bb := &ob.aabb
		if ca[0] < bb.Min[0]-geomEps || ca[0] > bb.Max[0]+geomEps || ca[1] < bb.Min[1]-geomEps || ca[1] > bb.Max[1]+geomEps {
			return false, true
		}
		lo, hi := ca[2], ca[2]+rng
		if dir[2] < 0 {
			lo, hi = ca[2]-rng, ca[2]
		}
		return bb.Max[2] >= lo-geomEps && bb.Min[2] <= hi+geomEps, true
	}
	fb, okB := s.frame(b)
	if !okB {
		return false, false
	}
	return fb.rayHits(ca, dir, rng), true
}

// horizontal reports whether some horizontal ray from a's centre hits b's
// box within the range.
func (s *State) horizontal(a, b ObjectID, dirs [][3]float64, rng float64) (hit, ok bool) {
	ca, okA := s.center(a)
	if !okA || uint(b) >= uint(s.nObj) {
		return false, false
	}
	if ob := &s.obj[b]; ob.has&FieldOBB == 0 && ob.has&FieldAABB != 0 {
		bb := &ob.aabb
		if ca[2] < bb.Min[2]-geomEps || ca[2] > bb.Max[2]+geomEps {
			return false, true // no horizontal ray reaches the box's height
		}
		for _, d := range dirs {
			if rayHitsRect(bb, ca, d, rng) {
				return true, true
			}
		}
		return false, true
	}
	fb, okB := s.frame(b)
	if !okB {
		return false, false
	}
	for _, d := range dirs {
		if fb.rayHits(ca, d, rng) {
			return true, true
		}
	}
	return false, true
}

// rayHitsRect is the slab test of a horizontal segment against an
// axis-aligned box's footprint.
func rayHitsRect(b *Box, o, d [3]float64, length float64) bool {
	tmin, tmax := 0.0, length
	for k := 0; k < 2; k++ {
		lo, hi := b.Min[k]-geomEps, b.Max[k]+geomEps
		if math.Abs(d[k]) < 1e-12 {
			if o[k] < lo || o[k] > hi {
				return false
			}
			continue
		}
		t1, t2 := (lo-o[k])/d[k], (hi-o[k])/d[k]
		if t1 > t2 {
			t1, t2 = t2, t1
		}
		tmin, tmax = max(tmin, t1), min(tmax, t2)
		if tmin > tmax {
			return false
		}
	}
	return true
}

// horizontalDirs returns n unit directions evenly spaced in the xy plane,
// starting along +x.
func horizontalDirs(n int) [][3]float64 {
	dirs := make([][3]float64, n)
	for k := range dirs {
		th := 2 * math.Pi * float64(k) / float64(n)
		dirs[k] = [3]float64{math.Cos(th), math.Sin(th), 0}
	}
	return dirs
}

// footprintOverlap is the area of the intersection of two boxes'
// footprints in the xy plane.
func footprintOverlap(a, b Box) float64 {
	w := min(a.Max[0], b.Max[0]) - max(a.Min[0], b.Min[0])
	d := min(a.Max[1], b.Max[1]) - max(a.Min[1], b.Min[1])
	if w <= 0 || d <= 0 {
		return 0
	}
	return w * d
}
