// Package libero reads, validates, samples and evaluates task definitions in
// LIBERO's dialect of BDDL against a documented table of what LIBERO's
// source defines: problem classes and their workspaces, object categories,
// articulated objects' joint thresholds and the sites of each model.
//
// Every fact comes from LIBERO (github.com/Lifelong-Robot-Learning/LIBERO)
// at commit 8f1084e3132a39270c3a13ebe37270a43ece2a01 (2025-03-15); each
// entry cites its file and line.
//
// The jobs of bddl's commands on LIBERO files are here too, so the
// command only reads flags: SampleDefinitions samples definitions into
// episode files, CheckFile checks one episode file against its
// definition, WriteText and WriteLine print a report. The package imports
// bddl and the ground utilities (internal/fsutil) only; activities and
// lsp import it, and a batch of episodes is run by
// internal/jobs/liberocheck.
package libero

import (
	"slices"
	"strings"
)

// SourceCommit is the LIBERO commit the knowledge table was read from.
const SourceCommit = "8f1084e3132a39270c3a13ebe37270a43ece2a01"

// ProblemClass is a scene class a problem names: (problem CLASS).
type ProblemClass struct {
	Name string // lower case, as register_problem keys it
	// Workspace is the fixture the class builds itself (the table or the
	// floor): its instance name, which region names are matched against
	// ("kitchen_table" in object_region_name), and its category, which
	// _load_fixtures_in_arena skips.
	Workspace         string
	WorkspaceCategory string
	// Size is the workspace's full size (x, y, thickness); zero for the
	// floor, which has no edge.
	Size [3]float64
	// Offset is workspace_offset, the world position region ranges are
	// relative to.
	Offset [3]float64
	Source string
}

// problemClasses: envs/problems/*.py, each class's __init__.
var problemClasses = []ProblemClass{
	{Name: "libero_tabletop_manipulation", Workspace: "main_table", WorkspaceCategory: "table",
		Size: [3]float64{1.0, 1.2, 0.05}, Offset: [3]float64{0, 0, 0.90},
		Source: "libero/libero/envs/problems/libero_tabletop_manipulation.py:13-19,45"},
	{Name: "libero_kitchen_tabletop_manipulation", Workspace: "kitchen_table", WorkspaceCategory: "kitchen_table",
		Size: [3]float64{1.0, 1.2, 0.05}, Offset: [3]float64{0, 0, 0.90},
		Source: "libero/libero/envs/problems/libero_kitchen_tabletop_manipulation.py:14-20,47"},
	{Name: "libero_living_room_tabletop_manipulation", Workspace: "living_room_table", WorkspaceCategory: "living_room_table",
		Size: [3]float64{0.70, 1.6, 0.024}, Offset: [3]float64{0, 0, 0.41},
		Source: "libero/libero/envs/problems/libero_living_room_tabletop_manipulation.py:14-20,47"},
	{Name: "libero_study_tabletop_manipulation", Workspace: "study_table", WorkspaceCategory: "study_table",
		Size: [3]float64{1.0, 1.2, 0.05}, Offset: [3]float64{-0.2, 0, 0.867},
		Source: "libero/libero/envs/problems/libero_study_tabletop_manipulation.py:14-20,46"},
	{Name: "libero_coffee_table_manipulation", Workspace: "coffee_table", WorkspaceCategory: "coffee_table",
		Size: [3]float64{0.70, 1.6, 0.024}, Offset: [3]float64{0, 0, 0.41},
		Source: "libero/libero/envs/problems/libero_coffee_table_manipulation.py:14-20,43"},
	{Name: "libero_floor_manipulation", Workspace: "floor", WorkspaceCategory: "floor",
		Offset: [3]float64{0, 0, -0.035},
		Source: "libero/libero/envs/problems/libero_floor_manipulation.py:14-18,42"},
}

