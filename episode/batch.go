package episode

import "github.com/openbddl/bddl/predicates"

// A line is parsed and validated in full into a batch of operations
// before any of it touches the state, so a bad step leaves the state as
// it was (what --lenient needs) and applying cannot fail half-way. The
// batch's slices are reused from line to line: a steady stream of steps
// allocates nothing.

type opKind uint8

const (
	opExists opKind = iota + 1
	opPos
	opQuat
	opAABB
	opOBB
	opTemp
	opMaxTemp
	opJoints
	opOpenFraction
	opToggledOn
	opSliced
	opBroken
	opContacts
	opAttachedTo
	opGraspedBy
	opRoom
	opParticles
	opCloth
	opBoxError
	opClear // forget field
	opFact
)

// op is one change: a field of an object, a null, or an atom's value.
type op struct {
	kind  opKind
	flag  bool
	truth predicates.Truth
	pred  predicates.PredID
	field predicates.Field
	obj   predicates.ObjectID
	// ref is the attachment parent or grasping agent (NoObject: none),
	// the substance of particles, the second argument of a fact, or the
	// RoomID of room.
	ref predicates.ObjectID
	// off and n locate the op's numbers in nums, ids in ids, or joints
	// in joints.
	off, n int32
}

type batch struct {
	step    int64
	hasStep bool
	t       float64
	hasT    bool

	ops      []op
	nums     []float64
	ids      []predicates.ObjectID
	joints   []predicates.Joint
	jnames   [][2]int32 // joint names as spans of names
	names    []byte
	mentions []predicates.ObjectID // instances named for the first time
}

func (b *batch) reset() {
	b.step, b.hasStep, b.t, b.hasT = 0, false, 0, false
	b.ops = b.ops[:0]
	b.nums = b.nums[:0]
	b.ids = b.ids[:0]
	b.joints = b.joints[:0]
	b.jnames = b.jnames[:0]
	b.names = b.names[:0]
	b.mentions = b.mentions[:0]
}

// numsOf returns the numbers of an op.
func (b *batch) numsOf(o *op) []float64 { return b.nums[o.off : o.off+o.n] }

// scalar adds the op of a one-number field (temperature, max_temperature,
// open_fraction), false and nothing added when v is outside the field's
// range (an open fraction outside [0, 1]).
func (b *batch) scalar(f predicates.Field, id predicates.ObjectID, v float64) bool {
	kind := opTemp
	switch f {
	case predicates.FieldMaxTemperature:
		kind = opMaxTemp
	case predicates.FieldOpenFraction:
		kind = opOpenFraction
		if v < 0 || v > 1 {
			return false
		}
	}
	b.ops = append(b.ops, op{kind: kind, obj: id, off: int32(len(b.nums)), n: 1})
	b.nums = append(b.nums, v)
	return true
}
