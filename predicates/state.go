package predicates

import (
	"errors"
	"fmt"
	"math"
)

// ObjectID is the dense id of an instance of a compiled program: the
// instances of :objects in order (a wildcard replaced by its concrete
// expansion), then the constants the definition names (room types such as
// kitchen). Ids are only meaningful for the program that issued them.
type ObjectID int32

// NoObject stands for "no object": a known absence of an attachment
// parent or a grasping agent, or an unused second argument.
const NoObject ObjectID = -1

// RoomID is a room instance (kitchen_0, ...) interned by a State.
type RoomID int32

// NoRoom is the RoomID of "not in any room".
const NoRoom RoomID = -1

// Field names one recorded quantity of an object; State.Clear forgets it.
// Fields are bits so several can be cleared at once.
type Field uint32

const (
	FieldExists Field = 1 << iota
	FieldPosition
	FieldOrientation
	FieldAABB
	FieldOBB
	FieldTemperature
	FieldMaxTemperature
	FieldJoints
	FieldOpenFraction
	FieldToggledOn
	FieldSliced
	FieldBroken
	FieldContacts
	FieldAttachedTo
	FieldGraspedBy
	FieldRoom
	FieldParticles
	FieldCloth
	// FieldBoxError is the uncertainty of an estimated box's placement
	// (SetBoxError).
	FieldBoxError

	// AllFields clears everything an object has recorded.
	AllFields Field = 1<<iota - 1
)

// Box is an axis-aligned box in world coordinates, in metres.
type Box struct {
	Min, Max [3]float64
}

// Center is the middle of the box.
func (b Box) Center() [3]float64 {
	return [3]float64{(b.Min[0] + b.Max[0]) / 2, (b.Min[1] + b.Max[1]) / 2, (b.Min[2] + b.Max[2]) / 2}
}

// Extent is the box's size along x, y and z.
func (b Box) Extent() [3]float64 {
	return [3]float64{b.Max[0] - b.Min[0], b.Max[1] - b.Min[1], b.Max[2] - b.Min[2]}
}

// OBB is an oriented box given by its 8 corners: 0–3 the bottom face in
// order around it, 4–7 the top face with corner 4+i above corner i, as
// RoboLab recordings write them.
type OBB [8][3]float64

// Joint is one articulation joint: its position and limits, and the
// direction in which it opens (+1 toward Hi, -1 toward Lo; 0 means +1).
type Joint struct {
	Q, Lo, Hi float64
	Dir       int8
}

// Particles are the counts of one substance at one object. A NaN field is
// not recorded; NoParticles has every field unrecorded.
type Particles struct {
	Inside       float64 // particles inside the object's container volume
	FillFraction float64 // particle volume / container volume
	Covering     float64 // particles covering (attached to, touching) it
	Absorbed     float64 // particles the object has absorbed
	AbsorbLimit  float64 // how many it can absorb; NaN uses the KB default
}

// NoParticles is a Particles record with nothing recorded.
var NoParticles = Particles{math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()}

// Cloth are a cloth's shape ratios (SEMANTICS.md B §1.6.3). NaN is not
// recorded.
type Cloth struct {
	AreaRatio     float64
	DiagonalRatio float64
	Smoothness    float64
}

// objState is what a State knows of one object beyond existence. Fields
// are valid only when their bit is set in has.
type objState struct {
	has       Field
	pos       [3]float64
	quat      [4]float64
	aabb      Box    // recorded AABB
	obb       frame3 // recorded OBB as a frame
	obbBox    Box    // the OBB's enclosing axis-aligned box
	temp      float64
	maxTemp   float64
	openFrac  float64
	joints    []Joint
	bothSides bool
	toggled   bool
	sliced    bool
	broken    bool
	attached  ObjectID
	grasped   ObjectID
	room      RoomID
	cloth     Cloth
	// errH, errV: how far the box may be off, horizontally and
	// vertically (SetBoxError).
	errH, errV float64
}

