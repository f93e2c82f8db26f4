package sampler

import (
	"fmt"
	"math"
	"sort"

	"gonum.org/v1/gonum/spatial/r3"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// Scene is what the sampler places objects in: rooms holding scene
// objects, each with a category, a model and a box.
type Scene struct {
	Name string
	// Source says where the scene came from: "kb" (laid out from the
	// knowledge base's room object lists) or "omnigibson" (read from a
	// simulator scene file).
	Source string
	Rooms  []*Room
}

// Room is one room instance (kitchen_0) with its floor rectangle.
type Room struct {
	Name, Type string
	// Floor is the room's floor: its xy rectangle, from z = -FloorDepth
	// to 0 (or the floor object's top in a simulator scene).
	Floor   predicates.Box
	Height  float64
	Objects []*SceneObject
	// Keepout are boxes nothing may be placed in: the space in front of
	// doors.
	Keepout []predicates.Box
}

// SceneObject is an object of a scene: furniture, fixtures, structure.
type SceneObject struct {
	Name     string
	Category string
	Model    string
	Synset   kb.SynsetID
	Box      predicates.Box
	Yaw      float64
	Room     string
	Kind     StructureKind
	// Task marks an object a simulator scene file binds to one of its
	// task's instances: unless an in-room instance is bound to it, it
	// takes no space in a sampled configuration (its own copy is placed).
	Task bool
}

// StructureKind says what role a scene object plays in the room's shell.
type StructureKind uint8

const (
	Furniture StructureKind = iota
	FloorPart
	WallPart
	CeilingPart
	Opening // doors and windows, set in a wall
)

// Room returns the room instance of that name.
func (s *Scene) Room(name string) *Room {
	for _, r := range s.Rooms {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// Layout constants, in metres.
const (
	floorDepth     = 0.05 // thickness of the floor slab below z = 0
	wallThickness  = 0.1
	roomGap        = 0.4 // between rooms, outside their walls
	openingMargin  = 0.3 // clear wall on each side of a door or window
	doorClearance  = 1.0 // kept clear in front of a door
	defaultSize    = 0.5 // of a model the inventory has no size for
	minRoomSide    = 3.0
	minFreeSpan    = 2.0 // free floor across the middle of a room
	furnitureSlack = 0.05
)

// structureKind classifies a synset by the building part it is.
func structureKind(b *kb.Base, syn kb.SynsetID) StructureKind {
	is := func(name string) bool {
		id, ok := b.Lookup(name)
		return ok && b.IsA(syn, id)
	}
	switch {
	case syn == kb.NoSynset:
		return Furniture
	case is("floor.n.01"):
		return FloorPart
	case is("wall.n.01"):
		return WallPart
	case is("ceiling.n.01"):
		return CeilingPart
	case is("door.n.01"), is("window.n.01"):
		return Opening
	}
	return Furniture
}

// modelSize is a model's bounding box size from the inventory, or a
// default cube when it has none.
func modelSize(b *kb.Base, model string) ([3]float64, bool) {
	if m, ok := b.ModelByName(model); ok && m.HasSize && m.Size[0] > 0 && m.Size[1] > 0 && m.Size[2] > 0 {
		return m.Size, true
	}
	return [3]float64{defaultSize, defaultSize, defaultSize}, false
}

// wallItem is an object to stand against a wall.
type wallItem struct {
	obj      *SceneObject
	w, d, h  float64 // along the wall, away from it, up
	span     float64 // wall length it takes
	opening  bool
	wall     int
	offset   float64
	rotated  bool // the model's y axis runs along the wall
	elevated float64
}

// LayoutScene lays out a knowledge-base scene, which lists only each
// room's models: every room becomes a rectangle sized from its contents,
// furniture stands against the walls with its back to them (the middle
// stays free for the objects the sampler places), doors and windows take
// their own stretch of wall with the floor in front of doors kept clear,
// and rooms sit side by side without overlapping. The layout depends only
// on the scene and the knowledge base.
func LayoutScene(b *kb.Base, ks kb.Scene) *Scene {
	sc := &Scene{Name: ks.Name, Source: "kb"}
	perModel := map[string]int{}
	cols := int(math.Ceil(math.Sqrt(float64(len(ks.Rooms)))))
	var x0, y0, rowDepth float64
	for i, kr := range ks.Rooms {
		if i > 0 && i%cols == 0 {
			x0, y0, rowDepth = 0, y0+rowDepth+roomGap+2*wallThickness, 0
		}
		r := layoutRoom(b, kr, perModel, x0, y0)
		sc.Rooms = append(sc.Rooms, r)
		x0 = r.Floor.Max[0] + roomGap + 2*wallThickness
		rowDepth = max(rowDepth, r.Floor.Max[1]-r.Floor.Min[1])
	}
	return sc
}

func layoutRoom(b *kb.Base, kr kb.Room, perModel map[string]int, x0, y0 float64) *Room {
	room := &Room{Name: kr.Name, Type: kr.Type}
	var items []*wallItem
	var floors, walls, ceilings []*SceneObject
	height := 2.7
	for _, mc := range kr.Objects {
		syn, _ := b.SynsetOfCategory(mc.Category)
		kind := structureKind(b, syn)
		size, _ := modelSize(b, mc.Model)
		for range mc.Count {
			_, id := splitModel(mc.Model)
			n := perModel[mc.Model]
			perModel[mc.Model]++
			o := &SceneObject{Name: fmt.Sprintf("%s_%s_%d", mc.Category, id, n), Category: mc.Category, Model: mc.Model,
				Synset: syn, Room: kr.Name, Kind: kind}
			room.Objects = append(room.Objects, o)
			switch kind {
			case FloorPart:
				floors = append(floors, o)
				continue
			case WallPart:
				walls = append(walls, o)
				continue
			case CeilingPart:
				ceilings = append(ceilings, o)
				continue
			}
			it := &wallItem{obj: o, w: size[0], d: size[1], h: size[2]}
			if size[1] > size[0] {
				it.w, it.d, it.rotated = size[1], size[0], true
			}
			if kind == Opening {
				it.opening = true
				it.d = min(it.d, wallThickness)
				it.span = it.w + 2*openingMargin
			} else {
				it.span = it.w + furnitureSlack
			}
			height = max(height, it.h+0.3) // the ceiling clears everything, doors too
			items = append(items, it)
		}
	}
	// Openings first so they get the walls' first stretches, then larger
	// furniture first; names break ties so the layout is stable.
	sort.SliceStable(items, func(i, j int) bool {
		a, c := items[i], items[j]
		if a.opening != c.opening {
			return a.opening
		}
		if a.w != c.w {
			return a.w > c.w
		}
		return a.obj.Name < c.obj.Name
	})
	depth := 0.0
	total := 0.0
	for _, it := range items {
		if !it.opening {
			depth = max(depth, it.d)
		}
		total += it.span
	}
	margin := depth + furnitureSlack
	side := max(minRoomSide, total/4+2*margin, 2*depth+minFreeSpan)
	for !assignWalls(items, side, margin) {
		side += 0.5
	}
	room.Floor = predicates.Box{Min: [3]float64{x0, y0, -floorDepth}, Max: [3]float64{x0 + side, y0 + side, 0}}
	room.Height = height
	for _, it := range items {
		placeOnWall(room, it, side, margin)
	}
	slabs(room, floors, walls, ceilings)
	return room
}

// assignWalls spreads the items over the four walls, each to the wall
// with the most room left; false when they do not fit.
func assignWalls(items []*wallItem, side, margin float64) bool {
	usable := side - 2*margin
	var used [4]float64
	for _, it := range items {
		best := -1
		for w := 0; w < 4; w++ {
			if used[w]+it.span <= usable && (best < 0 || used[w] < used[best]) {
				best = w
			}
		}
		if best < 0 {
			return false
		}
		it.wall, it.offset = best, used[best]
		used[best] += it.span
	}
	return true
}

// placeOnWall sets an item's box: walls 0–3 are south, east, north and
// west, each walked counter-clockwise from margin.
func placeOnWall(room *Room, it *wallItem, side, margin float64) {
	x0, y0 := room.Floor.Min[0], room.Floor.Min[1]
	start := margin + it.offset
	if it.opening {
		start += openingMargin
	}
	lo, hi := start, start+it.w
	z0, z1 := 0.0, it.h
	if it.opening && it.h < 1.8 { // a window: set into the wall at sill height
		z0 = min(0.9, room.Height-it.h)
		z1 = z0 + it.h
	}
	var box predicates.Box
	var front predicates.Box
	switch it.wall {
	case 0:
		box = mkBox(x0+lo, y0, z0, x0+hi, y0+it.d, z1)
		front = mkBox(x0+lo, y0+it.d, 0, x0+hi, y0+it.d+doorClearance, it.h)
	case 1:
		box = mkBox(x0+side-it.d, y0+lo, z0, x0+side, y0+hi, z1)
		front = mkBox(x0+side-it.d-doorClearance, y0+lo, 0, x0+side-it.d, y0+hi, it.h)
	case 2:
		box = mkBox(x0+side-hi, y0+side-it.d, z0, x0+side-lo, y0+side, z1)
		front = mkBox(x0+side-hi, y0+side-it.d-doorClearance, 0, x0+side-lo, y0+side-it.d, it.h)
	default:
		box = mkBox(x0, y0+side-hi, z0, x0+it.d, y0+side-lo, z1)
		front = mkBox(x0+it.d, y0+side-hi, 0, x0+it.d+doorClearance, y0+side-lo, it.h)
	}
	it.obj.Box = box
	yaw := float64(it.wall) * math.Pi / 2
	if it.rotated {
		yaw += math.Pi / 2
	}
	it.obj.Yaw = math.Remainder(yaw, 2*math.Pi)
	if it.opening && z0 == 0 {
		room.Keepout = append(room.Keepout, front)
	}
}

// slabs lays the floor, wall and ceiling objects: the floor split in
// strips, the walls spread over the four sides outside the room, the
// ceiling above it.
func slabs(room *Room, floors, walls, ceilings []*SceneObject) {
	f := room.Floor
	strips := func(objs []*SceneObject, z0, z1 float64) {
		n := float64(len(objs))
		w := (f.Max[0] - f.Min[0]) / n
		for i, o := range objs {
			x := f.Min[0] + float64(i)*w
			o.Box = mkBox(x, f.Min[1], z0, x+w, f.Max[1], z1)
		}
	}
	strips(floors, -floorDepth, 0)
	strips(ceilings, room.Height, room.Height+floorDepth)
	perSide := [4][]*SceneObject{}
	for i, o := range walls {
		perSide[i%4] = append(perSide[i%4], o)
	}
	t := wallThickness
	for s, objs := range perSide {
		n := float64(len(objs))
		for i, o := range objs {
			a, c := float64(i)/n, float64(i+1)/n
			lx := func(u float64) float64 { return f.Min[0] + u*(f.Max[0]-f.Min[0]) }
			ly := func(u float64) float64 { return f.Min[1] + u*(f.Max[1]-f.Min[1]) }
			switch s {
			case 0:
				o.Box = mkBox(lx(a), f.Min[1]-t, 0, lx(c), f.Min[1], room.Height)
			case 1:
				o.Box = mkBox(f.Max[0], ly(a), 0, f.Max[0]+t, ly(c), room.Height)
			case 2:
				o.Box = mkBox(lx(a), f.Max[1], 0, lx(c), f.Max[1]+t, room.Height)
			default:
				o.Box = mkBox(f.Min[0]-t, ly(a), 0, f.Min[0], ly(c), room.Height)
			}
		}
	}
}

func mkBox(x0, y0, z0, x1, y1, z1 float64) predicates.Box {
	return predicates.Box{Min: [3]float64{x0, y0, z0}, Max: [3]float64{x1, y1, z1}}
}

func splitModel(name string) (category, id string) {
	for i := len(name) - 1; i >= 0; i-- {
		if name[i] == '-' {
			return name[:i], name[i+1:]
		}
	}
	return name, ""
}

// yawBox is the axis-aligned box of a box of the given size turned by
// yaw about the vertical, with its bottom centre at c.
func yawBox(size [3]float64, yaw float64, c r3.Vec) predicates.Box {
	rot := r3.NewRotation(yaw, r3.Vec{Z: 1})
	ex, ey := 0.0, 0.0
	for _, corner := range []r3.Vec{{X: size[0] / 2, Y: size[1] / 2}, {X: size[0] / 2, Y: -size[1] / 2}} {
		p := rot.Rotate(corner)
		ex, ey = max(ex, math.Abs(p.X)), max(ey, math.Abs(p.Y))
	}
	return mkBox(c.X-ex, c.Y-ey, c.Z, c.X+ex, c.Y+ey, c.Z+size[2])
}
