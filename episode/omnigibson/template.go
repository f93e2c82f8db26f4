package omnigibson

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/openbddl/bddl/internal/fsutil"
)

// Template is a task's scene template: the full scene
// (*_template.json) or the rooms the task uses
// (*_template-partial_rooms.json). Its own state is the task's first
// instance.
type Template struct {
	Path string
	// Partial is the partial-rooms template merged into this one (Merge),
	// "" when none was.
	Partial string
	// Versions are the simulator, bddl and dataset versions
	// ("omnigibson" → "1.2.0-alpha"), when the file gives them.
	Versions map[string]string
	// Scene is the scene model (house_single_floor); RoomTypes are the
	// room types a partial-rooms template loaded, nil for a full scene.
	Scene     string
	RoomTypes []string
	// Bindings map BDDL instances to simulator names, in file order.
	Bindings []Binding
	// Robots are the start poses per robot model, in file order.
	Robots []RobotPose
	// GroundPoses are robot start poses taken from an instance file of
	// the task when the template records none (ReadTask): evidence of
	// the floor height for the offset estimate, never the agent's pose.
	GroundPoses []RobotPose
	Objects     []SceneObject
	// Systems are the particle systems of the template's state by system
	// name.
	Systems map[string]*System

	byName map[string]int
}

// Binding is one entry of inst_to_name: a BDDL instance and the simulator
// object or particle system bound to it.
type Binding struct {
	Instance string // dust.n.01_1
	Name     string // dust, or bowl_73
}

// SceneObject is one object of the scene: what init_info says of it and
// its saved state.
type SceneObject struct {
	Name      string
	Category  string
	Model     string
	Scale     [3]float64
	InRooms   []string
	FixedBase bool
	State     ObjectState
	hasState  bool
}

// Object returns the scene object of that simulator name.
func (t *Template) Object(name string) (*SceneObject, bool) {
	i, ok := t.byName[name]
	if !ok {
		return nil, false
	}
	return &t.Objects[i], true
}

// rawInitInfo is one objects_info.init_info entry.
type rawInitInfo struct {
	Args struct {
		Category  string `json:"category"`
		Model     string `json:"model"`
		Scale     any    `json:"scale"`
		InRooms   any    `json:"in_rooms"`
		FixedBase bool   `json:"fixed_base"`
	} `json:"args"`
}

// ReadTemplate reads a template, one object at a time.
func ReadTemplate(path string) (*Template, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readTemplate(f, path)
}

func readTemplate(r io.Reader, path string) (*Template, error) {
	w := newWalker(r, path)
	t := &Template{Path: path, Systems: map[string]*System{}, byName: map[string]int{}}
	states := map[string]ObjectState{}
	var sawMeta, sawState bool
	err := w.object(func(k string) error {
		switch k {
		case "versions":
			return w.object(func(name string) error {
				var v struct {
					Version any `json:"version"`
				}
				if err := w.decode(&v); err != nil {
					return err
				}
				if s, ok := v.Version.(string); ok {
					if t.Versions == nil {
						t.Versions = map[string]string{}
					}
					t.Versions[name] = s
				}
				return nil
			})
		case "metadata":
			sawMeta = true
			return w.object(func(k string) error {
				if k != "task" {
					return w.skip()
				}
				return w.object(func(k string) error {
					switch k {
					case "inst_to_name":
						return w.object(func(inst string) error {
							var name string
							if err := w.decode(&name); err != nil {
								return err
							}
							t.Bindings = append(t.Bindings, Binding{Instance: inst, Name: name})
							return nil
						})
					case "robot_poses":
						var err error
						t.Robots, err = w.readRobotPoses()
						return err
					}
					return w.skip()
				})
			})
		case "init_info":
			var v struct {
				Args struct {
					SceneModel    string   `json:"scene_model"`
					LoadRoomTypes []string `json:"load_room_types"`
				} `json:"args"`
			}
			if err := w.decode(&v); err != nil {
				return err
			}
			t.Scene, t.RoomTypes = v.Args.SceneModel, v.Args.LoadRoomTypes
			return nil
		case "objects_info":
			return w.object(func(k string) error {
				if k != "init_info" {
					return w.skip()
				}
				return w.object(func(name string) error {
					var ii rawInitInfo
					if err := w.decode(&ii); err != nil {
						return err
					}
					o, err := sceneObject(name, &ii)
					if err != nil {
						return w.located(err)
					}
					t.byName[name] = len(t.Objects)
					t.Objects = append(t.Objects, o)
					return nil
				})
			})
		case "state":
			sawState = true
			return w.object(func(k string) error {
				if k != "registry" {
					return w.skip()
				}
				return w.object(func(k string) error {
					switch k {
					case "object_registry":
						return w.object(func(name string) error {
							e, err := w.readEntry()
							if err != nil {
								return err
							}
							st, err := e.object()
							if err != nil {
								return w.located(err)
							}
							states[name] = st
							return nil
						})
					case "system_registry":
						return w.object(func(name string) error {
							e, err := w.readEntry()
							if err != nil {
								return err
							}
							s, err := e.system()
							if err != nil {
								return w.located(err)
							}
							t.Systems[name] = s
							return nil
						})
					}
					return w.skip()
				})
			})
		}
		return w.skip()
	})
	if err == nil {
		err = w.end()
	}
	if err != nil {
		return nil, err
	}
	switch {
	case !sawMeta || len(t.Bindings) == 0:
		return nil, &Error{File: path, Key: "metadata.task.inst_to_name", Msg: "missing: not an OmniGibson task template"}
	case !sawState:
		return nil, &Error{File: path, Key: "state", Msg: "missing: the template holds no saved state"}
	}
	for i := range t.Objects {
		o := &t.Objects[i]
		if st, ok := states[o.Name]; ok {
			o.State, o.hasState = st, true
		}
	}
	return t, nil
}