// State is what is known of a problem's objects at one step: existence,
// recorded quantities, and recorded facts (atoms recorded true or false),
// with a closed-world flag for purely symbolic recordings in which every
// atom not recorded is false. It is sized for one program (NewState) and
// updated in place, cheaply and without allocating once each kind of
// record has been written once. A State is not safe for concurrent use;
// give each goroutine its own.
type State struct {
	prog   *Program
	n      int // ids: objects then constants
	nObj   int
	closed bool

	exists []Truth
	obj    []objState

	// contacts holds one bitset row of words per object; a row is
	// meaningful only when the object has FieldContacts.
	contacts []uint64
	words    int

	// particles holds one record per (object, substance) pair, allocated
	// on first use.
	particles []Particles

	// facts holds recorded atom values per predicate: n entries for a
	// unary predicate, n*n for a binary one, allocated on first use.
	facts [][]Truth
	nFact int // number of facts set, so Reset knows whether to clear

	rooms     []string
	roomIndex map[string]RoomID
	roomType  []ObjectID // constant id of each room's type, or NoObject

	scratch scratch
}

// NewState returns an empty State for p: nothing recorded, existence
// unknown, open world. Constants (room types) always exist.
func NewState(p *Program) *State {
	s := &State{prog: p, n: p.numIDs, nObj: p.numObjects}
	s.exists = make([]Truth, s.n)
	s.obj = make([]objState, s.n)
	s.facts = make([][]Truth, numPreds)
	s.roomIndex = map[string]RoomID{}
	s.Reset()
	s.scratch.fit(p)
	return s
}

// NewState returns an empty State sized for the program.
func (p *Program) NewState() *State { return NewState(p) }

// Program returns the program the state was made for.
func (s *State) Program() *Program { return s.prog }

// Reset forgets everything recorded, keeping the allocated storage.
func (s *State) Reset() {
	for i := range s.exists {
		s.exists[i] = Unknown
		if i >= s.nObj {
			s.exists[i] = True
		}
		s.obj[i] = objState{joints: s.obj[i].joints[:0], attached: NoObject, grasped: NoObject, room: NoRoom}
	}
	for i := range s.particles {
		s.particles[i] = NoParticles
	}
	if s.nFact > 0 {
		for _, f := range s.facts {
			clear(f)
		}
		s.nFact = 0
	}
	s.closed = false
}

// SetClosedWorld marks the state as a purely symbolic recording: an atom
// with no recorded fact and nothing to compute it from is False rather
// than Unknown.
func (s *State) SetClosedWorld(closed bool) { s.closed = closed }

// ClosedWorld reports whether the state is closed-world.
func (s *State) ClosedWorld() bool { return s.closed }

func (s *State) check(id ObjectID) error {
	if uint(id) >= uint(s.nObj) {
		return fmt.Errorf("predicates: object id %d out of range [0, %d)", id, s.nObj)
	}
	return nil
}

func (s *State) checkRef(id ObjectID) error {
	if id == NoObject {
		return nil
	}
	return s.check(id)
}

// SetExists records whether the object exists (is bound to a live entity)
// at this step.
func (s *State) SetExists(id ObjectID, exists bool) error {
	if err := s.check(id); err != nil {
		return err
	}
	s.exists[id] = TruthOf(exists)
	return nil
}

// SetAllExist records that every object exists (or none does).
func (s *State) SetAllExist(exists bool) {
	for i := 0; i < s.nObj; i++ {
		s.exists[i] = TruthOf(exists)
	}
}

// Exists reports what is known of the object's existence.
func (s *State) Exists(id ObjectID) Truth {
	if uint(id) >= uint(s.n) {
		return Unknown
	}
	return s.exists[id]
}

// Clear forgets the given fields of an object; the atoms that depend on
// them become Unknown (or False in a closed world) unless a fact decides.
func (s *State) Clear(id ObjectID, fields Field) error {
	if err := s.check(id); err != nil {
		return err
	}
	if fields&FieldExists != 0 {
		s.exists[id] = Unknown
	}
	o := &s.obj[id]
	if fields&FieldParticles != 0 && s.particles != nil {
		ns := s.prog.numSubstances
		row := s.particles[int(id)*ns : int(id+1)*ns]
		for i := range row {
			row[i] = NoParticles
		}
	}
	if fields&FieldJoints != 0 {
		o.joints = o.joints[:0]
	}
	o.has &^= fields
	return nil
}

