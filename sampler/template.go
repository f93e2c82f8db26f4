package sampler

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gonum.org/v1/gonum/num/quat"
	"gonum.org/v1/gonum/spatial/r3"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// Scenes from the reference simulator's scene files
// (<scene>_task_<task>_0_0_template-partial_rooms.json, see the
// OmniGibson data's README): every object with a room is a scene object,
// its box the inventory's size × its scale turned by its orientation
// around its root link. The root link is not always the box centre and
// the knowledge base has no per-model offset, so these boxes are
// approximate; rooms are the rectangles around their objects.

// maxTemplateBytes bounds what a scene file may hold.
const maxTemplateBytes = 512 << 20

type templateFile struct {
	ObjectsInfo struct {
		InitInfo map[string]struct {
			Args struct {
				Category string    `json:"category"`
				Model    string    `json:"model"`
				Scale    []float64 `json:"scale"`
				InRooms  roomList  `json:"in_rooms"`
			} `json:"args"`
		} `json:"init_info"`
	} `json:"objects_info"`
	State struct {
		Registry struct {
			Objects map[string]struct {
				RootLink struct {
					Pos []float64 `json:"pos"`
					Ori []float64 `json:"ori"`
				} `json:"root_link"`
			} `json:"object_registry"`
		} `json:"registry"`
	} `json:"state"`
}

// roomList is in_rooms: a list of room instances, or one as a string.
type roomList []string

func (r *roomList) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		if one != "" {
			*r = roomList{one}
		}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return fmt.Errorf("in_rooms must be a room name or a list of them")
	}
	*r = many
	return nil
}

// TemplateSceneName is the scene a template file is of: the part of its
// name before "_task_".
func TemplateSceneName(path string) string {
	name := filepath.Base(path)
	if i := strings.Index(name, "_task_"); i > 0 {
		return name[:i]
	}
	return strings.TrimSuffix(name, ".json")
}

// ReadTemplate reads a simulator scene file as a scene.
func ReadTemplate(base *kb.Base, path string) (*Scene, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxTemplateBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxTemplateBytes {
		return nil, fmt.Errorf("%s: larger than %d MiB", path, maxTemplateBytes>>20)
	}
	return ParseTemplate(base, path, data)
}

// ParseTemplate reads the contents of a simulator scene file named path.
func ParseTemplate(base *kb.Base, path string, data []byte) (*Scene, error) {
	var tf templateFile
	if err := json.Unmarshal(data, &tf); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	sc := &Scene{Name: TemplateSceneName(path), Source: "omnigibson"}
	rooms := map[string]*Room{}
	names := make([]string, 0, len(tf.ObjectsInfo.InitInfo))
	for n := range tf.ObjectsInfo.InitInfo {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		args := tf.ObjectsInfo.InitInfo[n].Args
		if len(args.InRooms) == 0 {
			continue // objects of the task, not of the scene
		}
		reg, ok := tf.State.Registry.Objects[n]
		if !ok || len(reg.RootLink.Pos) != 3 || len(reg.RootLink.Ori) != 4 {
			return nil, fmt.Errorf("%s: object %s has no root_link pose in state.registry.object_registry", path, n)
		}
		model := args.Category + "-" + args.Model
		size, _ := modelSize(base, model)
		for k := 0; k < 3 && k < len(args.Scale); k++ {
			if args.Scale[k] > 0 && !math.IsInf(args.Scale[k], 0) {
				size[k] *= args.Scale[k]
			}
		}
		p, o := reg.RootLink.Pos, reg.RootLink.Ori
		q := quat.Number{Real: o[3], Imag: o[0], Jmag: o[1], Kmag: o[2]}
		qn := quat.Abs(q)
		if !finiteAll(p...) || !finiteAll(o...) || qn < 1e-9 || math.IsInf(qn, 0) {
			return nil, fmt.Errorf("%s: object %s has a pose that is not finite or not a rotation", path, n)
		}
		rot := r3.Rotation(quat.Scale(1/qn, q))
		box := rotatedBox(size, rot, r3.Vec{X: p[0], Y: p[1], Z: p[2]})
		if !finiteAll(box.Min[0], box.Min[1], box.Min[2], box.Max[0], box.Max[1], box.Max[2]) {
			return nil, fmt.Errorf("%s: object %s has a box that is not finite (scale %v)", path, n, args.Scale)
		}
		syn, _ := base.SynsetOfCategory(args.Category)
		roomName := args.InRooms[0]
		r := rooms[roomName]
		if r == nil {
			r = &Room{Name: roomName, Type: kb.RoomType(roomName)}
			rooms[roomName] = r
		}
		r.Objects = append(r.Objects, &SceneObject{Name: n, Category: args.Category, Model: model, Synset: syn, Box: box,
			Yaw: yawOf(rot), Room: roomName, Kind: structureKind(base, syn)})
	}
	for _, r := range rooms {
		floorSet := false
		var fb predicates.Box
		for i, o := range r.Objects {
			if i == 0 {
				fb = o.Box
			}
			for k := 0; k < 3; k++ {
				fb.Min[k], fb.Max[k] = min(fb.Min[k], o.Box.Min[k]), max(fb.Max[k], o.Box.Max[k])
			}
			if o.Kind == FloorPart && !floorSet {
				fb.Max[2], floorSet = o.Box.Max[2], true
			}
		}
		if !floorSet {
			fb.Max[2] = fb.Min[2]
		}
		r.Height = 2.7
		r.Floor = predicates.Box{Min: [3]float64{fb.Min[0], fb.Min[1], fb.Max[2] - floorDepth}, Max: [3]float64{fb.Max[0], fb.Max[1], fb.Max[2]}}
		sc.Rooms = append(sc.Rooms, r)
	}
	sort.Slice(sc.Rooms, func(i, j int) bool { return sc.Rooms[i].Name < sc.Rooms[j].Name })
	if len(sc.Rooms) == 0 {
		return nil, fmt.Errorf("%s: no object has a room (objects_info.init_info.*.args.in_rooms)", path)
	}
	return sc, nil
}

// rotatedBox is the axis-aligned box around a box of this size turned by
// rot about its centre c.
func rotatedBox(size [3]float64, rot r3.Rotation, c r3.Vec) predicates.Box {
	var e r3.Vec
	for _, sx := range []float64{-1, 1} {
		for _, sy := range []float64{-1, 1} {
			for _, sz := range []float64{-1, 1} {
				p := rot.Rotate(r3.Vec{X: sx * size[0] / 2, Y: sy * size[1] / 2, Z: sz * size[2] / 2})
				e = r3.Vec{X: max(e.X, math.Abs(p.X)), Y: max(e.Y, math.Abs(p.Y)), Z: max(e.Z, math.Abs(p.Z))}
			}
		}
	}
	return mkBox(c.X-e.X, c.Y-e.Y, c.Z-e.Z, c.X+e.X, c.Y+e.Y, c.Z+e.Z)
}

// yawOf is the heading of a rotation: the angle of its x axis in the
// horizontal plane.
func yawOf(rot r3.Rotation) float64 {
	x := rot.Rotate(r3.Vec{X: 1})
	return math.Atan2(x.Y, x.X)
}

func finiteAll(v ...float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
