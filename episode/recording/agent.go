package recording

import (
	"math"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/predicates"
)

// DefaultAgent is the agent instance when no map names one: the one
// BEHAVIOR-1K definitions declare.
const DefaultAgent = "agent.n.01_1"

// DefaultFootprint is the agent's box when no map gives one: 0.6 m along
// its heading, 0.6 m across, 1.2 m high, standing on the floor (z = 0) —
// a mobile manipulator's base with its arm folded.
var DefaultFootprint = [3]float64{0.6, 0.6, 1.2}

// DefaultGripperClosed is the gripper value above which it counts as
// closed when no map says otherwise (DROID/Oopsie's gripper_position runs
// from 0, open, to 1, closed).
const DefaultGripperClosed = 0.5

// Room is a rectangle of the floor plan: a room instance (kitchen_0) and
// its x, y bounds.
type Room struct {
	Name     string
	Min, Max [2]float64
}

// Agent makes the robot an instance of the activity.
type Agent struct {
	// Instance is the agent's instance ("" for DefaultAgent).
	Instance string
	// Footprint is the box's length along the heading, width and height
	// (m); its bottom is at z = 0, its centre under the base.
	Footprint [3]float64
	// Base is the fixed base pose (x, y, yaw) used without a base stream.
	Base [3]float64
	// Rooms is the floor plan: with it, the agent's room is the first
	// room holding its base (none outside every room); without, the room
	// is not recorded.
	Rooms []Room
	// GripperClosed is the value above which the gripper is closed.
	GripperClosed float64
}

// DefaultAgentConfig is the agent with no map.
func DefaultAgentConfig() Agent {
	return Agent{Instance: DefaultAgent, Footprint: DefaultFootprint, GripperClosed: DefaultGripperClosed}
}

// gripper states
const (
	gripperUnknown = iota
	gripperOpen
	gripperClosed
)

// agentState is the agent's recorded fields, written when they change.
type agentState struct {
	a       *Agent
	obj     episode.Object
	x, y, w float64 // last pose written
	room    string
	grip    int
	first   bool
}

// RoomOf is the room holding a point, "" when none does.
func (a *Agent) RoomOf(x, y float64) string {
	for _, r := range a.Rooms {
		if x >= r.Min[0] && x <= r.Max[0] && y >= r.Min[1] && y <= r.Max[1] {
			return r.Name
		}
	}
	return ""
}

// Box is the agent's oriented box at a base pose: corners 0–3 the bottom
// face, 4–7 the top face, each face in cyclic order.
func (a *Agent) Box(x, y, yaw float64) predicates.OBB {
	var b predicates.OBB
	c, s := math.Cos(yaw), math.Sin(yaw)
	hl, hw := a.Footprint[0]/2, a.Footprint[1]/2
	face := [4][2]float64{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}
	for i, z := range [2]float64{0, a.Footprint[2]} {
		for j, d := range face {
			lx, ly := d[0]*hl, d[1]*hw
			b[i*4+j] = [3]float64{x + c*lx - s*ly, y + s*lx + c*ly, z}
		}
	}
	return b
}

// update sets the fields that changed since the last step; false when
// none did.
func (st *agentState) update(x, y, yaw float64, grip int) bool {
	o := &st.obj
	o.Set, o.Null = 0, 0
	if st.first || x != st.x || y != st.y || yaw != st.w {
		o.Set |= predicates.FieldPosition | predicates.FieldOrientation | predicates.FieldOBB
		o.Pos = [3]float64{x, y, st.a.Footprint[2] / 2}
		o.Quat = [4]float64{0, 0, math.Sin(yaw / 2), math.Cos(yaw / 2)}
		o.OBB = st.a.Box(x, y, yaw)
		if len(st.a.Rooms) > 0 {
			if r := st.a.RoomOf(x, y); st.first || r != st.room {
				o.Set |= predicates.FieldRoom
				o.Room, st.room = r, r
			}
		}
		st.x, st.y, st.w = x, y, yaw
	}
	if grip != st.grip {
		switch grip {
		case gripperOpen: // an open gripper holds nothing
			o.Set |= predicates.FieldGraspedBy
			o.GraspedBy = ""
		default: // closed: what it holds is for the track to say
			if !st.first {
				o.Null |= predicates.FieldGraspedBy
			}
		}
		st.grip = grip
	}
	st.first = false
	return o.Set != 0 || o.Null != 0
}
