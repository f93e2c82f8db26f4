package view

import (
	"math"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/sampler"
)

// AddScene adds the furniture of a scene to the page: the scene file's
// (an OmniGibson *_template.json or *_template-partial_rooms.json), else
// the knowledge-base scene a sample was laid out in. Objects the episode
// records itself (the scene objects a sample bound to its instances) are
// left to the episode.
func (d *Episode) AddScene(base *kb.Base, file string) error {
	var sc *sampler.Scene
	switch {
	case file != "":
		s, err := sampler.ReadTemplate(base, file)
		if err != nil {
			return err
		}
		sc = s
	case d.scene != "":
		ks, ok := base.Scene(d.scene)
		if !ok {
			return nil // a sample from another knowledge base: nothing to add
		}
		sc = sampler.LayoutScene(base, ks)
	default:
		return nil
	}
	recorded := map[string]bool{}
	for _, o := range d.Objects {
		recorded[bddl.Fold(o.Name)] = true
	}
	d.Rooms = nil
	for _, r := range sc.Rooms {
		d.Rooms = append(d.Rooms, Room{Name: r.Name, Floor: [4]float64{r.Floor.Min[0], r.Floor.Min[1], r.Floor.Max[0], r.Floor.Max[1]}})
		for _, o := range r.Objects {
			if o.Kind == sampler.CeilingPart || o.Kind == sampler.FloorPart || o.Task || d.boundScene[o.Name] || recorded[o.Binding] {
				continue
			}
			d.Furniture = append(d.Furniture, Shape{Name: o.Name, Room: r.Name, Box: footprint(o.Box.Min, o.Box.Max, o.Yaw),
				Wall: o.Kind == sampler.WallPart})
		}
	}
	return nil
}

// footprint is a scene object's box as the page draws it: the oriented
// box inside its axis-aligned one when the yaw determines it (turned by
// a multiple of 90° the two are the same; near 45° the sizes cannot be
// told apart and the axis-aligned box is kept).
func footprint(lo, hi [3]float64, yaw float64) []float64 {
	c, s := math.Abs(math.Cos(yaw)), math.Abs(math.Sin(yaw))
	den := c*c - s*s
	if s < 1e-9 || c < 1e-9 || math.Abs(den) < 0.2 {
		return []float64{lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]}
	}
	ex, ey := (hi[0]-lo[0])/2, (hi[1]-lo[1])/2
	a, b := (ex*c-ey*s)/den, (ey*c-ex*s)/den
	if a <= 0 || b <= 0 {
		return []float64{lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]}
	}
	cx, cy := (lo[0]+hi[0])/2, (lo[1]+hi[1])/2
	cs, sn := math.Cos(yaw), math.Sin(yaw)
	out := make([]float64, 0, 24)
	for _, z := range []float64{lo[2], hi[2]} {
		for _, q := range [][2]float64{{-a, -b}, {a, -b}, {a, b}, {-a, b}} {
			out = append(out, cx+q[0]*cs-q[1]*sn, cy+q[0]*sn+q[1]*cs, z)
		}
	}
	return out
}
