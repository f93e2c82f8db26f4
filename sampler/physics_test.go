package sampler

import (
	"fmt"
	"math"
	"sort"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// An independent physical checker for sampled configurations: what a
// physics engine would object to when loading the scene, measured on the
// written boxes only. It shares no code with the sampler's placement (it
// reads Result.Objects and the scene's rooms), so a sampler bug cannot
// hide itself.
//
// Rules (the issue's acceptance thresholds):
//   - contained: an object inside a container lies within the container's
//     box, within physContainTol, whenever its size fits in that box;
//   - supported: a rigid object on top of a support (not the floor) has at
//     least physSupportRatio of its footprint over the support's;
//   - no overlap: no sampled object (task objects the sampler placed)
//     penetrates any object of the scene (every room's furniture, doors,
//     windows, other task objects) deeper than physOverlapTol, except the
//     containers it is (transitively) in, the cloth it lies under or over
//     and the object it is attached to; scene objects whose own boxes cut
//     into the container (a sink set in a counter) are exempt for objects
//     inside that container, as the real meshes have a hole there;
//   - in its room: every sampled footprint lies within its room's floor
//     rectangle (physRoomTol), except draped cloth and attached items.
const (
	physContainTol   = 0.02
	physSupportRatio = 0.8
	physOverlapTol   = 0.005
	physRoomTol      = 0.01
)

// physIssue is one violation.
type physIssue struct {
	Rule   string // contained, supported, overlap, room
	Object string
	Other  string
	Amount float64 // metres past the limit, or the footprint ratio
}

func (p physIssue) String() string {
	return fmt.Sprintf("%s: %s / %s (%.3f)", p.Rule, p.Object, p.Other, p.Amount)
}

// physStats counts what was checked, per rule.
type physStats struct {
	Files, BadFiles                      int
	Inside, InsideFit, Protruding, Unfit int
	OnTop, Unsupported                   int
	Placed, Overlapping, OutOfRoom       int
	Shrunk                               int
	furnitureZ                           []float64 // height above the floor of objects on furniture
	byParent                             map[string][]float64
	byRule                               map[string]int
	examples                             map[string][]string
}

func (s *physStats) add(res *Result, base *kb.Base) []physIssue {
	iss, heights, counts := physCheck(res, base)
	if s.byRule == nil {
		s.byRule, s.examples = map[string]int{}, map[string][]string{}
	}
	if s.byParent == nil {
		s.byParent = map[string][]float64{}
	}
	k := 0
	for _, o := range res.Objects {
		if k < len(heights) && o.Placed && o.SceneObject == "" && o.Parent != "" && isFurnitureChild(res, base, &o) {
			syn := ""
			for _, q := range res.Objects {
				if q.Name == o.Parent {
					syn = q.Synset
				}
			}
			s.byParent[syn] = append(s.byParent[syn], heights[k])
			k++
		}
	}
	s.Files++
	if len(iss) > 0 {
		s.BadFiles++
	}
	s.Inside += counts[0]
	s.InsideFit += counts[1]
	s.OnTop += counts[2]
	s.Placed += counts[3]
	s.Unfit += counts[1+3]
	s.Shrunk += counts[5]
	s.furnitureZ = append(s.furnitureZ, heights...)
	for _, sh := range res.Shrunk() {
		s.byRule["shrunk"]++
		if len(s.examples["shrunk"]) < 6 {
			s.examples["shrunk"] = append(s.examples["shrunk"], fmt.Sprintf("%s@%s: %s ×%.1f (%s %s)", res.Activity, res.Scene, sh.Object, sh.Factor, relationOf(res, sh.Object), parentOf(res, sh.Object)))
		}
	}
	seen := map[string]bool{}
	for _, is := range iss {
		k := is.Rule + "|" + is.Object
		if seen[k] {
			continue
		}
		seen[k] = true
		switch is.Rule {
		case "contained":
			s.Protruding++
		case "supported":
			s.Unsupported++
		case "overlap":
			s.Overlapping++
		case "room":
			s.OutOfRoom++
		}
		s.byRule[is.Rule]++
		if len(s.examples[is.Rule]) < 4 {
			s.examples[is.Rule] = append(s.examples[is.Rule], res.Activity+"@"+res.Scene+": "+is.String())
		}
	}
	return iss
}

func pct(a, b int) float64 { return 100 * float64(a) / float64(max(b, 1)) }

func (s *physStats) summary() string {
	med, low := medianLow(s.furnitureZ)
	return fmt.Sprintf("files %d, with an issue %.1f%%; inside %d (fit %d): protruding %.1f%% of fitting, unfit %d, shrunk objects %d; "+
		"rigid ontop %d: under %.0f%% footprint %.1f%%; placed %d: overlapping %.1f%%, out of room %.1f%%; "+
		"objects on furniture %d: median height %.2f m, below 0.3 m %.0f%%",
		s.Files, pct(s.BadFiles, s.Files), s.Inside, s.InsideFit, pct(s.Protruding, s.InsideFit), s.Unfit, s.Shrunk,
		s.OnTop, 100*physSupportRatio, pct(s.Unsupported, s.OnTop), s.Placed, pct(s.Overlapping, s.Placed), pct(s.OutOfRoom, s.Placed),
		len(s.furnitureZ), med, 100*low)
}

// medianLow is the median of heights and the fraction below 0.3 m.
func medianLow(zs []float64) (float64, float64) {
	if len(zs) == 0 {
		return math.NaN(), math.NaN()
	}
	v := append([]float64(nil), zs...)
	sort.Float64s(v)
	n := 0
	for _, z := range v {
		if z < 0.3 {
			n++
		}
	}
	return v[len(v)/2], float64(n) / float64(len(v))
}

// physCheck checks one configuration. It returns the violations, the
// heights above their room's floor of the objects standing on or inside
// furniture, and counts: inside placements, those that fit, rigid ontop
// placements, placed objects, inside placements that do not fit, shrunk
// objects.
func physCheck(res *Result, base *kb.Base) ([]physIssue, []float64, [6]int) {
	var counts [6]int
	byName := map[string]*Object{}
	for i := range res.Objects {
		byName[res.Objects[i].Name] = &res.Objects[i]
	}
	isA := func(o *Object, name string) bool {
		syn, ok1 := base.Lookup(o.Synset)
		anc, ok2 := base.Lookup(name)
		return ok1 && ok2 && base.IsA(syn, anc)
	}
	cloth := func(o *Object) bool {
		syn, ok := base.Lookup(o.Synset)
		return ok && base.Has(syn, kb.Cloth)
	}
	floorLike := func(o *Object) bool { return o == nil || isA(o, "floor.n.01") }
	// exempt reports whether o may share volume with the object named c.
	exempt := func(o *Object, c string) bool {
		for guard := 0; o != nil && o.Parent != "" && guard < 64; guard++ {
			if o.Parent == c {
				switch o.Relation {
				case "inside", "draped", "overlaid", "attached":
					return true
				case "ontop":
					// Resting on a surface inside the support's box (a
					// bed's mattress below its headboard's top), which
					// the box does not show; the evaluator takes it so.
					if p := byName[c]; p != nil {
						ctr := o.Box.Center()
						in := true
						for k := 0; k < 3; k++ {
							in = in && ctr[k] > p.Box.Min[k] && ctr[k] < p.Box.Max[k]
						}
						return in
					}
				}
				return false
			}
			if o.Relation != "inside" && o.Relation != "ontop" && o.Relation != "overlaid" {
				return false
			}
			o = byName[o.Parent]
		}
		return false
	}
	bound := map[string]string{}
	for _, o := range res.Objects {
		if o.SceneObject != "" {
			bound[o.SceneObject] = o.Name
		}
	}
	// Every object of the scene, all rooms.
	type item struct {
		name string
		box  predicates.Box
	}
	var scene []item
	for _, r := range res.scene.Rooms {
		for _, so := range r.Objects {
			if so.Kind == FloorPart || so.Kind == CeilingPart {
				continue
			}
			name := so.Name
			if so.Task && bound[name] == "" {
				continue // the reference's own copy of a task object, replaced by ours
			}
			if b, ok := bound[name]; ok {
				name = b
			}
			scene = append(scene, item{name, so.Box})
		}
	}
	var iss []physIssue
	var heights []float64
	for i := range res.Objects {
		o := &res.Objects[i]
		if !o.Placed || o.SceneObject != "" {
			continue
		}
		counts[3]++
		if o.Scale != 1 && o.Scale > 0 {
			counts[5]++
		}
		p := byName[o.Parent]
		room := res.scene.Room(o.Room)
		floorZ := 0.0
		if room != nil {
			floorZ = room.Floor.Max[2]
		}
		ob := o.Box
		// Heights of objects on or in furniture.
		if isFurnitureChild(res, base, o) {
			heights = append(heights, ob.Center()[2]-floorZ)
		}
		switch {
		case o.Relation == "inside" && p != nil:
			counts[0]++
			pb := p.Box
			e, pe := ob.Extent(), pb.Extent()
			// fits: the object's footprint fits the container's at yaw
			// 0 or 90°, and its height the container's.
			lo, hi := min(e[0], e[1]), max(e[0], e[1])
			plo, phi := min(pe[0], pe[1]), max(pe[0], pe[1])
			if lo <= plo && hi <= phi && e[2] <= pe[2] {
				counts[1]++
				out := 0.0
				for k := 0; k < 3; k++ {
					out = max(out, pb.Min[k]-ob.Min[k], ob.Max[k]-pb.Max[k])
				}
				if out > physContainTol {
					iss = append(iss, physIssue{"contained", o.Name, p.Name, out})
				}
			} else {
				counts[4]++
			}
		case o.Relation == "ontop" && p != nil && !floorLike(p) && !cloth(o):
			counts[2]++
			pb := p.Box
			w := min(ob.Max[0], pb.Max[0]) - max(ob.Min[0], pb.Min[0])
			d := min(ob.Max[1], pb.Max[1]) - max(ob.Min[1], pb.Min[1])
			e := ob.Extent()
			ratio := 0.0
			if w > 0 && d > 0 && e[0]*e[1] > 0 {
				ratio = w * d / (e[0] * e[1])
			}
			if ratio < physSupportRatio {
				iss = append(iss, physIssue{"supported", o.Name, p.Name, ratio})
			}
		}
		// The room.
		if room != nil && o.Relation != "draped" && o.Relation != "attached" {
			f := room.Floor
			out := max(f.Min[0]-ob.Min[0], f.Min[1]-ob.Min[1], ob.Max[0]-f.Max[0], ob.Max[1]-f.Max[1])
			if out > physRoomTol {
				iss = append(iss, physIssue{"room", o.Name, room.Name, out})
			}
		}
		// Overlaps with everything else.
		var container *Object
		for c, guard := o, 0; c != nil && guard < 64; guard++ {
			if c.Relation == "inside" {
				container = byName[c.Parent]
				break
			}
			c = byName[c.Parent]
		}
		check := func(name string, b predicates.Box) {
			if name == o.Name || exempt(o, name) {
				return
			}
			if q := byName[name]; q != nil && q.SceneObject == "" && exempt(q, o.Name) {
				return
			}
			d := penetration(ob, b)
			if d <= physOverlapTol {
				return
			}
			if container != nil && byName[name] == nil || container != nil && byName[name] != nil && byName[name].SceneObject != "" {
				if penetration(b, container.Box) > physOverlapTol {
					return
				}
			}
			iss = append(iss, physIssue{"overlap", o.Name, name, d})
		}
		for _, it := range scene {
			check(it.name, it.box)
		}
		for j := range res.Objects {
			q := &res.Objects[j]
			if j > i && q.Placed && q.SceneObject == "" {
				check(q.Name, q.Box)
			}
		}
	}
	return iss, heights, counts
}

// penetration is how deep two boxes interpenetrate: the least overlap
// over the three axes, 0 when they do not.
func penetration(a, b predicates.Box) float64 {
	d := math.Inf(1)
	for k := 0; k < 3; k++ {
		d = min(d, min(a.Max[k], b.Max[k])-max(a.Min[k], b.Min[k]))
	}
	return max(d, 0)
}

// isFurnitureChild reports whether o, not the agent, stands on or lies
// in something that is neither a floor nor the agent. The agent is left
// out as the reference's recorded instances leave it out (they record the
// robot's pose apart, not as agent.n.01_1): its 1.2 m box standing on a
// lawn is no object on furniture.
func isFurnitureChild(res *Result, base *kb.Base, o *Object) bool {
	if o.Relation != "ontop" && o.Relation != "inside" || o.Category == "agent" {
		return false
	}
	for i := range res.Objects {
		p := &res.Objects[i]
		if p.Name != o.Parent {
			continue
		}
		syn, ok := base.Lookup(p.Synset)
		if !ok {
			return true
		}
		for _, n := range []string{"floor.n.01", "agent.n.01"} {
			if id, ok := base.Lookup(n); ok && base.IsA(syn, id) {
				return false
			}
		}
		return true
	}
	return false
}

func relationOf(res *Result, name string) string {
	for _, o := range res.Objects {
		if o.Name == name {
			return o.Relation
		}
	}
	return ""
}

func parentOf(res *Result, name string) string {
	for _, o := range res.Objects {
		if o.Name == name {
			return o.Parent
		}
	}
	return ""
}
