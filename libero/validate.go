package libero

import (
	"fmt"
	"math"
	"strings"

	"github.com/openbddl/bddl/bddl"
)

// Codes of validation findings; stable, so tests and tools match on them.
const (
	CodeProblemClass  = "libero-problem-class"
	CodeCategory      = "libero-category"
	CodePredicate     = "libero-predicate"
	CodeArity         = "libero-arity"
	CodeUndeclared    = "libero-undeclared"
	CodeRegionRef     = "libero-region-ref"
	CodeRegionTarget  = "libero-region-target"
	CodeSite          = "libero-site"
	CodeWorkspaceSite = "libero-workspace-ranges"
	CodeNoPlacement   = "libero-no-placement"
	CodeRangeInverted = "libero-range-inverted"
	CodeRangeEmpty    = "libero-range-empty"
	CodeRangeOutside  = "libero-range-outside"
	CodeYawOrder      = "libero-yaw-order"
	CodeCapacity      = "libero-region-capacity"
	CodeGoalAtInit    = "libero-goal-at-init"
	CodeContradiction = "libero-contradiction"
	CodeArticulation  = "libero-not-articulated"
	CodeDuplicate     = "libero-duplicate-name"
	CodeInObject      = "libero-in-object"
)

// Validate reports every problem of a parsed LIBERO definition at once,
// each positioned, with a code and a fix.
func Validate(p *bddl.Problem) bddl.Diagnostics {
	t := Resolve(p)
	v := &validator{t: t, p: p}
	v.class()
	v.entities()
	v.regions()
	v.atoms(t.InitAtoms())
	v.atoms(t.GoalAtoms())
	v.placements()
	v.capacity()
	v.goalVsInit()
	v.diags.Sort()
	return v.diags
}

type validator struct {
	t     *Task
	p     *bddl.Problem
	diags bddl.Diagnostics
}

func (v *validator) add(sev bddl.Severity, code string, r bddl.Range, fix, format string, args ...any) {
	v.diags = append(v.diags, &bddl.Diagnostic{Severity: sev, Code: code, Subject: r, Source: v.p.Source,
		Summary: fmt.Sprintf(format, args...), Detail: fix})
}

func (v *validator) class() {
	if v.t.Class != nil {
		return
	}
	var names []string
	for _, c := range problemClasses {
		names = append(names, c.Name)
	}
	v.add(bddl.Error, CodeProblemClass, v.p.Name.Range, "use one of "+strings.Join(names, ", ")+didYouMean(v.p.Name.Key(), names),
		"unknown problem class %s: LIBERO registers no such scene", v.p.Name.Name)
}

func (v *validator) entities() {
	seen := map[string]bool{}
	var cats []string
	for _, c := range categories {
		cats = append(cats, c.Name)
	}
	for _, e := range v.t.Entities {
		if seen[e.Name] {
			v.add(bddl.Error, CodeDuplicate, e.Decl.Range, "rename one of them", "%s is declared twice", e.Decl.Name)
		}
		seen[e.Name] = true
		if e.Category != nil || e.Workspace {
			continue
		}
		if e.Fixture && v.t.Class == nil {
			continue // the class is unknown: so is its workspace
		}
		fix := "use a category LIBERO registers (bddl libero categories)" + didYouMean(e.Type.Key(), cats)
		if e.Fixture && v.t.Class != nil {
			fix += fmt.Sprintf("; the workspace of %s is %s - %s", v.t.Class.Name, v.t.Class.Workspace, v.t.Class.WorkspaceCategory)
		}
		v.add(bddl.Error, CodeCategory, e.Type.Range, fix, "unknown category %s", e.Type.Name)
	}
}

