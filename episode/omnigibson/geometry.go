package omnigibson

import (
	"math"

	"gonum.org/v1/gonum/num/quat"

	"github.com/openbddl/bddl/internal/r3"
	"github.com/openbddl/bddl/predicates"
)

// Box is an oriented box: its centre, its half extents along its own
// axes, and the rotation from its frame to the world (x, y, z, w).
type Box struct {
	Center r3.Vec
	Half   r3.Vec
	Quat   [4]float64
	// Axes are the box's unit axes in the world (the rotation's columns).
	Axes [3]r3.Vec
}

// NewBox makes the box of the given centre, half extents and rotation.
func NewBox(center, half r3.Vec, q [4]float64) Box {
	return Box{Center: center, Half: half, Quat: q,
		Axes: [3]r3.Vec{rotate(q, r3.Vec{X: 1}), rotate(q, r3.Vec{Y: 1}), rotate(q, r3.Vec{Z: 1})}}
}

// rotate applies the rotation q (x, y, z, w) to v.
func rotate(q [4]float64, v r3.Vec) r3.Vec {
	n := quat.Number{Real: q[3], Imag: q[0], Jmag: q[1], Kmag: q[2]}
	p := quat.Mul(quat.Mul(n, quat.Number{Imag: v.X, Jmag: v.Y, Kmag: v.Z}), quat.Conj(n))
	return r3.Vec{X: p.Imag, Y: p.Jmag, Z: p.Kmag}
}

// Corners returns the 8 corners in the episode format's order: 0–3 the
// bottom face (local −z) around it, 4–7 the top face, 4+i above i.
func (b *Box) Corners() predicates.OBB {
	ax := &b.Axes
	var c predicates.OBB
	signs := [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
	for i, s := range signs {
		for top := 0; top < 2; top++ {
			sz := -1.0
			if top == 1 {
				sz = 1
			}
			v := r3.Add(b.Center, r3.Add(r3.Scale(s[0]*b.Half.X, ax[0]), r3.Add(r3.Scale(s[1]*b.Half.Y, ax[1]), r3.Scale(sz*b.Half.Z, ax[2]))))
			c[i+4*top] = [3]float64{v.X, v.Y, v.Z}
		}
	}
	return c
}

// VerticalHalf is the half height of the box's world-aligned enclosure.
func (b *Box) VerticalHalf() float64 {
	ax := &b.Axes
	return math.Abs(ax[0].Z)*b.Half.X + math.Abs(ax[1].Z)*b.Half.Y + math.Abs(ax[2].Z)*b.Half.Z
}

// Enclosing returns the world-aligned box around the box.
func (b *Box) Enclosing() (lo, hi r3.Vec) {
	ax := &b.Axes
	var r [3]float64
	h := [3]float64{b.Half.X, b.Half.Y, b.Half.Z}
	for i := 0; i < 3; i++ {
		a := [3]float64{ax[i].X, ax[i].Y, ax[i].Z}
		for k := 0; k < 3; k++ {
			r[k] += math.Abs(a[k]) * h[i]
		}
	}
	rv := r3.Vec{X: r[0], Y: r[1], Z: r[2]}
	return r3.Sub(b.Center, rv), r3.Add(b.Center, rv)
}

// Contains reports whether p lies in the box grown by margin on every side.
func (b *Box) Contains(p r3.Vec, margin float64) bool {
	ax := &b.Axes
	d := r3.Sub(p, b.Center)
	return math.Abs(r3.Dot(d, ax[0])) <= b.Half.X+margin &&
		math.Abs(r3.Dot(d, ax[1])) <= b.Half.Y+margin &&
		math.Abs(r3.Dot(d, ax[2])) <= b.Half.Z+margin
}

// Volume is the box's volume.
func (b *Box) Volume() float64 { return 8 * b.Half.X * b.Half.Y * b.Half.Z }

func vec(a [3]float64) r3.Vec { return r3.Vec{X: a[0], Y: a[1], Z: a[2]} }