// SetPosition records the object's position (its base link, metres).
func (s *State) SetPosition(id ObjectID, pos [3]float64) error {
	if err := s.check(id); err != nil {
		return err
	}
	if !finite3(pos) {
		return fmt.Errorf("predicates: position of object %d is not finite: %v", id, pos)
	}
	s.obj[id].pos = pos
	s.obj[id].has |= FieldPosition
	return nil
}

// SetOrientation records the object's orientation quaternion [x, y, z, w].
func (s *State) SetOrientation(id ObjectID, quat [4]float64) error {
	if err := s.check(id); err != nil {
		return err
	}
	s.obj[id].quat = quat
	s.obj[id].has |= FieldOrientation
	return nil
}

// SetAABB records the object's axis-aligned bounding box. A box with a
// minimum above its maximum is rejected.
func (s *State) SetAABB(id ObjectID, box Box) error {
	if err := s.check(id); err != nil {
		return err
	}
	if !finite3(box.Min) || !finite3(box.Max) {
		return fmt.Errorf("predicates: box of object %d is not finite: %v", id, box)
	}
	for k := 0; k < 3; k++ {
		if box.Min[k] > box.Max[k] {
			return fmt.Errorf("predicates: box of object %d has min %v above max %v", id, box.Min, box.Max)
		}
	}
	o := &s.obj[id]
	o.aabb = box
	o.has |= FieldAABB
	return nil
}

// SetOBB records the object's oriented bounding box. The box-based tests
// that need an axis-aligned box use the OBB's enclosing box unless an AABB
// is recorded too.
func (s *State) SetOBB(id ObjectID, corners OBB) error {
	if err := s.check(id); err != nil {
		return err
	}
	f, ok := obbFrame(&corners)
	if !ok {
		return fmt.Errorf("predicates: oriented box of object %d: %w", id, errBadOBB)
	}
	o := &s.obj[id]
	o.obb = f
	o.obbBox = f.enclosing()
	o.has |= FieldOBB
	return nil
}

var errBadOBB = errors.New("degenerate or not finite: the bottom face (corners 0–3) needs two edges of non-zero length")

// CheckOBB reports whether corners make a usable oriented box, by the rule
// SetOBB applies, so decoders can reject a bad record before changing any
// state.
func CheckOBB(corners *OBB) error {
	if _, ok := obbFrame(corners); !ok {
		return errBadOBB
	}
	return nil
}

// SetTemperature records the current temperature in °C.
func (s *State) SetTemperature(id ObjectID, celsius float64) error {
	return s.setFloat(id, FieldTemperature, celsius, func(o *objState) *float64 { return &o.temp })
}

// SetMaxTemperature records the highest temperature reached so far, in °C.
func (s *State) SetMaxTemperature(id ObjectID, celsius float64) error {
	return s.setFloat(id, FieldMaxTemperature, celsius, func(o *objState) *float64 { return &o.maxTemp })
}

// SetOpenFraction records how far open the object is, 0 (closed) to 1
// (fully open), along its most open relevant joint.
func (s *State) SetOpenFraction(id ObjectID, fraction float64) error {
	return s.setFloat(id, FieldOpenFraction, fraction, func(o *objState) *float64 { return &o.openFrac })
}

// setFloat stores a float field; NaN clears it, as null does in recordings.
func (s *State) setFloat(id ObjectID, f Field, v float64, at func(*objState) *float64) error {
	if err := s.check(id); err != nil {
		return err
	}
	o := &s.obj[id]
	if math.IsNaN(v) {
		o.has &^= f
		return nil
	}
	*at(o) = v
	o.has |= f
	return nil
}

