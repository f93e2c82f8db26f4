package omnigibson

import (
	"math"
	"slices"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/predicates"
)

// Particle records from particle positions (SEMANTICS.md B §1.5).
//
// Visual systems: a particle belongs to the object whose attachment group
// holds it, so an object's covering count is its group's size (exact, as
// the simulator decides covered). Physical systems: a particle is inside
// a container when it lies in the container's box, and covers an object
// when it lies within contact distance of the object's box; the
// simulator tests the container's fillable volume and the collision mesh
// instead, so both are approximate. The fill fraction the simulator
// computes is n · (2r)³ / V with r the particle radius and V the
// fillable volume, neither of which the files give; settled particles
// fill a container from its bottom up, so the share of the container's
// height they reach stands for it (fillFraction), with the particle
// radius taken as half their median nearest-neighbour spacing (settled
// particles touch).

// contactTolerance is the reference's CONTACT_TOLERANCE: a particle
// touches an object within its radius plus this of the object's surface.
// maxParticleRadius caps the radius estimated from particle spacing, which
// particles scattered over a surface (not touching) overstate; it is the
// reference's broad-phase margin (CONTACT_AABB_TOLERANCE).
const (
	contactTolerance  = 0.005
	maxParticleRadius = 0.025
)

func (c *Converter) particles(h *episode.Header, items []sceneItem, index map[string]int, systems map[string]*System, approx map[string]approxKind) {
	if len(systems) == 0 {
		return
	}
	subs := make([]string, 0, len(systems))
	for k := range systems {
		subs = append(subs, k)
	}
	slices.Sort(subs)
	for _, sk := range subs {
		s := systems[sk]
		var spacing float64
		if !s.Visual() {
			spacing = medianSpacing(s.Positions)
		}
		for k, o := range h.Objects {
			if !o.Exists || c.agents[k] {
				continue
			}
			i, ok := index[c.binding[k]]
			if !ok {
				continue
			}
			it := &items[i]
			p := episode.Particles{Substance: sk, Particles: predicates.NoParticles}
			c.saturation(&p, &it.state, c.binding[sk], s)
			if s.N() == 0 {
				// A loaded system without particles: nothing is inside,
				// covered or filled.
				p.Inside, p.Covering = 0, 0
			} else if s.Visual() {
				p.Covering = float64(s.Groups[it.obj.Name])
			} else if it.hasBox {
				inside, cover := 0, 0
				top := math.Inf(-1)
				container := it.container
				for _, q := range s.Positions {
					v := vec(q)
					if container && it.box.Contains(v, 0) {
						inside++
						top = max(top, v.Z)
					}
					if it.box.Contains(v, min(spacing/2, maxParticleRadius)+contactTolerance) {
						cover++
					}
				}
				p.Inside, p.Covering = float64(inside), float64(cover)
				if container {
					p.FillFraction = 0
					if inside > 0 {
						p.FillFraction = fillFraction(min(spacing, 2*maxParticleRadius), top, &it.box)
					}
				}
				approx[k] |= approxParticles
			}
			if !recorded(&p.Particles) {
				continue
			}
			o.Set |= predicates.FieldParticles
			o.Particles = append(o.Particles, p)
		}
	}
}

func recorded(p *predicates.Particles) bool {
	for _, v := range []float64{p.Inside, p.FillFraction, p.Covering, p.Absorbed, p.AbsorbLimit} {
		if !math.IsNaN(v) {
			return true
		}
	}
	return false
}

// saturation records how many particles of the system the object has
// absorbed and its limit, when it has the states (particle removers).
func (c *Converter) saturation(p *episode.Particles, st *ObjectState, system string, s *System) {
	if st.Modified == nil {
		return
	}
	p.Absorbed = st.Modified[system]
	switch lim, ok := st.Limits[system]; {
	case ok:
		p.AbsorbLimit = lim
	case !math.IsNaN(st.DefaultLimit):
		p.AbsorbLimit = st.DefaultLimit
	case s.Visual() && !math.IsNaN(st.DefaultVisual):
		p.AbsorbLimit = st.DefaultVisual
	case !s.Visual() && !math.IsNaN(st.DefaultPhysical):
		p.AbsorbLimit = st.DefaultPhysical
	}
}

// fillFraction estimates the filled share of the container as the level
// the particles reach: for a container shaped as a prism, the volume below
// a level is that level's share of its height. The level is the highest
// particle inside plus its radius, measured from the box's bottom.
func fillFraction(spacing float64, hiZ float64, box *Box) float64 {
	lo, hi := box.Enclosing()
	h := hi.Z - lo.Z
	if h <= 0 {
		return math.NaN()
	}
	return max(0, min(1, (hiZ+spacing/2-lo.Z)/h))
}

// medianSpacing is the median distance from a particle to its nearest
// neighbour, on a uniform grid of cells so that it stays near linear.
func medianSpacing(ps [][3]float64) float64 {
	n := len(ps)
	if n < 2 {
		return 0
	}
	lo, hi := ps[0], ps[0]
	for _, p := range ps {
		for k := 0; k < 3; k++ {
			lo[k], hi[k] = min(lo[k], p[k]), max(hi[k], p[k])
		}
	}
	vol := 1.0
	for k := 0; k < 3; k++ {
		vol *= max(hi[k]-lo[k], 1e-6)
	}
	cell := max(math.Cbrt(vol/float64(n))*2, 1e-4)
	type key [3]int
	grid := map[key][]int{}
	at := func(p [3]float64) key {
		return key{int((p[0] - lo[0]) / cell), int((p[1] - lo[1]) / cell), int((p[2] - lo[2]) / cell)}
	}
	for i, p := range ps {
		grid[at(p)] = append(grid[at(p)], i)
	}
	d := make([]float64, 0, n)
	for i, p := range ps {
		c := at(p)
		best := math.Inf(1)
		for r := 1; r <= 3 && math.IsInf(best, 1); r++ {
			for dx := -r; dx <= r; dx++ {
				for dy := -r; dy <= r; dy++ {
					for dz := -r; dz <= r; dz++ {
						for _, j := range grid[key{c[0] + dx, c[1] + dy, c[2] + dz}] {
							if j == i {
								continue
							}
							q := ps[j]
							dd := (p[0]-q[0])*(p[0]-q[0]) + (p[1]-q[1])*(p[1]-q[1]) + (p[2]-q[2])*(p[2]-q[2])
							best = min(best, dd)
						}
					}
				}
			}
		}
		if !math.IsInf(best, 1) {
			d = append(d, math.Sqrt(best))
		}
	}
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}