// Category is an object class LIBERO registers.
type Category struct {
	Name   string // the key of OBJECTS_DICT
	Class  string // the Python class
	Source string // file:line of the class
	Model  string // the MJCF model file
	// Radius is the model's horizontal radius (its horizontal_radius_site),
	// the disc robosuite's placement sampler keeps objects apart by.
	Radius float64
	// BottomZ and TopZ are the model's bottom_site and top_site heights.
	BottomZ, TopZ float64
	// Yaw is the range of rotation about z the placement sampler draws for
	// a movable object of this class (its rotation when rotation_axis is
	// "z", else none).
	Yaw   [2]float64
	Joint *Articulation // nil: not articulated
	Sites []Site
}

// Articulation is an articulated model's joint thresholds: each predicate
// compares a joint position with a bound of a default range.
type Articulation struct {
	Open, Close, TurnOn, TurnOff *Threshold
}

// Threshold is "qpos Op Value"; Range is the default range the value is
// the min or max of, which the sampler draws initial joint positions from
// (OpenCloseSampler, TurnOnOffSampler).
type Threshold struct {
	Op    string // "<", ">", ">="
	Value float64
	Range [2]float64
}

// Holds reports whether the joint position q satisfies the threshold.
func (t *Threshold) Holds(q float64) bool {
	switch t.Op {
	case "<":
		return q < t.Value
	case ">":
		return q > t.Value
	case ">=":
		return q >= t.Value
	}
	return false
}

// Site is a named site of a model: a box, positioned relative to the
// model's root body, with the joints of the body holding it.
type Site struct {
	Name   string
	Pos    [3]float64
	Half   [3]float64 // half sizes, MuJoCo's box size
	Quat   [4]float64 // w x y z
	Joints []string
}

// Class returns the problem class named name (case-insensitive).
func Class(name string) (*ProblemClass, bool) {
	name = strings.ToLower(name)
	for i := range problemClasses {
		if problemClasses[i].Name == name {
			return &problemClasses[i], true
		}
	}
	return nil, false
}

// ProblemClasses lists every problem class.
func ProblemClasses() []ProblemClass { return slices.Clone(problemClasses) }

// Categories lists every registered object category.
func Categories() []Category { return slices.Clone(categories) }

var categoryIndex = func() map[string]int {
	m := make(map[string]int, len(categories))
	for i, c := range categories {
		m[c.Name] = i
	}
	return m
}()

// LookupCategory returns the registered category named name.
func LookupCategory(name string) (*Category, bool) {
	i, ok := categoryIndex[strings.ToLower(name)]
	if !ok {
		return nil, false
	}
	return &categories[i], true
}

// Site returns the category's site named name.
func (c *Category) Site(name string) (*Site, bool) {
	for i := range c.Sites {
		if c.Sites[i].Name == name {
			return &c.Sites[i], true
		}
	}
	return nil, false
}

// Predicate is one of LIBERO's predicates (predicates/__init__.py,
// VALIDATE_PREDICATE_FN_DICT) with its number of arguments.
type Predicate struct {
	Name  string
	Arity int // -1: any
}

// predicates: envs/predicates/__init__.py:4-18; arities from
// base_predicates.py (Up is declared binary but called with one argument,
// base_predicates.py:79-81).
var predicates = []Predicate{
	{"true", -1}, {"false", -1}, {"in", 2}, {"on", 2}, {"up", 1},
	{"printjointstate", 1}, {"open", 1}, {"close", 1}, {"turnon", 1}, {"turnoff", 1},
}

// LookupPredicate returns the predicate named name (case-insensitive).
func LookupPredicate(name string) (Predicate, bool) {
	for _, p := range predicates {
		if strings.EqualFold(p.Name, name) { // no allocation: On, Turnon as written
			return p, true
		}
	}
	return Predicate{}, false
}

// Predicates lists LIBERO's predicates.
func Predicates() []Predicate { return slices.Clone(predicates) }

// DefaultRadius is the footprint radius used for a category whose model
// gives none (no horizontal_radius_site): robosuite's most common value in
// LIBERO's models, 0.035 m.
const DefaultRadius = 0.035
