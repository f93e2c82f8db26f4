package omnigibson

import (
	"encoding/json"
	"fmt"
	"math"
)

// Pose is a position (metres, world frame) and an orientation quaternion
// (x, y, z, w), as the simulator writes them.
type Pose struct {
	Pos  [3]float64
	Quat [4]float64
}

// RobotPose is the start pose of one robot model.
type RobotPose struct {
	Robot string
	Pose
}

// ObjectState is the saved state of one object: its root link's pose,
// joint positions and the non-kinematic states this package reads.
type ObjectState struct {
	Pose
	// HasPose is false for an entry without a root link (an object kind
	// this package does not know): it is then placed nowhere.
	HasPose bool
	// Joints are the joint positions in the model's joint order (radians
	// or metres); nil for an object without articulated joints.
	Joints []float64
	// NaN when the object has no such state.
	Temperature, MaxTemperature float64
	HasToggle, ToggledOn        bool
	// AttachedUUID is the simulator id of the attachment parent, -1 for
	// none; HasAttached is false when the object has no AttachedTo state.
	HasAttached  bool
	AttachedUUID int64
	// Modified counts the particles of each system (by system name) the
	// object has absorbed (ModifiedParticles); nil when it has no such
	// state.
	Modified map[string]float64
	// Limits are its saturation limits per system, and the defaults for
	// systems it does not list (NaN when not given): one default, or one
	// for visual and one for physical systems.
	Limits                         map[string]float64
	DefaultLimit                   float64
	DefaultVisual, DefaultPhysical float64
}

// System is the saved state of one particle system.
type System struct {
	// Positions of every particle: world frame for physical systems;
	// for visual systems relative to the link each particle is attached to.
	Positions [][3]float64
	// Groups are the per-object attachment groups of a visual system
	// (object name → particle count); nil for a physical system.
	Groups map[string]int
}

// Visual reports whether the system is a visual one (particles attached
// to objects in groups).
func (s *System) Visual() bool { return s.Groups != nil }

// N is the number of particles.
func (s *System) N() int { return len(s.Positions) }

// rawPose is root_link or a robot pose entry.
type rawPose struct {
	Pos         []float64 `json:"pos"`
	Ori         []float64 `json:"ori"`
	Position    []float64 `json:"position"`
	Orientation []float64 `json:"orientation"`
}

// rawEntry is one entry of object_registry, system_registry or of an
// instance file: an object (root_link) or a particle system (n_particles).
type rawEntry struct {
	RootLink   *rawPose    `json:"root_link"`
	JointPos   []float64   `json:"joint_pos"`
	NParticles *int        `json:"n_particles"`
	Positions  [][]float64 `json:"positions"`
	Groups     map[string]struct {
		NParticles int   `json:"n_particles"`
		Indices    []int `json:"particle_indices"`
	} `json:"groups"`
	NonKin struct {
		Temperature *struct {
			Temperature *float64 `json:"temperature"`
		} `json:"Temperature"`
		MaxTemperature *struct {
			MaxTemperature *float64 `json:"max_temperature"`
		} `json:"MaxTemperature"`
		ToggledOn *struct {
			Value *bool `json:"value"`
		} `json:"ToggledOn"`
		AttachedTo *struct {
			UUID *float64 `json:"attached_obj_uuid"`
		} `json:"AttachedTo"`
		ModifiedParticles map[string]any `json:"ModifiedParticles"`
		Saturated         map[string]any `json:"Saturated"`
	} `json:"non_kin"`
}

func vec3(v []float64, what string) ([3]float64, error) {
	var out [3]float64
	if len(v) != 3 {
		return out, fmt.Errorf("%s: expected [x, y, z], found %d numbers", what, len(v))
	}
	copy(out[:], v)
	return out, nil
}

// quat4 checks a quaternion (x, y, z, w) and normalises it; the simulator
// writes float32 values whose norm is 1 to about 1e-7.
func quat4(v []float64, what string) ([4]float64, error) {
	var out [4]float64
	if len(v) != 4 {
		return out, fmt.Errorf("%s: expected a quaternion [x, y, z, w], found %d numbers", what, len(v))
	}
	n := math.Sqrt(v[0]*v[0] + v[1]*v[1] + v[2]*v[2] + v[3]*v[3])
	if n < 0.5 || n > 1.5 {
		return out, fmt.Errorf("%s: quaternion %v is not a rotation (norm %.3g)", what, v, n)
	}
	for i := range out {
		out[i] = v[i] / n
	}
	return out, nil
}

func (p *rawPose) pose() (Pose, error) {
	pos, ori, pn, on := p.Pos, p.Ori, "pos", "ori"
	if pos == nil && ori == nil {
		pos, ori, pn, on = p.Position, p.Orientation, "position", "orientation"
	}
	var out Pose
	var err error
	if out.Pos, err = vec3(pos, pn); err != nil {
		return out, err
	}
	out.Quat, err = quat4(ori, on)
	return out, err
}