func sceneObject(name string, ii *rawInitInfo) (SceneObject, error) {
	a := &ii.Args
	o := SceneObject{Name: name, Category: a.Category, Model: a.Model, FixedBase: a.FixedBase, Scale: [3]float64{1, 1, 1}}
	switch s := a.Scale.(type) {
	case nil:
	case json.Number:
		f, err := s.Float64()
		if err != nil {
			return o, fmt.Errorf("args.scale: %v", err)
		}
		o.Scale = [3]float64{f, f, f}
	case []any:
		if len(s) != 3 {
			return o, fmt.Errorf("args.scale: expected [x, y, z], found %d values", len(s))
		}
		for k, v := range s {
			n, ok := v.(json.Number)
			f, err := n.Float64()
			if !ok || err != nil {
				return o, fmt.Errorf("args.scale[%d]: not a number", k)
			}
			o.Scale[k] = f
		}
	default:
		return o, fmt.Errorf("args.scale: expected a number or [x, y, z]")
	}
	for k, s := range o.Scale {
		if !(s > 0) || math.IsInf(s, 0) {
			return o, fmt.Errorf("args.scale[%d]: %v is not a positive scale", k, s)
		}
	}
	switch r := a.InRooms.(type) {
	case nil:
	case string:
		o.InRooms = strings.Split(r, ",")
	case []any:
		for _, v := range r {
			if s, ok := v.(string); ok {
				o.InRooms = append(o.InRooms, s)
			}
		}
	}
	return o, nil
}

// Instance is one instance file (*-tro_state.json): the task-relevant
// objects and systems keyed by BDDL instance, and the robot poses. Every
// other object keeps its template state.
type Instance struct {
	Path    string
	Objects map[string]ObjectState // by BDDL instance
	Systems map[string]*System     // by BDDL instance of the substance
	Robots  []RobotPose
}

// ReadInstance reads an instance file.
func ReadInstance(path string) (*Instance, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readInstance(f, path)
}

func readInstance(r io.Reader, path string) (*Instance, error) {
	w := newWalker(r, path)
	in := &Instance{Path: path, Objects: map[string]ObjectState{}, Systems: map[string]*System{}}
	err := w.object(func(k string) error {
		if k == "robot_poses" {
			var err error
			in.Robots, err = w.readRobotPoses()
			return err
		}
		e, err := w.readEntry()
		if err != nil {
			return err
		}
		if e.isSystem() {
			s, err := e.system()
			if err != nil {
				return w.located(err)
			}
			in.Systems[k] = s
			return nil
		}
		st, err := e.object()
		if err != nil {
			return w.located(err)
		}
		in.Objects[k] = st
		return nil
	})
	if err == nil {
		err = w.end()
	}
	if err != nil {
		return nil, err
	}
	if len(in.Objects)+len(in.Systems) == 0 {
		return nil, &Error{File: path, Msg: "no task-relevant objects: not an OmniGibson instance file"}
	}
	return in, nil
}