// SetJoints records the object's relevant joints (all joints given are
// taken as relevant, as the reference does without openable metadata).
// The slice is copied; nil clears.
func (s *State) SetJoints(id ObjectID, joints []Joint) error {
	if err := s.check(id); err != nil {
		return err
	}
	o := &s.obj[id]
	if joints == nil {
		o.joints = o.joints[:0]
		o.has &^= FieldJoints
		return nil
	}
	for _, j := range joints {
		if !finite3([3]float64{j.Q, j.Lo, j.Hi}) || j.Lo > j.Hi {
			return fmt.Errorf("predicates: joint of object %d is invalid: %+v", id, j)
		}
	}
	o.joints = append(o.joints[:0], joints...)
	o.has |= FieldJoints
	return nil
}

func finite3(v [3]float64) bool {
	for _, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// SetOpenBothSides records that the object opens to both sides
// (openable_both_sides): open then needs a joint open in each direction.
func (s *State) SetOpenBothSides(id ObjectID, both bool) error {
	if err := s.check(id); err != nil {
		return err
	}
	s.obj[id].bothSides = both
	return nil
}

func (s *State) setFlag(id ObjectID, f Field, v bool, at func(*objState) *bool) error {
	if err := s.check(id); err != nil {
		return err
	}
	o := &s.obj[id]
	*at(o) = v
	o.has |= f
	return nil
}

// SetToggledOn records the object's toggle state.
func (s *State) SetToggledOn(id ObjectID, on bool) error {
	return s.setFlag(id, FieldToggledOn, on, func(o *objState) *bool { return &o.toggled })
}

// SetSliced records the legacy sliced flag.
func (s *State) SetSliced(id ObjectID, sliced bool) error {
	return s.setFlag(id, FieldSliced, sliced, func(o *objState) *bool { return &o.sliced })
}

// SetBroken records whether the object is broken.
func (s *State) SetBroken(id ObjectID, broken bool) error {
	return s.setFlag(id, FieldBroken, broken, func(o *objState) *bool { return &o.broken })
}

// SetContacts records every object the object is in contact with now; an
// object absent from a recorded list is not in contact. Ids out of range
// are rejected. nil records "no contacts"; use Clear to forget.
func (s *State) SetContacts(id ObjectID, contacts []ObjectID) error {
	if err := s.check(id); err != nil {
		return err
	}
	for _, c := range contacts {
		if err := s.check(c); err != nil {
			return err
		}
	}
	if s.contacts == nil {
		s.words = (s.n + 63) / 64
		s.contacts = make([]uint64, s.n*s.words)
	}
	row := s.contacts[int(id)*s.words : int(id+1)*s.words]
	clear(row)
	for _, c := range contacts {
		row[c>>6] |= 1 << (uint(c) & 63)
	}
	s.obj[id].has |= FieldContacts
	return nil
}

// contactsKnown reports whether a's contact list is recorded, and if so
// whether b is in it.
func (s *State) contact(a, b ObjectID) (known, touching bool) {
	if uint(a) >= uint(s.nObj) || s.obj[a].has&FieldContacts == 0 {
		return false, false
	}
	return true, s.contacts[int(a)*s.words+int(b>>6)]&(1<<(uint(b)&63)) != 0
}

// SetAttachedTo records the object's attachment parent; NoObject records
// that it is attached to nothing.
func (s *State) SetAttachedTo(id, parent ObjectID) error {
	if err := s.check(id); err != nil {
		return err
	}
	if err := s.checkRef(parent); err != nil {
		return err
	}
	s.obj[id].attached = parent
	s.obj[id].has |= FieldAttachedTo
	return nil
}

// SetGraspedBy records the agent grasping the object; NoObject records
// that nothing grasps it.
func (s *State) SetGraspedBy(id, agent ObjectID) error {
	if err := s.check(id); err != nil {
		return err
	}
	if err := s.checkRef(agent); err != nil {
		return err
	}
	s.obj[id].grasped = agent
	s.obj[id].has |= FieldGraspedBy
	return nil
}

// Room interns a room instance name such as "kitchen_0" and returns its
// id. Do it once per room (at header time), not per step: it may allocate.
func (s *State) Room(name string) RoomID {
	if r, ok := s.roomIndex[name]; ok {
		return r
	}
	r := RoomID(len(s.rooms))
	s.rooms = append(s.rooms, name)
	s.roomIndex[name] = r
	typ, _ := s.prog.ObjectID(roomTypeOf(name))
	if typ != NoObject && int(typ) < s.nObj {
		typ = NoObject // a room type is a constant, never an instance
	}
	s.roomType = append(s.roomType, typ)
	return r
}

// RoomName returns the name of an interned room.
func (s *State) RoomName(r RoomID) string {
	if uint(r) >= uint(len(s.rooms)) {
		return ""
	}
	return s.rooms[r]
}

// roomTypeOf strips a room instance's "_<digits>" suffix: kitchen_0 →
// kitchen. A name without one is its own type.
func roomTypeOf(room string) string {
	i := len(room)
	for i > 0 && room[i-1] >= '0' && room[i-1] <= '9' {
		i--
	}
	if i > 0 && i < len(room) && room[i-1] == '_' {
		return room[:i-1]
	}
	return room
}

// SetRoom records the room instance the object is in (NoRoom: none).
func (s *State) SetRoom(id ObjectID, room RoomID) error {
	if err := s.check(id); err != nil {
		return err
	}
	if room != NoRoom && uint(room) >= uint(len(s.rooms)) {
		return fmt.Errorf("predicates: room id %d was not interned by this state", room)
	}
	s.obj[id].room = room
	s.obj[id].has |= FieldRoom
	return nil
}

// SetParticles records the counts of substance at object. NaN fields are
// unrecorded. The substance must be one the program knows as a substance
// (see Program.IsSubstance).
func (s *State) SetParticles(object, substance ObjectID, p Particles) error {
	if err := s.check(object); err != nil {
		return err
	}
	si := s.prog.substanceIndex(substance)
	if si < 0 {
		return fmt.Errorf("predicates: object %d is not a substance of this program", substance)
	}
	ns := s.prog.numSubstances
	if s.particles == nil {
		s.particles = make([]Particles, s.nObj*ns)
		for i := range s.particles {
			s.particles[i] = NoParticles
		}
	}
	s.particles[int(object)*ns+si] = p
	s.obj[object].has |= FieldParticles
	return nil
}

// particlesOf returns the record of (object, substance), or nil.
func (s *State) particlesOf(object, substance ObjectID) *Particles {
	if s.particles == nil || s.obj[object].has&FieldParticles == 0 {
		return nil
	}
	si := s.prog.substanceIndex(substance)
	if si < 0 {
		return nil
	}
	return &s.particles[int(object)*s.prog.numSubstances+si]
}

// SetBoxError records the uncertainty of the object's box: it may lie up
// to h metres off horizontally (along x and along y) and v metres off
// vertically, as when its placement was estimated rather than recorded.
// The geometric predicates decide an atom on such a box only when their
// margin exceeds the uncertainty of both boxes, else leave it Unknown
// (Geometry.IgnoreError restores the two-valued tests). Zero errors are
// an exact box.
func (s *State) SetBoxError(id ObjectID, h, v float64) error {
	if err := s.check(id); err != nil {
		return err
	}
	if !(h >= 0 && v >= 0) || math.IsInf(h, 0) || math.IsInf(v, 0) {
		return fmt.Errorf("predicates: box error of object %d must be finite and non-negative: %v, %v", id, h, v)
	}
	o := &s.obj[id]
	o.errH, o.errV = h, v
	o.has |= FieldBoxError
	return nil
}

// BoxError returns the recorded uncertainty of the object's box (zeros
// when none is recorded).
func (s *State) BoxError(id ObjectID) (h, v float64) {
	if uint(id) >= uint(s.nObj) || s.obj[id].has&FieldBoxError == 0 {
		return 0, 0
	}
	return s.obj[id].errH, s.obj[id].errV
}

// SetCloth records a cloth's shape ratios; NaN fields are unrecorded.
func (s *State) SetCloth(id ObjectID, c Cloth) error {
	if err := s.check(id); err != nil {
		return err
	}
	s.obj[id].cloth = c
	s.obj[id].has |= FieldCloth
	return nil
}

// SetFact records the value of a ground atom: True or False, or Unknown
// to unset it. For a unary predicate b is ignored. A recorded fact decides
// its atom before any quantity or geometry (SEMANTICS.md A3), but an atom
// over an object that does not exist is False whatever its fact says.
func (s *State) SetFact(pred PredID, a, b ObjectID, t Truth) error {
	if int(pred) >= numPreds || registry[pred].name == "" {
		return fmt.Errorf("predicates: predicate id %d out of range", pred)
	}
	if uint(a) >= uint(s.n) {
		return fmt.Errorf("predicates: object id %d out of range [0, %d)", a, s.n)
	}
	if t > True {
		return fmt.Errorf("predicates: invalid truth value %d", t)
	}
	idx := int(a)
	if registry[pred].arity == 2 {
		if uint(b) >= uint(s.n) {
			return fmt.Errorf("predicates: object id %d out of range [0, %d)", b, s.n)
		}
		idx = int(a)*s.n + int(b)
	}
	f := s.facts[pred]
	if f == nil {
		if t == Unknown {
			return nil
		}
		size := s.n
		if registry[pred].arity == 2 {
			size = s.n * s.n
		}
		f = make([]Truth, size)
		s.facts[pred] = f
	}
	f[idx] = t
	if t != Unknown {
		s.nFact++
	}
	return nil
}

// Fact returns the recorded value of an atom, Unknown when none is.
func (s *State) Fact(pred PredID, a, b ObjectID) Truth {
	if int(pred) >= numPreds || uint(a) >= uint(s.n) {
		return Unknown
	}
	f := s.facts[pred]
	if f == nil {
		return Unknown
	}
	if registry[pred].arity == 2 {
		if uint(b) >= uint(s.n) {
			return Unknown
		}
		return f[int(a)*s.n+int(b)]
	}
	return f[a]
}

// ClearFacts unsets every recorded fact.
func (s *State) ClearFacts() {
	for _, f := range s.facts {
		clear(f)
	}
	s.nFact = 0
}

// CopyFrom makes s a copy of t, reusing s's storage; both must belong to
// programs over the same objects. Use it to keep a baseline state.
func (s *State) CopyFrom(t *State) error {
	if s.n != t.n || s.nObj != t.nObj || s.prog.numSubstances != t.prog.numSubstances {
		return fmt.Errorf("predicates: CopyFrom between states of different programs")
	}
	s.closed = t.closed
	copy(s.exists, t.exists)
	for i := range t.obj {
		js := s.obj[i].joints
		s.obj[i] = t.obj[i]
		s.obj[i].joints = append(js[:0], t.obj[i].joints...)
	}
	if t.contacts != nil {
		if s.contacts == nil {
			s.words = t.words
			s.contacts = make([]uint64, len(t.contacts))
		}
		copy(s.contacts, t.contacts)
	}
	switch {
	case t.particles != nil:
		if s.particles == nil {
			s.particles = make([]Particles, len(t.particles))
		}
		copy(s.particles, t.particles)
	case s.particles != nil:
		for i := range s.particles {
			s.particles[i] = NoParticles
		}
	}
	for p := range t.facts {
		switch {
		case t.facts[p] == nil:
			clear(s.facts[p])
		case s.facts[p] == nil:
			s.facts[p] = append([]Truth(nil), t.facts[p]...)
		default:
			copy(s.facts[p], t.facts[p])
		}
	}
	s.nFact = t.nFact
	s.rooms = append(s.rooms[:0], t.rooms...)
	s.roomType = append(s.roomType[:0], t.roomType...)
	clear(s.roomIndex)
	for k, v := range t.roomIndex {
		s.roomIndex[k] = v
	}
	return nil
}