// object converts an object entry.
func (e *rawEntry) object() (ObjectState, error) {
	st := ObjectState{Temperature: math.NaN(), MaxTemperature: math.NaN(), AttachedUUID: -1,
		DefaultLimit: math.NaN(), DefaultVisual: math.NaN(), DefaultPhysical: math.NaN()}
	if e.RootLink != nil {
		p, err := e.RootLink.pose()
		if err != nil {
			return st, fmt.Errorf("root_link.%w", err)
		}
		st.Pose, st.HasPose = p, true
	}
	st.Joints = e.JointPos
	nk := &e.NonKin
	if nk.Temperature != nil && nk.Temperature.Temperature != nil {
		st.Temperature = *nk.Temperature.Temperature
	}
	if nk.MaxTemperature != nil && nk.MaxTemperature.MaxTemperature != nil {
		st.MaxTemperature = *nk.MaxTemperature.MaxTemperature
		// The simulator starts the maximum at -inf and may save a large
		// negative stand-in before the first update.
		if st.MaxTemperature < -273.15 {
			st.MaxTemperature = math.NaN()
		}
	}
	if nk.ToggledOn != nil && nk.ToggledOn.Value != nil {
		st.HasToggle, st.ToggledOn = true, *nk.ToggledOn.Value
	}
	if nk.AttachedTo != nil && nk.AttachedTo.UUID != nil {
		st.HasAttached, st.AttachedUUID = true, int64(*nk.AttachedTo.UUID)
	}
	if nk.ModifiedParticles != nil {
		st.Modified = map[string]float64{}
		for k, v := range nk.ModifiedParticles {
			f, ok := number(v)
			if !ok {
				return st, fmt.Errorf("non_kin.ModifiedParticles.%s: expected a count", k)
			}
			if k != "n_systems" {
				st.Modified[k] = f
			}
		}
	}
	if nk.Saturated != nil {
		st.Limits = map[string]float64{}
		for k, v := range nk.Saturated {
			f, ok := number(v)
			if !ok {
				return st, fmt.Errorf("non_kin.Saturated.%s: expected a count", k)
			}
			switch k {
			case "n_systems":
			case "default_limit":
				st.DefaultLimit = f
			case "default_visual_particle_limit":
				st.DefaultVisual = f
			case "default_physical_particle_limit":
				st.DefaultPhysical = f
			default:
				st.Limits[k] = f
			}
		}
	}
	return st, nil
}

// number reads a JSON number decoded with UseNumber.
func number(v any) (float64, bool) {
	n, ok := v.(json.Number)
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil && !math.IsInf(f, 0)
}

// system converts a particle-system entry.
func (e *rawEntry) system() (*System, error) {
	s := &System{Positions: make([][3]float64, len(e.Positions))}
	for i, p := range e.Positions {
		v, err := vec3(p, fmt.Sprintf("positions[%d]", i))
		if err != nil {
			return nil, err
		}
		s.Positions[i] = v
	}
	if e.NParticles != nil && *e.NParticles != len(e.Positions) {
		return nil, fmt.Errorf("n_particles: %d, but %d positions are listed", *e.NParticles, len(e.Positions))
	}
	if e.Groups != nil {
		s.Groups = make(map[string]int, len(e.Groups))
		for name, g := range e.Groups {
			n := g.NParticles
			if n == 0 {
				n = len(g.Indices)
			}
			if n < 0 || n > len(e.Positions) {
				return nil, fmt.Errorf("groups.%s.n_particles: %d is not a count of the system's %d particles", name, n, len(e.Positions))
			}
			s.Groups[name] = n
		}
	}
	return s, nil
}

// isSystem reports whether the entry is a particle system.
func (e *rawEntry) isSystem() bool {
	return e.RootLink == nil && (e.NParticles != nil || e.Positions != nil)
}

// readEntry decodes one registry entry and converts its pose errors into
// located errors.
func (w *walker) readEntry() (*rawEntry, error) {
	var e rawEntry
	if err := w.decode(&e); err != nil {
		return nil, err
	}
	return &e, nil
}

func (w *walker) located(err error) error {
	if err == nil {
		return nil
	}
	return &Error{File: w.file, Key: w.key(), Msg: err.Error()}
}

// readRobotPoses reads {robot: [{position, orientation}, ...]} keeping
// the file's order of robots (the first is the default).
func (w *walker) readRobotPoses() ([]RobotPose, error) {
	var out []RobotPose
	err := w.object(func(robot string) error {
		var poses []rawPose
		if err := w.decode(&poses); err != nil {
			return err
		}
		if len(poses) == 0 {
			return nil
		}
		p, err := poses[0].pose()
		if err != nil {
			return w.located(err)
		}
		out = append(out, RobotPose{Robot: robot, Pose: p})
		return nil
	})
	return out, err
}
