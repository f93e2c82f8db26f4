package sampler

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// Scenes from the reference simulator's scene files
// (<scene>_task_<task>_0_0_template-partial_rooms.json, see the
// OmniGibson data's README), read by package episode/omnigibson: every
// object with a room is a scene object, its box that package's (the
// inventory size × scale placed around the root link, the vertical offset
// estimated from the objects resting in the scene), enclosed in an
// axis-aligned box. The boxes are approximate; rooms are the rectangles
// around their objects, the floor at the floor object's top.

// ReadTemplate reads a simulator scene file as a scene. The objects the
// file binds to task instances (inst_to_name) are marked Task: they are
// where the reference's own sampler put that task's objects, and a
// sampled configuration puts its own there instead.
func ReadTemplate(base *kb.Base, path string) (*Scene, error) {
	t, err := omnigibson.ReadTemplate(path)
	if err != nil {
		return nil, err
	}
	l, err := t.Layout(base, omnigibson.Options{})
	if err != nil {
		return nil, err
	}
	sc, err := SceneFromLayout(base, l)
	if err != nil {
		return nil, err
	}
	task := map[string]string{}
	for _, b := range t.Bindings {
		if _, ok := task[b.Name]; !ok {
			task[b.Name] = strings.ToLower(b.Instance)
		}
		o, ok := t.Object(b.Name)
		if !ok || o.Category == "" || o.Model == "" {
			continue
		}
		if syn := synsetOfInstance(b.Instance); syn != "" {
			if sc.TaskModels == nil {
				sc.TaskModels = map[string][]string{}
			}
			sc.TaskModels[syn] = insertSorted(sc.TaskModels[syn], o.Category+"-"+o.Model)
		}
		if o.Scale == ([3]float64{1, 1, 1}) || !finiteAll(o.Scale[0], o.Scale[1], o.Scale[2]) || min(o.Scale[0], o.Scale[1], o.Scale[2]) <= 0 {
			continue
		}
		if sc.ModelScales == nil {
			sc.ModelScales = map[string][3]float64{}
		}
		// One model bound twice at different scales keeps the larger
		// (by volume), whatever the bindings' order.
		name := o.Category + "-" + o.Model
		if prev, ok := sc.ModelScales[name]; !ok || scaleLess(prev, o.Scale) {
			sc.ModelScales[name] = o.Scale
		}
	}
	for _, r := range sc.Rooms {
		for _, o := range r.Objects {
			o.Binding, o.Task = task[o.Name]
		}
	}
	sc.Surfaces = learnSurfaces(base, sc)
	return sc, nil
}

// learnSurfaces reads, from where a scene file has the reference's
// sampler put the task's objects, the support surface of furniture whose
// box rises above it: a task object lying wholly within a piece's box,
// its bottom above the box's bottom (not beneath it, on the floor), its
// footprint centre over the piece and smaller than it, rests on a surface
// inside the box when the piece has no container volume (no fillable or
// openfillable meta link: a bed, whose box includes the headboard, not a
// fridge or a cabinet with shelves). Of the pieces holding it so, the
// smallest (an egg in a basket under a tree's box rests in the basket);
// per model the lowest such surface, as a fraction of the box's height.
// The reference's ray casting finds that surface on the mesh
// (sample_cuboid_on_object in omnigibson/utils/sampling_utils.py); boxes
// do not show it.
func learnSurfaces(base *kb.Base, sc *Scene) map[string]float64 {
	var out map[string]float64
	for _, r := range sc.Rooms {
		for _, t := range r.Objects {
			if !t.Task || t.Kind != Furniture {
				continue
			}
			c := t.Box.Center()
			te := t.Box.Extent()
			var best *SceneObject
			for _, s := range r.Objects {
				b := s.Box
				e := b.Extent()
				if s == t || s.Kind != Furniture || c[0] < b.Min[0] || c[0] > b.Max[0] || c[1] < b.Min[1] || c[1] > b.Max[1] ||
					t.Box.Min[2] < b.Min[2]+surfaceLift || t.Box.Max[2] > b.Max[2] || te[0]*te[1] >= e[0]*e[1] {
					continue
				}
				if best == nil || e[0]*e[1]*e[2] < best.Box.Extent()[0]*best.Box.Extent()[1]*best.Box.Extent()[2] {
					best = s
				}
			}
			if best == nil {
				continue
			}
			m, ok := base.ModelByName(best.Model)
			if !ok || m.HasMetaLink("fillable") || m.HasMetaLink("openfillable") {
				continue
			}
			h := best.Box.Extent()[2]
			f := (t.Box.Min[2] - best.Box.Min[2]) / h
			if out == nil {
				out = map[string]float64{}
			}
			if prev, ok := out[best.Model]; !ok || f < prev {
				out[best.Model] = f
			}
		}
	}
	return out
}

