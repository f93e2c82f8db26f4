package omnigibson

import (
	"sort"

	"github.com/openbddl/bddl/kb"
)

// Layout is the room layout a template records: the rooms of the scene it
// loaded and the scene objects in each, placed as the simulator saved
// them. It is the real layout a sampler can place task objects in.
type Layout struct {
	Scene string
	Rooms []LayoutRoom
	// Unroomed are objects whose init_info names no room (walls,
	// ceilings and other structure usually).
	Unroomed []LayoutObject
}

// LayoutRoom is one room instance and its objects, sorted by name.
type LayoutRoom struct {
	Name    string // kitchen_0
	Type    string // kitchen
	Objects []LayoutObject
}

// LayoutObject is one scene object of a layout.
type LayoutObject struct {
	Name      string // the simulator's name, e.g. fridge_dszchb_0
	Category  string
	Model     string
	FixedBase bool
	Pose      Pose // the root link
	// Box is the object's box (size × scale, placed as Options say:
	// dataset offset, else the support estimate, else the root link);
	// HasBox is false when neither the dataset nor the knowledge base
	// knows the model's size. Exact tells whether the offset came from the
	// dataset.
	Box    Box
	HasBox bool
	Exact  bool
}

// ReadLayout reads a template's room layout (see Template.Layout).
func ReadLayout(path string, base *kb.Base, opts Options) (*Layout, error) {
	t, err := ReadTemplate(path)
	if err != nil {
		return nil, err
	}
	return t.Layout(base, opts)
}

// Layout returns the template's rooms and the objects in them, with their
// boxes. base (may be nil) gives model sizes; opts.Dataset and
// opts.Offsets place the boxes as a conversion would. An object listed in
// several rooms appears in each.
func (t *Template) Layout(base *kb.Base, opts Options) (*Layout, error) {
	c := &Converter{tmpl: t, base: base, opts: opts}
	c.resolveModels()
	items := make([]sceneItem, 0, len(t.Objects))
	for i := range t.Objects {
		o := &t.Objects[i]
		if !o.hasState {
			continue
		}
		it := sceneItem{obj: o, state: o.State, model: c.modelID[i]}
		if err := c.placeBox(&it, &c.models[i]); err != nil {
			return nil, err
		}
		items = append(items, it)
	}
	if opts.Offsets == OffsetsSupport {
		dz, has := c.estimate(items)
		applyOffsets(items, dz, has)
	}
	l := &Layout{Scene: t.Scene}
	rooms := map[string]*LayoutRoom{}
	for i := range items {
		it := &items[i]
		lo := LayoutObject{Name: it.obj.Name, Category: it.obj.Category, Model: it.obj.Model, FixedBase: it.obj.FixedBase,
			Pose: it.state.Pose, Box: it.box, HasBox: it.hasBox, Exact: it.exact}
		if len(it.obj.InRooms) == 0 {
			l.Unroomed = append(l.Unroomed, lo)
			continue
		}
		for _, r := range it.obj.InRooms {
			room := rooms[r]
			if room == nil {
				room = &LayoutRoom{Name: r, Type: kb.RoomType(r)}
				rooms[r] = room
			}
			room.Objects = append(room.Objects, lo)
		}
	}
	for _, r := range rooms {
		sort.Slice(r.Objects, func(i, j int) bool { return r.Objects[i].Name < r.Objects[j].Name })
		l.Rooms = append(l.Rooms, *r)
	}
	sort.Slice(l.Rooms, func(i, j int) bool { return l.Rooms[i].Name < l.Rooms[j].Name })
	sort.Slice(l.Unroomed, func(i, j int) bool { return l.Unroomed[i].Name < l.Unroomed[j].Name })
	return l, nil
}
