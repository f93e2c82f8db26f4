package libero

import (
	"strings"

	"github.com/openbddl/bddl/bddl"
)

// Task is a LIBERO problem with its names resolved against the knowledge
// table: what every name of :init and :goal refers to.
type Task struct {
	Problem *bddl.Problem
	Class   *ProblemClass // nil when unknown
	// Entities are the objects and fixtures, in declaration order
	// (fixtures first), with their category (nil when unknown).
	Entities []Entity
	// Regions are the problem's regions, keyed by reference TARGET_NAME.
	Regions []TaskRegion
	index   map[string]Ref
}

// Entity is a declared object or fixture.
type Entity struct {
	Name      string // folded
	Decl      bddl.Ident
	Type      bddl.Ident
	Category  *Category
	Fixture   bool
	Workspace bool // the problem class's own table or floor
}

// TaskRegion is a region with its target resolved.
type TaskRegion struct {
	*bddl.Region
	Ref    string
	Target int // entity index, -1 when undeclared
	// Site is the target model's site the region names, when it has no
	// ranges; nil otherwise or when the model has no such site.
	Site *Site
	// OnWorkspace: a rectangle region on the workspace, which LIBERO turns
	// into a TargetZone site from its first rectangle.
	OnWorkspace bool
}

// RefKind says what a name in an atom refers to.
type RefKind uint8

const (
	RefNone RefKind = iota
	RefEntity
	RefRegion
)

// Ref is what a name resolves to.
type Ref struct {
	Kind  RefKind
	Index int
}

// Resolve resolves a parsed LIBERO problem. It never fails: unresolved
// names resolve to RefNone, which validation reports.
func Resolve(p *bddl.Problem) *Task {
	t := &Task{Problem: p, index: map[string]Ref{}}
	t.Class, _ = Class(p.Name.Name)
	add := func(decls []*bddl.ObjectDecl, fixture bool) {
		for _, d := range decls {
			cat, _ := LookupCategory(d.Type.Name)
			for _, inst := range d.Instances {
				e := Entity{Name: inst.Key(), Decl: inst, Type: d.Type, Category: cat, Fixture: fixture}
				if fixture && t.Class != nil && d.Type.Key() == t.Class.WorkspaceCategory {
					e.Workspace = true
				}
				if _, dup := t.index[e.Name]; !dup {
					t.index[e.Name] = Ref{RefEntity, len(t.Entities)}
				}
				t.Entities = append(t.Entities, e)
			}
		}
	}
	if p.Libero != nil {
		add(p.Libero.Fixtures, true)
	}
	add(p.Objects, false)
	if p.Libero == nil {
		return t
	}
	for _, r := range p.Libero.Regions {
		tr := TaskRegion{Region: r, Ref: r.Ref(), Target: -1}
		if ref, ok := t.index[r.Target.Key()]; ok && ref.Kind == RefEntity {
			tr.Target = ref.Index
			e := &t.Entities[ref.Index]
			// LIBERO matches workspace regions by substring of the name
			// (libero_kitchen_tabletop_manipulation.py:69).
			if t.Class != nil && strings.Contains(tr.Ref, t.Class.Workspace) && (e.Workspace || e.Name == t.Class.Workspace) {
				tr.OnWorkspace = true
			} else if e.Category != nil {
				tr.Site, _ = e.Category.Site(r.Name.Key())
			}
		}
		if _, dup := t.index[tr.Ref]; !dup {
			t.index[tr.Ref] = Ref{RefRegion, len(t.Regions)}
		}
		t.Regions = append(t.Regions, tr)
	}
	return t
}

// Lookup resolves a name of an atom.
func (t *Task) Lookup(name string) Ref { return t.index[bddl.Fold(name)] }

// EntityIndex returns the index of the named entity, or -1.
func (t *Task) EntityIndex(name string) int {
	if r := t.Lookup(name); r.Kind == RefEntity {
		return r.Index
	}
	return -1
}

// Placement is where :init puts an entity: (On e region), (On e other) or
// (In e region).
type Placement struct {
	Atom   *bddl.Atom
	Entity int
	Pred   string // "on" or "in"
	Ref    Ref    // the region or the entity it is placed on
}

// Placements lists :init's placements in source order.
func (t *Task) Placements() []Placement {
	var out []Placement
	for _, f := range t.Problem.Init {
		a, ok := f.(*bddl.Atom)
		if !ok || len(a.Args) != 2 {
			continue
		}
		pred := a.Pred.Key()
		if pred != "on" && pred != "in" {
			continue
		}
		e := t.EntityIndex(a.Args[0].Name)
		ref := t.Lookup(a.Args[1].Name)
		if e < 0 || ref.Kind == RefNone {
			continue
		}
		out = append(out, Placement{Atom: a, Entity: e, Pred: pred, Ref: ref})
	}
	return out
}

// GoalAtoms returns the goal's atoms: the conjunction LIBERO checks.
func (t *Task) GoalAtoms() []*bddl.Atom {
	return atomsOf(t.Problem.Goal)
}

func atomsOf(f bddl.Formula) []*bddl.Atom {
	switch g := f.(type) {
	case *bddl.Atom:
		return []*bddl.Atom{g}
	case *bddl.And:
		var out []*bddl.Atom
		for _, x := range g.Xs {
			if a, ok := x.(*bddl.Atom); ok {
				out = append(out, a)
			}
		}
		return out
	}
	return nil
}

// InitAtoms returns :init's atoms.
func (t *Task) InitAtoms() []*bddl.Atom {
	var out []*bddl.Atom
	for _, f := range t.Problem.Init {
		if a, ok := f.(*bddl.Atom); ok {
			out = append(out, a)
		}
	}
	return out
}

// Radius is an entity's footprint radius: its model's, else DefaultRadius.
func (e *Entity) Radius() float64 {
	if e.Category != nil && e.Category.Radius > 0 {
		return e.Category.Radius
	}
	return DefaultRadius
}