// surfaceLift is how far above a piece's bottom an object must lie to
// rest on it rather than stand beneath it on the floor.
const surfaceLift = 0.02

// SceneFromLayout makes a scene of a simulator room layout.
func SceneFromLayout(base *kb.Base, l *omnigibson.Layout) (*Scene, error) {
	sc := &Scene{Name: l.Scene, Source: "omnigibson"}
	seen := map[string]bool{}
	for _, lr := range l.Rooms {
		if lr.Name == "" {
			continue
		}
		r := &Room{Name: lr.Name, Type: lr.Type, Height: 2.7}
		for _, lo := range lr.Objects {
			if seen[lo.Name] || !lo.HasBox {
				continue // an object of several rooms belongs to the first
			}
			seen[lo.Name] = true

			low, high := lo.Box.Enclosing()
			box := mkBox(low.X, low.Y, low.Z, high.X, high.Y, high.Z)
			if !finiteAll(box.Min[0], box.Min[1], box.Min[2], box.Max[0], box.Max[1], box.Max[2]) {
				return nil, fmt.Errorf("scene %s: object %s has a box that is not finite", l.Scene, lo.Name)
			}
			syn, _ := base.SynsetOfCategory(lo.Category)
			x := lo.Box.Axes[0]
			r.Objects = append(r.Objects, &SceneObject{Name: lo.Name, Category: lo.Category, Model: lo.Category + "-" + lo.Model,
				Synset: syn, Box: box, Yaw: math.Atan2(x.Y, x.X), Room: lr.Name, Kind: structureKind(base, syn)})
		}
		if len(r.Objects) == 0 {
			continue
		}
		// The floor: the rectangle around the room's objects, at the
		// lowest top of its floor objects (else the lowest bottom).
		fb := r.Objects[0].Box
		floorZ, floorSet := math.Inf(1), false
		for _, o := range r.Objects {
			for k := 0; k < 2; k++ {
				fb.Min[k], fb.Max[k] = min(fb.Min[k], o.Box.Min[k]), max(fb.Max[k], o.Box.Max[k])
			}
			if o.Kind == FloorPart {
				floorZ, floorSet = min(floorZ, o.Box.Max[2]), true
			}
		}
		if !floorSet {
			for _, o := range r.Objects {
				floorZ = min(floorZ, o.Box.Min[2])
			}
		}
		r.Floor = predicates.Box{Min: [3]float64{fb.Min[0], fb.Min[1], floorZ - floorDepth}, Max: [3]float64{fb.Max[0], fb.Max[1], floorZ}}
		sc.Rooms = append(sc.Rooms, r)
	}
	sort.Slice(sc.Rooms, func(i, j int) bool { return sc.Rooms[i].Name < sc.Rooms[j].Name })
	if len(sc.Rooms) == 0 {
		return nil, fmt.Errorf("scene %s: no object with a known size has a room", l.Scene)
	}
	return sc, nil
}

func finiteAll(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// scaleLess orders scales by volume, then per axis, so a choice among
// several does not depend on the order they were read in.
func scaleLess(a, b [3]float64) bool {
	va, vb := a[0]*a[1]*a[2], b[0]*b[1]*b[2]
	if va != vb {
		return va < vb
	}
	for k := range a {
		if a[k] != b[k] {
			return a[k] < b[k]
		}
	}
	return false
}

// synsetOfInstance is the synset of an instance name (bowl.n.01_2 →
// bowl.n.01), "" when the name is not one.
func synsetOfInstance(inst string) string {
	k := strings.LastIndexByte(inst, '_')
	if k <= 0 || k == len(inst)-1 || !strings.Contains(inst[:k], ".n.") {
		return ""
	}
	for _, c := range inst[k+1:] {
		if c < '0' || c > '9' {
			return ""
		}
	}
	return strings.ToLower(inst[:k])
}

// insertSorted adds v to the sorted list l unless it is there.
func insertSorted(l []string, v string) []string {
	k, found := slices.BinarySearch(l, v)
	if found {
		return l
	}
	return slices.Insert(l, k, v)
}