func (v *validator) regions() {
	// A region is used when an atom names it, or names T_NAME for another
	// T: then the region's target is what the author got wrong.
	used := map[string]bool{}
	for _, a := range append(v.t.InitAtoms(), v.t.GoalAtoms()...) {
		for _, arg := range a.Args {
			key := arg.Key()
			used[key] = true
			if v.t.Lookup(key).Kind != RefNone {
				continue
			}
			for _, r := range v.t.Regions {
				if strings.HasSuffix(key, "_"+r.Name.Key()) {
					used[r.Ref] = true
				}
			}
		}
	}
	for i := range v.t.Regions {
		r := &v.t.Regions[i]
		if r.Region.Target.Name == "" {
			continue // the parser reported it
		}
		if r.Region.Target.Name != "" && r.Target < 0 {
			// LIBERO builds no site for it and fails only when :init or
			// :goal uses it (an unused one occurs in shipped tasks).
			sev, what := bddl.Warning, "; the region is unused, so LIBERO ignores it"
			if used[r.Ref] {
				sev, what = bddl.Error, ""
			}
			v.add(sev, CodeRegionTarget, r.Region.Target.Range,
				"declare "+r.Region.Target.Name+" in :fixtures or :objects, or target a declared one",
				"region %s targets %s, which is not declared%s", r.Name.Name, r.Region.Target.Name, what)
			continue
		}
		e := &v.t.Entities[r.Target]
		switch {
		case r.OnWorkspace:
			if !r.HasRanges() {
				v.add(bddl.Error, CodeWorkspaceSite, r.Name.Range, "give the region (:ranges ((x0 y0 x1 y1)))",
					"region %s on the workspace %s has no ranges; LIBERO reads its first rectangle", r.Name.Name, e.Decl.Name)
			}
		default:
			if e.Category == nil {
				break // reported as an unknown category
			}
			if r.Site == nil && r.HasRanges() && v.t.Class != nil {
				// LIBERO treats a region on anything but the workspace as a
				// site of its target (bddl_base_domain.py:596-601).
				v.add(bddl.Error, CodeRegionTarget, r.Region.Target.Range,
					fmt.Sprintf("a region with ranges targets the workspace, %s", v.t.Class.Workspace),
					"region %s has ranges but targets %s, which is not the workspace; LIBERO looks for a site %s on it and finds none",
					r.Name.Name, e.Decl.Name, r.Name.Name)
				break
			}
			if r.Site == nil {
				// The site exists on another declared thing: the target is
				// what is wrong.
				if other := v.siteOwner(r.Name.Key()); other != nil {
					v.add(bddl.Error, CodeRegionTarget, r.Region.Target.Range, "write (:target "+other.Decl.Name+")",
						"region %s targets %s, whose model has no site %s; %s's does", r.Name.Name, e.Decl.Name, r.Name.Name, other.Decl.Name)
					break
				}
				var names []string
				for _, s := range e.Category.Sites {
					names = append(names, s.Name)
				}
				fix := "a region on an object names one of its model's sites"
				if len(names) > 0 {
					fix += ": " + strings.Join(names, ", ") + didYouMean(r.Name.Key(), names)
				} else {
					fix += "; " + e.Type.Name + "'s model has none"
				}
				v.add(bddl.Error, CodeSite, r.Name.Range, fix, "%s's model (%s) has no site %s", e.Decl.Name, e.Type.Name, r.Name.Name)
			} else if r.HasRanges() {
				v.add(bddl.Warning, CodeSite, r.RangesRange, "delete the ranges",
					"ranges of a region on %s are ignored: LIBERO places objects in the site %s", e.Decl.Name, r.Name.Name)
			}
		}
		v.ranges(r, e)
	}
}

// siteOwner is a declared entity whose model has the named site.
func (v *validator) siteOwner(site string) *Entity {
	for i := range v.t.Entities {
		if c := v.t.Entities[i].Category; c != nil {
			if _, ok := c.Site(site); ok {
				return &v.t.Entities[i]
			}
		}
	}
	return nil
}

