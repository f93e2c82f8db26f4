package sampler

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/openbddl/bddl/internal/r3"
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
	// ModelScales are the scales at which the scene file loads the models
	// of the task's objects (its inst_to_name bindings), per axis of the
	// model's own frame, where not 1: the reference's sampler loads some
	// models rescaled (its sampling whitelist's bounding boxes, a 0.27 m
	// broom model at ×3), and the file records the result.
	ModelScales map[string][3]float64
	// TaskModels are, per synset (bowl.n.01), the models the scene file
	// binds to the task's instances of it, sorted: the reference's own
	// choice, which its sampling whitelist narrows to chosen models.
	TaskModels map[string][]string
	// Surfaces are, per model (bed-gxfipj), the height of its support
	// surface above the bottom of its box, as a fraction of the box's
	// height, where the scene file has the reference's sampler put a task
	// object on it below the box's top (a book on a bed whose box
	// includes the headboard; see learnSurfaces).
	Surfaces map[string]float64
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
	// Binding is the task instance the scene file binds it to
	// (cabinet.n.01_1), lower case, "" when none: an in-room instance of
	// that name is bound to it first, as the reference bound it.
	Binding string
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
	obj     *SceneObject
	w, d, h float64 // along the wall, away from it, up
	span    float64 // wall length it takes
	opening bool
	wall    int
	offset  float64
	rotated bool // the model's y axis runs along the wall
	z0      float64
	mount   mount
	// top is a countertop standing on this lower cabinet.
	top *wallItem
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
			it := &wallItem{obj: o, w: size[0], d: size[1], h: size[2], mount: mountOf(b, mc.Category, syn, size)}
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
			if it.mount == onFloor || it.mount == onCeiling || kind == Opening {
				height = max(height, it.h+0.3) // the ceiling clears everything, doors too
			}
			items = append(items, it)
		}
	}
	items = pairCounters(b, items)
	for _, it := range items {
		it.z0 = it.mount.elevation(it.h, height)
		if t := it.top; t != nil {
			// On the cabinet when that makes a counter of about the
			// usual height, else at the usual height above it.
			t.z0 = it.h
			if it.h+t.h < counterTop-0.15 {
				t.z0 = counterTop - t.h
			}
			height = max(height, t.z0+t.h+0.3)
		} else if it.mount != onCeiling {
			height = max(height, it.z0+it.h+0.3)
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
		if it.top != nil {
			it.span = max(it.span, it.top.w+furnitureSlack)
			depth = max(depth, it.top.d)
		}
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

// mount is where a piece of furniture is fixed in a room.
type mount uint8

const (
	onFloor      mount = iota
	onCounter          // a countertop slab: its top at counterTop
	onWall             // pictures, mirrors, shelves, dispensers, switches: centred at eyeHeight
	onWallLow          // wall sockets: centred at socketHeight
	onWallSwitch       // light switches: centred at switchHeight
	onWallHigh         // wall cabinets, range hoods: their bottom at wallCabinetBottom
	onCeiling          // lights, alarms, sprinklers: hanging from the ceiling
	inGround           // lawns, driveways: set into the ground, their top at the floor
)

// Mounting heights, in metres above the floor (common building practice:
// a kitchen counter at 0.9 m, wall cabinets from 1.45 m, eye-level
// fixtures at 1.5 m, switches at 1.2 m, sockets at 0.3 m).
const (
	counterTop        = 0.9
	eyeHeight         = 1.5
	switchHeight      = 1.2
	socketHeight      = 0.3
	wallCabinetBottom = 1.45
)

// elevation is the height of the bottom of an item of height h so
// mounted in a room of that height (a ceiling item's is set once the
// room's height is known).
func (m mount) elevation(h, roomHeight float64) float64 {
	switch m {
	case onCounter:
		return max(0, counterTop-h)
	case onWall:
		return max(0, eyeHeight-h/2)
	case onWallLow:
		return max(0, socketHeight-h/2)
	case onWallSwitch:
		return max(0, switchHeight-h/2)
	case onWallHigh:
		return wallCabinetBottom
	case inGround:
		return -h
	}
	return 0
}

// mountOf classifies furniture by the synsets of the reference's object
// taxonomy, and by the category words the taxonomy uses for the same
// synset mounted differently (top_cabinet and bottom_cabinet are both
// cabinet.n.01; wall_mounted_tv and standing_tv both
// television_receiver.n.01).
func mountOf(b *kb.Base, category string, syn kb.SynsetID, size [3]float64) mount {
	is := func(names ...string) bool {
		for _, n := range names {
			if id, ok := b.Lookup(n); ok && syn != kb.NoSynset && b.IsA(syn, id) {
				return true
			}
		}
		return false
	}
	switch {
	case category == "walls" || category == "floors" || category == "ceilings":
		return onFloor
	case is("lawn.n.01", "road.n.01"):
		// Terrain: the reference's scenes set its slabs (0.3–0.6 m
		// thick) into the ground, root 0.15 m below the floor and top
		// at it (house_double_floor_lower's lawns and driveway), so what
		// stands on a lawn stands at the ground's height.
		return inGround
	case is("countertop.n.01") && size[2] < 0.5:
		return onCounter
	case strings.HasPrefix(category, "top_") || is("range_hood.n.01"):
		return onWallHigh
	case is("wall_socket.n.01"):
		return onWallLow
	case is("switch.n.01"):
		return onWallSwitch
	case strings.HasPrefix(category, "ceiling_") || is("fire_alarm.n.02", "fire_sprinkler.n.01", "security_camera.n.01") ||
		is("room_light.n.01") && !strings.Contains(category, "wall") && !strings.Contains(category, "floor") && !strings.Contains(category, "table"):
		return onCeiling
	case strings.HasPrefix(category, "wall_") || is("mirror.n.01", "painting.n.01", "wall_nail.n.01", "towel_rack.n.01",
		"toilet_paper_dispenser.n.01", "paper_towel_dispenser.n.01", "hand_dryer.n.01", "showerhead.n.01") ||
		is("shelf.n.01") && size[2] < 0.3:
		return onWall
	}
	return onFloor
}

// pairCounters stands each countertop slab on a lower cabinet of the
// room, the tallest free one first, where there is one; the countertop
// then leaves the wall list and follows its cabinet.
func pairCounters(b *kb.Base, items []*wallItem) []*wallItem {
	cab, ok := b.Lookup("cabinet.n.01")
	if !ok {
		return items
	}
	var cabs []*wallItem
	for _, it := range items {
		if it.mount == onFloor && !it.opening && it.obj.Synset != kb.NoSynset && b.IsA(it.obj.Synset, cab) && it.h < counterTop {
			cabs = append(cabs, it)
		}
	}
	sort.SliceStable(cabs, func(i, j int) bool {
		if cabs[i].h != cabs[j].h {
			return cabs[i].h > cabs[j].h
		}
		return cabs[i].obj.Name < cabs[j].obj.Name
	})
	out := items[:0:0]
	for _, it := range items {
		if it.mount == onCounter && len(cabs) > 0 {
			c := cabs[0]
			cabs = cabs[1:]
			c.top = it
			continue
		}
		out = append(out, it)
	}
	return out
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
	if it.top != nil && it.top.w > it.w {
		start += (it.top.w - it.w) / 2 // centred under its wider countertop
	}
	lo, hi := start, start+it.w
	z0, z1 := it.z0, it.z0+it.h
	if it.mount == onCeiling {
		z0 = max(0, room.Height-it.h)
		z1 = z0 + it.h
	}
	if it.opening && it.h < 1.8 { // a window: set into the wall at sill height
		z0 = min(0.9, room.Height-it.h)
		z1 = z0 + it.h
	}
	if it.top != nil {
		// The countertop over its cabinet, centred on it along the wall,
		// its back to the wall.
		t := it.top
		t.wall, t.offset = it.wall, it.offset+max(0, (it.w-t.w)/2)
		placeOnWall(room, t, side, margin)
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
