package libero

import (
	"fmt"
	"math"
	"strings"

	"github.com/openbddl/bddl/bddl"
)

// Truth is a three-valued truth: Unknown (the zero value) when the step
// lacks what the predicate reads, so missing data never counts as success.
type Truth uint8

const (
	Unknown Truth = iota
	False
	True
)

func (t Truth) String() string { return [...]string{"unknown", "false", "true"}[t] }

// MarshalText writes the truth as a word.
func (t Truth) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

func truth(b bool) Truth {
	if b {
		return True
	}
	return False
}

// Evaluator evaluates LIBERO atoms on recorded steps with LIBERO's
// semantics (envs/predicates/base_predicates.py and
// envs/object_states/base_object_states.py).
type Evaluator struct {
	t       *Task
	step    *Step
	explain bool // say why: off on the per-step path, which allocates nothing
}

// NewEvaluator returns an evaluator of the task's atoms.
func NewEvaluator(t *Task) *Evaluator { return &Evaluator{t: t} }

// Result is an atom's truth at a step and why.
type Result struct {
	Atom   string `json:"atom"`
	Truth  Truth  `json:"truth"`
	Reason string `json:"reason,omitempty"`
	Line   int32  `json:"line"`
	Col    int32  `json:"col"`
}

// EvalAtoms evaluates atoms at one step, saying why each has its value.
func (ev *Evaluator) EvalAtoms(atoms []*bddl.Atom, s *Step) []Result {
	ev.step, ev.explain = s, true
	out := make([]Result, len(atoms))
	for i, a := range atoms {
		t, why := ev.eval(a, s)
		out[i] = Result{Atom: bddl.String(a), Truth: t, Reason: why, Line: a.Range.Start.Line, Col: a.Range.Start.Col}
	}
	return out
}

// Conjunction is the truth of the atoms' conjunction at one step, without
// reasons and without allocating: the per-step path of a check.
func (ev *Evaluator) Conjunction(atoms []*bddl.Atom, s *Step) Truth {
	ev.step, ev.explain = s, false
	t := True
	for _, a := range atoms {
		switch x, _ := ev.eval(a, s); x {
		case False:
			return False
		case Unknown:
			t = Unknown
		}
	}
	return t
}

// All is the conjunction of results: LIBERO's _check_success ANDs the goal
// atoms at one step.
func All(rs []Result) Truth {
	t := True
	for _, r := range rs {
		switch r.Truth {
		case False:
			return False
		case Unknown:
			t = Unknown
		}
	}
	return t
}

// contact reports whether the step records a and b in contact; a scan, as
// a step records few pairs.
func (ev *Evaluator) contact(a, b string) bool {
	for _, c := range ev.step.Contacts {
		if strings.EqualFold(c[0], a) && strings.EqualFold(c[1], b) || strings.EqualFold(c[0], b) && strings.EqualFold(c[1], a) {
			return true
		}
	}
	return false
}

// whyf is the reason f gives when the evaluator explains, else "": f is
// not called, so the per-step path formats nothing.
func (ev *Evaluator) whyf(f func() string) string {
	if !ev.explain {
		return ""
	}
	return f()
}

func (ev *Evaluator) eval(a *bddl.Atom, s *Step) (Truth, string) {
	p, ok := LookupPredicate(a.Pred.Name)
	if !ok {
		return Unknown, "unknown predicate"
	}
	pred := p.Name
	switch pred {
	case "true":
		return True, ""
	case "false":
		return False, ""
	}
	if p.Arity >= 0 && len(a.Args) != p.Arity {
		return Unknown, "wrong number of arguments"
	}
	switch pred {
	case "up":
		b, ok := s.Bodies[a.Args[0].Key()]
		if !ok {
			return Unknown, "no body " + a.Args[0].Name + " in the step"
		}
		// base_predicates.py:79-81.
		return truth(b.Pos[2] >= 1.0), ev.whyf(func() string { return fmt.Sprintf("z = %.4g (Up needs >= 1)", b.Pos[2]) })
	case "printjointstate":
		return True, ""
	case "open", "close", "turnon", "turnoff":
		return ev.joint(pred, a.Args[0], s)
	case "in", "on":
		return ev.binary(pred, a.Args[0], a.Args[1], s)
	}
	return Unknown, ""
}