func (v *validator) ranges(r *TaskRegion, target *Entity) {
	for _, q := range r.Ranges {
		x0, y0, x1, y1 := q.V[0].Value, q.V[1].Value, q.V[2].Value, q.V[3].Value
		switch {
		case x1 < x0 || y1 < y0:
			v.add(bddl.Error, CodeRangeInverted, q.Range, "write (x_min y_min x_max y_max)",
				"inverted range: (x0 y0 x1 y1) needs x0 <= x1 and y0 <= y1")
			continue
		case x1 == x0 || y1 == y0:
			// The region's site is as wide as its first rectangle, and On
			// needs the object strictly inside it (site_object.py:78-80).
			v.add(bddl.Error, CodeRangeEmpty, q.Range, "give the rectangle an extent in x and in y",
				"empty range: the rectangle has no area, so (On obj region) can never hold")
			continue
		}
		if r.OnWorkspace && v.t.Class != nil && v.t.Class.Size[0] > 0 {
			hx, hy := v.t.Class.Size[0]/2, v.t.Class.Size[1]/2
			if x0 < -hx || x1 > hx || y0 < -hy || y1 > hy {
				v.add(bddl.Error, CodeRangeOutside, q.Range,
					fmt.Sprintf("keep x within ±%.3g and y within ±%.3g (the %s is %.3g × %.3g m)", hx, hy, target.Decl.Name, v.t.Class.Size[0], v.t.Class.Size[1]),
					"range outside the surface of %s", target.Decl.Name)
			}
		}
	}
	for _, y := range r.Yaw {
		if y.V[0].Value > y.V[1].Value {
			v.add(bddl.Error, CodeYawOrder, y.Range, "write (low high)", "yaw range out of order: %s > %s", y.V[0].Text, y.V[1].Text)
		}
	}
}

func (v *validator) atoms(atoms []*bddl.Atom) {
	var names []string
	for _, p := range predicates {
		names = append(names, p.Name)
	}
	for _, a := range atoms {
		pred, ok := LookupPredicate(a.Pred.Name)
		if !ok {
			v.add(bddl.Error, CodePredicate, a.Pred.Range, "LIBERO's predicates are "+strings.Join(names, ", ")+didYouMean(a.Pred.Key(), names),
				"unknown predicate %s", a.Pred.Name)
			continue
		}
		if pred.Arity >= 0 && len(a.Args) != pred.Arity {
			v.add(bddl.Error, CodeArity, a.Range, fmt.Sprintf("%s takes %d argument(s)", pred.Name, pred.Arity),
				"%s has %d argument(s), want %d", a.Pred.Name, len(a.Args), pred.Arity)
			continue
		}
		for i, arg := range a.Args {
			ref := v.t.Lookup(arg.Name)
			if ref.Kind == RefNone {
				v.unresolved(arg)
				continue
			}
			if i == 0 && (pred.Name == "on" || pred.Name == "in") && ref.Kind != RefEntity {
				v.add(bddl.Error, CodeUndeclared, arg.Range, "the first argument is an object or fixture", "%s is a region, not an object", arg.Name)
			}
			if i == 1 && pred.Name == "in" && ref.Kind == RefEntity {
				// ObjectState.check_contain calls the model's in_box, which
				// only sites define (site_object.py:35, target_zones.py:58).
				v.add(bddl.Error, CodeInObject, arg.Range, "write (In x "+arg.Name+"_SITE) with a site region of it, such as contain_region",
					"In against the object %s: LIBERO's object models have no in_box, so the check fails", arg.Name)
			}
			if (pred.Name == "turnon" || pred.Name == "turnoff") && ref.Kind == RefRegion {
				v.add(bddl.Error, CodeArticulation, arg.Range, "turn the object on or off, not its site",
					"%s of the site %s: LIBERO's sites have no turn_on/turn_off", a.Pred.Name, arg.Name)
				continue
			}
			if pred.Arity == 1 && pred.Name != "up" && pred.Name != "printjointstate" {
				v.articulated(a, pred.Name, arg, ref)
			}
		}
	}
}

// articulated checks that Open/Close/TurnOn/TurnOff name something with
// the matching thresholds.
func (v *validator) articulated(a *bddl.Atom, pred string, arg bddl.Term, ref Ref) {
	var e *Entity
	switch ref.Kind {
	case RefEntity:
		e = &v.t.Entities[ref.Index]
	case RefRegion:
		r := &v.t.Regions[ref.Index]
		if r.Target < 0 {
			return
		}
		e = &v.t.Entities[r.Target]
	}
	if e == nil || e.Category == nil {
		return
	}
	if thresholdFor(e.Category, pred) == nil {
		v.add(bddl.Error, CodeArticulation, arg.Range, "use it with an articulated object that defines "+pred,
			"%s (%s) has no %s threshold in LIBERO", arg.Name, e.Type.Name, pred)
	}
}

