package episode

import (
	"encoding/json"

	"github.com/openbddl/bddl/predicates"
)

// The recording as values: what the Writer writes and Reader.ReadStep
// returns. The checker never builds these; it decodes straight into a
// predicates.State (see Reader.Next).

// Version is the format version this package reads and writes.
const Version = 1

// Header is line 1 of a recording.
type Header struct {
	// Activity is the activity's name (baking_sugar_cookies,
	// baking_sugar_cookies-0) or the path of its problem file.
	Activity string
	// DT is the simulated seconds per step, 0 when not recorded.
	DT float64
	// ClosedWorld marks a symbolic recording: an atom not recorded true is
	// false.
	ClosedWorld bool
	// Steps is the number of step lines that follow, 0 when not declared.
	// A reader given it reports a file that ends early as truncated.
	Steps int
	// Objects are the initial fields of each instance.
	Objects map[string]*Object
	// Meta is free-form JSON, kept as written; nil when absent.
	Meta json.RawMessage
}

// Step is one line after the header: what changed at that step.
type Step struct {
	Step    int64
	T       float64 // seconds, when HasT
	HasT    bool
	Objects map[string]*Object
	// Facts and False are atoms recorded true or false from this step
	// on; Unset are atoms whose recorded value is forgotten.
	Facts, False, Unset []Atom
}

// Atom is a ground atom: ["pred", "a"] or ["pred", "a", "b"] in JSON. B
// is empty for a unary predicate.
type Atom struct {
	Pred, A, B string
}

// Object is the fields of one instance given on one line. Set has the
// bit of every field given a value, Null of every field given null (its
// value is forgotten); a field in neither keeps its previous value. Only
// the fields whose bit is in Set are meaningful.
type Object struct {
	Set, Null predicates.Field

	Exists         bool
	Pos            [3]float64
	Quat           [4]float64 // x, y, z, w
	AABB           predicates.Box
	OBB            predicates.OBB
	Temperature    float64 // °C
	MaxTemperature float64 // °C
	Joints         []Joint
	OpenFraction   float64
	ToggledOn      bool
	Sliced         bool
	Broken         bool
	Contacts       []string
	// AttachedTo, GraspedBy and Room name an instance (a room instance
	// such as kitchen_0 for Room); "" records "none".
	AttachedTo string
	GraspedBy  string
	Room       string
	// Particles are per substance; a record replaces that substance's
	// previous record, other substances keep theirs.
	Particles []Particles
	// Cloth replaces the previous ratios; NaN fields are not recorded.
	Cloth predicates.Cloth
	// BoxError is how far the box (aabb or obb) may be off: horizontally
	// (along x and along y) and vertically, in metres, when it was
	// estimated rather than measured (predicates.State.SetBoxError).
	BoxError [2]float64
}

// Joint is one articulation joint of an object. Dir is +1 when the joint
// opens toward Hi, -1 toward Lo, 0 when not recorded (+1).
type Joint struct {
	Name      string
	Q, Lo, Hi float64
	Dir       int8
}

// Particles are one substance's counts at an object. A NaN count is not
// recorded; Null records null for the whole substance (forgotten).
type Particles struct {
	Substance string
	Null      bool
	predicates.Particles
}

// Has reports whether the field was given a value.
func (o *Object) Has(f predicates.Field) bool { return o.Set&f != 0 }

// fieldNames are the JSON names of the object fields, by bit.
var fieldNames = []struct {
	f    predicates.Field
	name string
}{
	{predicates.FieldExists, "exists"},
	{predicates.FieldPosition, "pos"},
	{predicates.FieldOrientation, "quat"},
	{predicates.FieldAABB, "aabb"},
	{predicates.FieldOBB, "obb"},
	{predicates.FieldTemperature, "temperature"},
	{predicates.FieldMaxTemperature, "max_temperature"},
	{predicates.FieldJoints, "joints"},
	{predicates.FieldOpenFraction, "open_fraction"},
	{predicates.FieldToggledOn, "toggled_on"},
	{predicates.FieldSliced, "sliced"},
	{predicates.FieldBroken, "broken"},
	{predicates.FieldContacts, "contacts"},
	{predicates.FieldAttachedTo, "attached_to"},
	{predicates.FieldGraspedBy, "grasped_by"},
	{predicates.FieldRoom, "room"},
	{predicates.FieldParticles, "particles"},
	{predicates.FieldCloth, "cloth"},
	{predicates.FieldBoxError, "box_error"},
}

// FieldName is the JSON name of an object field ("aabb").
func FieldName(f predicates.Field) string {
	for _, n := range fieldNames {
		if n.f == f {
			return n.name
		}
	}
	return ""
}
