package recording

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/robolab"
	"github.com/openbddl/bddl/internal/fsutil"
)

// Map is the optional mapping file of a robot recording (--map):
//
//	activity: putting_away_groceries      # optional
//	agent:
//	  instance: agent.n.01_1              # default agent.n.01_1
//	  footprint: [0.6, 0.6, 1.2]          # length, width, height (m)
//	  base: observation.base_state        # the base pose stream, or "fixed"
//	  base_pose: [0, 0, 0]                # x, y, yaw of a fixed base
//	  gripper: observation.state:left_gripper   # stream[:named value], or "none"
//	  gripper_closed_above: 0.5
//	control_frequency: 15                 # Oopsie: when robot_profile gives none
//	names:                                # track names → instances
//	  apple: apple.n.01_1
//	rooms:                                # floor plan: x0, y0, x1, y1
//	  kitchen_0: [0, 0, 4, 3]
//	static:                               # as in a RoboLab map
//	  table.n.02_1: {aabb: [1, 1, 0, 2, 1.6, 0.75]}
type Map struct {
	File     string
	Activity string
	Agent    Agent
	// BaseStream and GripperStream name the streams ("" for the layout's
	// default; "fixed" and "none" to use none); GripperValue the named
	// value in a list-of-named-values stream.
	BaseStream, GripperStream, GripperValue string
	ControlFrequency                        float64
	Names                                   map[string]string
	Static                                  map[string]*episode.Object
}

const maxMapSize = 16 << 20

// LoadMap reads a map file (a regular file).
func LoadMap(path string) (*Map, error) {
	data, err := fsutil.ReadFile(path, maxMapSize)
	if err != nil {
		return nil, err
	}
	return ParseMap(path, data)
}

// ParseMap parses a map's text; name is used in messages
// (name:line:col: field: problem).
func ParseMap(name string, data []byte) (*Map, error) {
	m := &Map{File: name, Agent: DefaultAgentConfig(), Names: map[string]string{}}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %v", name, strings.TrimPrefix(err.Error(), "yaml: "))
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		return m, nil
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return nil, m.errAt(root, "", "expected a mapping (activity:, agent:, names:, rooms:, static:)")
	}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		var err error
		switch k.Value {
		case "activity":
			m.Activity, err = m.str(v, "activity")
		case "agent":
			err = m.parseAgent(v)
		case "control_frequency":
			m.ControlFrequency, err = m.positive(v, "control_frequency")
		case "names":
			err = m.parseNames(v)
		case "rooms":
			err = m.parseRooms(v)
		case "static":
			if v.ShortTag() != "!!null" {
				m.Static, err = robolab.ParseStatic(name, v)
			}
		default:
			err = m.errAt(k, k.Value, "unknown section: a map has activity:, agent:, control_frequency:, names:, rooms: and static:")
		}
		if err != nil {
			return nil, err
		}
	}
	return m, nil
}

func (m *Map) errAt(n *yaml.Node, field, msg string) error {
	if field != "" {
		msg = field + ": " + msg
	}
	return fmt.Errorf("%s:%d:%d: %s", m.File, n.Line, n.Column, msg)
}

func (m *Map) str(n *yaml.Node, field string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" || n.Value == "" {
		return "", m.errAt(n, field, "expected a name")
	}
	return n.Value, nil
}

func (m *Map) number(n *yaml.Node, field string) (float64, error) {
	var v float64
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!float") || n.Decode(&v) != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, m.errAt(n, field, "expected a number")
	}
	return v, nil
}

func (m *Map) positive(n *yaml.Node, field string) (float64, error) {
	v, err := m.number(n, field)
	if err == nil && v <= 0 {
		err = m.errAt(n, field, "must be above 0")
	}
	return v, err
}