func thresholdFor(c *Category, pred string) *Threshold {
	if c == nil || c.Joint == nil {
		return nil
	}
	switch pred {
	case "open":
		return c.Joint.Open
	case "close":
		return c.Joint.Close
	case "turnon":
		return c.Joint.TurnOn
	case "turnoff":
		return c.Joint.TurnOff
	}
	return nil
}

func (v *validator) unresolved(arg bddl.Term) {
	key := arg.Key()
	for _, e := range v.t.Entities {
		if strings.HasPrefix(key, e.Name+"_") {
			var regs []string
			for _, r := range v.t.Regions {
				if r.Target >= 0 && v.t.Entities[r.Target].Name == e.Name {
					regs = append(regs, r.Ref)
				}
			}
			fix := "declare a region " + strings.TrimPrefix(key, e.Name+"_") + " with (:target " + e.Decl.Name + ") in :regions"
			if len(regs) > 0 {
				fix += "; the regions on " + e.Decl.Name + " are " + strings.Join(regs, ", ") + didYouMean(key, regs)
			}
			v.add(bddl.Error, CodeRegionRef, arg.Range, fix, "no region %s on %s", strings.TrimPrefix(key, e.Name+"_"), e.Decl.Name)
			return
		}
	}
	var all []string
	for _, e := range v.t.Entities {
		all = append(all, e.Name)
	}
	for _, r := range v.t.Regions {
		all = append(all, r.Ref)
	}
	v.add(bddl.Error, CodeUndeclared, arg.Range, "declare it in :objects or :fixtures, or refer to a region as TARGET_NAME"+didYouMean(key, all),
		"%s is not declared", arg.Name)
}

func (v *validator) placements() {
	placed := make([]bool, len(v.t.Entities))
	for _, a := range v.t.InitAtoms() {
		// A placement whose target is wrong is reported as such, not as
		// a missing placement.
		if p := a.Pred.Key(); (p == "on" || p == "in") && len(a.Args) == 2 {
			if i := v.t.EntityIndex(a.Args[0].Name); i >= 0 {
				placed[i] = true
			}
		}
	}
	for i, e := range v.t.Entities {
		if placed[i] || e.Workspace || e.Fixture && v.t.Class == nil {
			continue
		}
		sev := bddl.Error
		what := "LIBERO's sampler never places it"
		if e.Fixture {
			sev, what = bddl.Warning, "LIBERO leaves the fixture at its model's origin"
		}
		v.add(sev, CodeNoPlacement, e.Decl.Range, "add (On "+e.Decl.Name+" REGION) to :init",
			"%s has no placement in :init; %s", e.Decl.Name, what)
	}
}

// capacity reports regions asked to hold objects that cannot be kept apart
// there: robosuite's sampler needs their centres further apart than the
// sum of their radii (base_region_sampler.py:186-197), and gives up after
// 5000 tries with "Cannot place all objects".
func (v *validator) capacity() {
	byRegion := map[int][]Placement{}
	for _, pl := range v.t.Placements() {
		if pl.Pred == "on" && pl.Ref.Kind == RefRegion && v.t.Regions[pl.Ref.Index].OnWorkspace && !v.t.Entities[pl.Entity].Fixture {
			byRegion[pl.Ref.Index] = append(byRegion[pl.Ref.Index], pl)
		}
	}
	for ri, pls := range byRegion {
		r := &v.t.Regions[ri]
		for i := 0; i < len(pls); i++ {
			for j := i + 1; j < len(pls); j++ {
				a, b := &v.t.Entities[pls[i].Entity], &v.t.Entities[pls[j].Entity]
				if maxSpread(r.Ranges, a.Radius(), b.Radius()) <= a.Radius()+b.Radius() {
					v.add(bddl.Error, CodeCapacity, pls[j].Atom.Range,
						fmt.Sprintf("widen %s or give %s its own region", r.Name.Name, b.Decl.Name),
						"region %s cannot hold both %s and %s: their footprints (radii %.3g and %.3g m) always overlap",
						r.Ref, a.Decl.Name, b.Decl.Name, a.Radius(), b.Radius())
				}
			}
		}
	}
}

