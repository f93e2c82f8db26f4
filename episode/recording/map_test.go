package recording

import (
	"strings"
	"testing"

	"github.com/openbddl/bddl/predicates"
)

func TestParseMap(t *testing.T) {
	t.Parallel()
	m, err := ParseMap("m.yaml", []byte(`activity: putting_away
agent:
  instance: agent.n.01_2
  footprint: [0.8, 0.5, 1.5]
  base: odom
  gripper: observation.state:left_gripper
  gripper_closed_above: 0.3
control_frequency: 15
names:
  apple: apple.n.01_1
rooms:
  kitchen_0: [0, 0, 4, 3]
static:
  table.n.02_1: {aabb: [1, 1, 0, 2, 1.6, 0.75]}
`))
	if err != nil {
		t.Fatal(err)
	}
	if m.Activity != "putting_away" || m.Agent.Instance != "agent.n.01_2" || m.Agent.Footprint != [3]float64{0.8, 0.5, 1.5} ||
		m.BaseStream != "odom" || m.GripperStream != "observation.state" || m.GripperValue != "left_gripper" || m.Agent.GripperClosed != 0.3 ||
		m.ControlFrequency != 15 || m.Names["apple"] != "apple.n.01_1" || len(m.Agent.Rooms) != 1 || m.Agent.Rooms[0].Max != [2]float64{4, 3} ||
		!m.Static["table.n.02_1"].Has(predicates.FieldAABB) {
		t.Fatalf("map %+v", m)
	}
	fixed, err := ParseMap("m.yaml", []byte("agent:\n  base_pose: [1, 2, 0.5]\n"))
	if err != nil || fixed.BaseStream != "fixed" || fixed.Agent.Base != [3]float64{1, 2, 0.5} || fixed.Agent.Footprint != DefaultFootprint {
		t.Fatalf("fixed base: %+v, %v", fixed, err)
	}
}

func TestParseMapErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ text, want string }{
		{"agent: 3", "m.yaml:1:8: agent: expected a mapping"},
		{"agent:\n  footprint: [1, 2]", "m.yaml:2:14: agent.footprint: expected a list of 3 numbers"},
		{"agent:\n  footprint: [1, 0, 2]", "length, width and height must be above 0"},
		{"agent:\n  wheels: 4", "m.yaml:2:3: agent.wheels: unknown field"},
		{"rooms:\n  kitchen: [0, 0, 1, 1]", "expected a room instance"},
		{"rooms:\n  kitchen_0: [2, 0, 1, 1]", "x0 > x1"},
		{"names:\n  a: x.n.01_1\n  b: X.n.01_1", "already the instance of a"},
		{"control_frequency: -1", "must be above 0"},
		{"static:\n  table.n.02_1: {aabb: [2, 0, 0, 1, 1, 1]}", "m.yaml:2: static.table.n.02_1.aabb"},
		{"bogus: 1", "unknown section"},
		{"[1, 2]", "expected a mapping"},
		{"a: [", "m.yaml:"},
	} {
		if _, err := ParseMap("m.yaml", []byte(tc.text)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseMap(%q) = %v, want an error with %q", tc.text, err, tc.want)
		}
	}
}

func FuzzParseMap(f *testing.F) {
	f.Add([]byte("agent:\n  footprint: [0.6, 0.6, 1.2]\n  gripper: s:v\nnames:\n  a: b\nrooms:\n  kitchen_0: [0, 0, 1, 1]\n"))
	f.Add([]byte("static:\n  t.n.01_1: {aabb: [0, 0, 0, 1, 1, 1]}\nactivity: x\n"))
	f.Add([]byte("a: &x [*x]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseMap("f.yaml", data)
		if err != nil {
			return
		}
		for _, r := range m.Agent.Rooms {
			if r.Min[0] > r.Max[0] || r.Min[1] > r.Max[1] {
				t.Fatalf("room %+v accepted", r)
			}
		}
		if m.Agent.Footprint[0] <= 0 || m.Agent.Footprint[1] <= 0 || m.Agent.Footprint[2] <= 0 {
			t.Fatalf("footprint %v accepted", m.Agent.Footprint)
		}
	})
}

func FuzzParseAnnotationFile(f *testing.F) {
	f.Add([]byte(`{"source": "human", "success": 1.0, "taxonomy": "{\"failure_category\": \"none\"}"}`))
	f.Add([]byte(`{"success": true, "taxonomy": {"severity": 2}, "timestamp": 17}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := ParseAnnotationFile("f.json", data)
		if err != nil {
			return
		}
		b, err := ParseAnnotationFile("f.json", a.MarshalFile())
		if err != nil || *a != *b {
			t.Fatalf("round trip: %+v -> %+v, %v", a, b, err)
		}
		ParseTaxonomy(a.Taxonomy)
	})
}
