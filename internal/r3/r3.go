// Package r3 is the part of gonum's spatial/r3 that bddl uses: 3-vectors
// and rotations by a quaternion, with gonum's arithmetic, operation for
// operation, so that results are bit-identical to it.
//
// gonum's r3 also defines 3×3 matrices on gonum/mat, which brings in its
// BLAS and LAPACK: about 1.3 MB of the bddl binary for a few vector
// additions (docs/release.md, Size). The quaternion arithmetic stays
// gonum's num/quat, which is small.
package r3

import (
	"math"

	"gonum.org/v1/gonum/num/quat"
)

// Vec is a 3D vector.
type Vec struct {
	X, Y, Z float64
}

// Add returns the vector sum of p and q.
func Add(p, q Vec) Vec { return Vec{X: p.X + q.X, Y: p.Y + q.Y, Z: p.Z + q.Z} }

// Sub returns the vector sum of p and -q.
func Sub(p, q Vec) Vec { return Vec{X: p.X - q.X, Y: p.Y - q.Y, Z: p.Z - q.Z} }

// Scale returns the vector p scaled by f.
func Scale(f float64, p Vec) Vec { return Vec{X: f * p.X, Y: f * p.Y, Z: f * p.Z} }

// Dot returns the dot product p·q.
func Dot(p, q Vec) float64 { return p.X*q.X + p.Y*q.Y + p.Z*q.Z }

// Rotation describes a rotation in space.
type Rotation quat.Number

// NewRotation creates a rotation by alpha, around axis.
func NewRotation(alpha float64, axis Vec) Rotation {
	if alpha == 0 {
		return Rotation{Real: 1}
	}
	q := raise(axis)
	sin, cos := math.Sincos(0.5 * alpha)
	q = quat.Scale(sin/quat.Abs(q), q)
	q.Real += cos
	if n := quat.Abs(q); n != 1 {
		q = quat.Scale(1/n, q)
	}
	return Rotation(q)
}

// Rotate returns p rotated.
func (r Rotation) Rotate(p Vec) Vec {
	if r == (Rotation{Real: 1}) {
		return p
	}
	qq := quat.Number(r)
	pp := quat.Mul(quat.Mul(qq, raise(p)), quat.Conj(qq))
	return Vec{X: pp.Imag, Y: pp.Jmag, Z: pp.Kmag}
}

func raise(p Vec) quat.Number { return quat.Number{Imag: p.X, Jmag: p.Y, Kmag: p.Z} }