// sampleInterval is the interval robosuite draws a coordinate from in
// [lo, hi] for an object of radius r with ensure_object_boundary_in_range
// (base_region_sampler.py:76-80); numpy's uniform accepts the bounds
// crossed, so a range narrower than the object gives the crossed interval.
func sampleInterval(lo, hi, r float64) (float64, float64) {
	a, b := lo+r, hi-r
	return math.Min(a, b), math.Max(a, b)
}

// maxSpread is the largest distance between centres two objects of radii
// ra and rb can be sampled at in the rectangles.
func maxSpread(rects []bddl.Rect, ra, rb float64) float64 {
	best := 0.0
	for _, p := range rects {
		for _, q := range rects {
			ax0, ax1 := sampleInterval(p.V[0].Value, p.V[2].Value, ra)
			ay0, ay1 := sampleInterval(p.V[1].Value, p.V[3].Value, ra)
			bx0, bx1 := sampleInterval(q.V[0].Value, q.V[2].Value, rb)
			by0, by1 := sampleInterval(q.V[1].Value, q.V[3].Value, rb)
			dx := math.Max(math.Abs(ax1-bx0), math.Abs(bx1-ax0))
			dy := math.Max(math.Abs(ay1-by0), math.Abs(by1-ay0))
			best = math.Max(best, math.Hypot(dx, dy))
		}
	}
	return best
}

// goalVsInit reports goals already true at :init (every goal atom is an
// :init atom) and contradictory pairs (Open and Close, TurnOn and TurnOff
// of one thing) within :init or within the goal.
func (v *validator) goalVsInit() {
	initSet := map[string]bool{}
	for _, a := range v.t.InitAtoms() {
		initSet[atomKey(a)] = true
	}
	goal := v.t.GoalAtoms()
	if len(goal) > 0 {
		all := true
		for _, a := range goal {
			if !initSet[atomKey(a)] {
				all = false
				break
			}
		}
		if all {
			v.add(bddl.Error, CodeGoalAtInit, v.p.Goal.Info().Range, "change the goal or the :init so that the task asks for something",
				"the goal is already true at :init: every goal atom is an :init atom")
		}
	}
	v.contradictions(v.t.InitAtoms(), ":init")
	v.contradictions(goal, ":goal")
}

var opposite = map[string]string{"open": "close", "close": "open", "turnon": "turnoff", "turnoff": "turnon"}

func (v *validator) contradictions(atoms []*bddl.Atom, section string) {
	seen := map[string]*bddl.Atom{}
	for _, a := range atoms {
		if len(a.Args) != 1 {
			continue
		}
		k := a.Pred.Key() + " " + a.Args[0].Key()
		if op, ok := opposite[a.Pred.Key()]; ok {
			if b, ok := seen[op+" "+a.Args[0].Key()]; ok {
				v.add(bddl.Error, CodeContradiction, a.Range, "keep one of the two",
					"%s contradicts %s at %d:%d in %s", bddl.String(a), bddl.String(b), b.Range.Start.Line, b.Range.Start.Col, section)
			}
		}
		seen[k] = a
	}
}

func atomKey(a *bddl.Atom) string {
	var b strings.Builder
	b.WriteString(a.Pred.Key())
	for _, t := range a.Args {
		b.WriteString(" " + t.Key())
	}
	return b.String()
}

// didYouMean suggests the closest name, if one is close.
func didYouMean(name string, names []string) string {
	limit := max(2, len(name)/3)
	best, bestD := "", limit+1
	for _, n := range names {
		if d := bddl.EditDistance(name, n, limit); d < bestD {
			best, bestD = n, d
		}
	}
	if best != "" {
		return " (did you mean " + best + "?)"
	}
	return ""
}