// joint evaluates Open/Close/TurnOn/TurnOff: Open and TurnOn hold when
// some joint passes the threshold, Close and TurnOff when every joint does
// (base_object_states.py:100-130, 206-220). A site uses its own joints and
// its parent's thresholds.
func (ev *Evaluator) joint(pred string, arg bddl.Term, s *Step) (Truth, string) {
	name := arg.Key()
	var cat *Category
	switch ref := ev.t.Lookup(name); ref.Kind {
	case RefEntity:
		cat = ev.t.Entities[ref.Index].Category
	case RefRegion:
		if r := ev.t.Regions[ref.Index]; r.Target >= 0 {
			cat = ev.t.Entities[r.Target].Category
		}
	default:
		return Unknown, arg.Name + " is not declared"
	}
	if ref := ev.t.Lookup(name); ref.Kind == RefRegion && (pred == "turnon" || pred == "turnoff") {
		return Unknown, "sites have no turn_on/turn_off in LIBERO"
	}
	th := thresholdFor(cat, pred)
	if th == nil {
		return Unknown, arg.Name + " has no " + pred + " threshold"
	}
	qs, ok := s.Joints[name]
	if !ok {
		return Unknown, "no joints of " + arg.Name + " in the step"
	}
	any := pred == "open" || pred == "turnon"
	for _, q := range qs {
		h := th.Holds(q)
		if any && h {
			return True, ev.whyf(func() string { return fmt.Sprintf("qpos %.4g %s %.4g", q, th.Op, th.Value) })
		}
		if !any && !h {
			return False, ev.whyf(func() string { return fmt.Sprintf("qpos %.4g is not %s %.4g", q, th.Op, th.Value) })
		}
	}
	if any {
		return False, ev.whyf(func() string { return fmt.Sprintf("no joint %s %.4g (qpos %v)", th.Op, th.Value, qs) })
	}
	return True, ev.whyf(func() string { return fmt.Sprintf("every joint %s %.4g", th.Op, th.Value) })
}

func (ev *Evaluator) binary(pred string, x, y bddl.Term, s *Step) (Truth, string) {
	a := x.Key()
	body, ok := s.Bodies[a]
	if !ok {
		return Unknown, "no body " + x.Name + " in the step"
	}
	ref := ev.t.Lookup(y.Name)
	switch ref.Kind {
	case RefRegion:
		r := &ev.t.Regions[ref.Index]
		site, ok := s.Sites[r.Ref]
		if !ok {
			return Unknown, "no site " + y.Name + " in the step"
		}
		if pred == "in" {
			// In: site contact is always true, then SiteObject.in_box.
			ok := InBox(site, body.Pos)
			return truth(ok), ev.whyf(func() string {
				return fmt.Sprintf("%s at %v %s the box of %s", x.Name, round3(body.Pos), inOut(ok), y.Name)
			})
		}
		// On: SiteObject.under, and contact with the site's parent object
		// when it has one (a workspace region has none).
		if !Under(site, body.Pos) {
			return False, ev.whyf(func() string { return fmt.Sprintf("%s at %v is not on %s", x.Name, round3(body.Pos), y.Name) })
		}
		if !r.OnWorkspace && r.Target >= 0 {
			parent := ev.t.Entities[r.Target].Name
			if !ev.contact(parent, a) {
				return False, ev.whyf(func() string { return fmt.Sprintf("%s is above %s but not in contact with %s", x.Name, y.Name, parent) })
			}
		}
		return True, ""
	case RefEntity:
		other := ev.t.Entities[ref.Index].Name
		ob, ok := s.Bodies[other]
		if !ok {
			return Unknown, "no body " + y.Name + " in the step"
		}
		if pred == "in" {
			// ObjectState.check_contain calls the model's in_box, which
			// LIBERO's object models do not define.
			return Unknown, "In against an object: LIBERO's models define no in_box"
		}
		// ObjectState.check_ontop (base_object_states.py:78-94).
		dz := ob.Pos[2] <= body.Pos[2]
		c := ev.contact(other, a)
		dxy := math.Hypot(body.Pos[0]-ob.Pos[0], body.Pos[1]-ob.Pos[1])
		ok = dz && c && dxy < 0.03
		return truth(ok), ev.whyf(func() string {
			return fmt.Sprintf("above: %v, contact: %v, xy distance %.4g m (needs < 0.03)", dz, c, dxy)
		})
	}
	return Unknown, y.Name + " is not declared"
}

func inOut(b bool) string {
	if b {
		return "inside"
	}
	return "outside"
}

func round3(p [3]float64) [3]float64 {
	for i := range p {
		p[i] = math.Round(p[i]*1000) / 1000
	}
	return p
}

func matVec(m [9]float64, v [3]float64) [3]float64 {
	return [3]float64{
		m[0]*v[0] + m[1]*v[1] + m[2]*v[2],
		m[3]*v[0] + m[4]*v[1] + m[5]*v[2],
		m[6]*v[0] + m[7]*v[1] + m[8]*v[2],
	}
}

// InBox is SiteObject.in_box (site_object.py:35-56): the point is strictly
// inside the box pos ± |mat·size|, its floor lowered by 1 cm.
func InBox(s SiteBox, p [3]float64) bool {
	total := matVec(s.Mat, s.Size)
	for i := range total {
		total[i] = math.Abs(total[i])
	}
	for i := range 3 {
		lb, ub := s.Pos[i]-total[i], s.Pos[i]+total[i]
		if i == 2 {
			lb -= 0.01
		}
		if !(p[i] > lb && p[i] < ub) {
			return false
		}
	}
	return true
}

// Under is SiteObject.under (site_object.py:63-80): with d = mat·(p - pos),
// size.z - 0.005 < d.z < size.z + 0.10 and |d.xy| < size.xy.
func Under(s SiteBox, p [3]float64) bool {
	d := matVec(s.Mat, [3]float64{p[0] - s.Pos[0], p[1] - s.Pos[1], p[2] - s.Pos[2]})
	return s.Size[2]-0.005 < d[2] && d[2] < s.Size[2]+0.10 &&
		math.Abs(d[0]) < s.Size[0] && math.Abs(d[1]) < s.Size[1]
}