func (m *Map) numbers(n *yaml.Node, field string, want int) ([]float64, error) {
	if n.Kind != yaml.SequenceNode || len(n.Content) != want {
		return nil, m.errAt(n, field, fmt.Sprintf("expected a list of %d numbers", want))
	}
	out := make([]float64, want)
	for i, c := range n.Content {
		v, err := m.number(c, fmt.Sprintf("%s[%d]", field, i))
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

func (m *Map) parseAgent(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return m.errAt(n, "agent", "expected a mapping (instance:, footprint:, base:, base_pose:, gripper:, gripper_closed_above:)")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f := "agent." + k.Value
		var err error
		switch k.Value {
		case "instance":
			m.Agent.Instance, err = m.str(v, f)
		case "footprint":
			var fp []float64
			if fp, err = m.numbers(v, f, 3); err == nil {
				if fp[0] <= 0 || fp[1] <= 0 || fp[2] <= 0 {
					err = m.errAt(v, f, "length, width and height must be above 0")
				}
				copy(m.Agent.Footprint[:], fp)
			}
		case "base":
			m.BaseStream, err = m.str(v, f)
		case "base_pose":
			var p []float64
			if p, err = m.numbers(v, f, 3); err == nil {
				copy(m.Agent.Base[:], p)
				if m.BaseStream == "" {
					m.BaseStream = "fixed"
				}
			}
		case "gripper":
			var s string
			if s, err = m.str(v, f); err == nil {
				m.GripperStream, m.GripperValue, _ = strings.Cut(s, ":")
			}
		case "gripper_closed_above":
			m.Agent.GripperClosed, err = m.number(v, f)
		default:
			err = m.errAt(k, f, "unknown field: agent: has instance, footprint, base, base_pose, gripper, gripper_closed_above")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (m *Map) parseNames(n *yaml.Node) error {
	if n.ShortTag() == "!!null" {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return m.errAt(n, "names", "expected a mapping of track names to instances")
	}
	taken := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			return m.errAt(k, "names", "expected a track name")
		}
		if _, dup := m.Names[k.Value]; dup {
			return m.errAt(k, "names."+k.Value, "given twice")
		}
		inst, err := m.str(v, "names."+k.Value)
		if err != nil {
			return err
		}
		if other, dup := taken[strings.ToLower(inst)]; dup {
			return m.errAt(v, "names."+k.Value, fmt.Sprintf("%s is already the instance of %s", inst, other))
		}
		taken[strings.ToLower(inst)] = k.Value
		m.Names[k.Value] = inst
	}
	return nil
}

func (m *Map) parseRooms(n *yaml.Node) error {
	if n.Kind != yaml.MappingNode {
		return m.errAt(n, "rooms", "expected a mapping of room instances (kitchen_0) to [x0, y0, x1, y1]")
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		f := "rooms." + k.Value
		if k.Kind != yaml.ScalarNode || !strings.Contains(k.Value, "_") {
			return m.errAt(k, f, "expected a room instance such as kitchen_0")
		}
		b, err := m.numbers(v, f, 4)
		if err != nil {
			return err
		}
		if b[0] > b[2] || b[1] > b[3] {
			return m.errAt(v, f, "x0 > x1 or y0 > y1")
		}
		m.Agent.Rooms = append(m.Agent.Rooms, Room{Name: k.Value, Min: [2]float64{b[0], b[1]}, Max: [2]float64{b[2], b[3]}})
	}
	return nil
}

// ActivityRef is the map's activity, a path relative to the map's
// directory when it names a file beside it; "" when not given.
func (m *Map) ActivityRef() string {
	a := m.Activity
	if a == "" || filepath.IsAbs(a) {
		return a
	}
	dir := filepath.Dir(m.File)
	for _, cand := range []string{a, a + ".bddl"} {
		if _, err := os.Stat(filepath.Join(dir, cand)); err == nil {
			return filepath.Join(dir, cand)
		}
	}
	if strings.ContainsAny(a, `/\`) || strings.HasSuffix(a, ".bddl") {
		return filepath.Join(dir, a)
	}
	return a
}
