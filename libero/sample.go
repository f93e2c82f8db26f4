package libero

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/openbddl/bddl/bddl"
)

// Sampling follows LIBERO's placement (bddl_base_domain.py:562-729, and
// robosuite's sampler as LIBERO subclasses it in
// regions/base_region_sampler.py:127-215): :init's placements in source
// order; a fixture on a workspace region at any point of it with the
// region's yaw; a movable object at a point whose footprint disc (its
// model's horizontal radius) overlaps no object placed before it, up to
// 5000 tries; then objects on or in sites, then objects on objects.
// Deliberate deviations, each so that the sampled state satisfies :init
// as LIBERO's predicates read it, are listed in docs/libero.md.

// maxTries is robosuite's retry count per object (base_region_sampler.py:179).
const maxTries = 5000

// maxChecks bounds the footprint comparisons of one sample, so no
// definition (thousands of objects in one region) makes it run for long.
const maxChecks = 20_000_000

// Unplaceable says why a task could not be sampled: the region and the
// object that found no free point there, and what blocked it.
type Unplaceable struct {
	Literal  string   `json:"literal,omitempty"` // the :init atom that could not be made true
	Region   string   `json:"region"`
	Object   string   `json:"object"`
	Blockers []string `json:"blockers"`
	Tries    int      `json:"tries"`
	Reason   string   `json:"reason"`
}

func (u *Unplaceable) Error() string {
	msg := "cannot place " + u.Object
	if u.Region != "" { // no region: the object has no placement at all
		msg += " in " + u.Region
	}
	if len(u.Blockers) > 0 && u.Tries > 0 {
		msg += fmt.Sprintf(" after %d tries: its footprint always overlaps %s", u.Tries, strings.Join(u.Blockers, ", "))
	}
	if u.Reason != "" {
		msg += ": " + u.Reason
	}
	return msg
}

// Sample draws an initial state of the task from seed: one step in which
// :init holds. The same task and seed give the same step.
func Sample(t *Task, seed uint64) (Step, error) {
	if t.Class == nil {
		return Step{}, fmt.Errorf("unknown problem class %s", t.Problem.Name.Name)
	}
	s := &sampler{t: t, rng: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)),
		step:   Step{Bodies: map[string]Body{}, Sites: map[string]SiteBox{}, Joints: map[string][]float64{}, Contacts: [][2]string{}},
		placed: map[int]bool{}}
	pls := t.Placements()
	literal := func(err error, pl Placement) error {
		if u, ok := err.(*Unplaceable); ok && u.Literal == "" && pl.Atom != nil {
			u.Literal = bddl.String(pl.Atom)
		}
		return err
	}
	// 1. Workspace regions, in :init order.
	for _, pl := range pls {
		if pl.Ref.Kind == RefRegion && t.Regions[pl.Ref.Index].OnWorkspace && pl.Pred == "on" {
			if err := s.onWorkspace(pl); err != nil {
				return Step{}, literal(err, pl)
			}
		}
	}
	// 2. Sites of objects and fixtures, and objects on objects, each once
	// what it rests on is placed (LIBERO samples these after the
	// workspace, conditioned on the poses placed before).
	var pending []Placement
	for _, pl := range pls {
		if !(pl.Ref.Kind == RefRegion && t.Regions[pl.Ref.Index].OnWorkspace && pl.Pred == "on") {
			pending = append(pending, pl)
		}
	}
	for len(pending) > 0 {
		n := len(pending)
		var err error
		pending = slices.DeleteFunc(pending, func(pl Placement) bool {
			if err != nil {
				return false
			}
			support := pl.Ref.Index
			if pl.Ref.Kind == RefRegion {
				r := &t.Regions[pl.Ref.Index]
				if r.OnWorkspace {
					// In on a workspace region: LIBERO samples inside the
					// TargetZone site (InSiteRegionRandomSampler).
					err = literal(s.inWorkspace(pl), pl)
					return err == nil
				}
				support = r.Target
			}
			if support < 0 || !s.placed[support] {
				return false
			}
			if pl.Ref.Kind == RefRegion {
				err = literal(s.onSite(pl), pl)
			} else {
				s.onObject(pl)
			}
			return true
		})
		if err != nil {
			return Step{}, err
		}
		if len(pending) == n {
			pl := pending[0]
			what := ""
			if pl.Ref.Kind == RefRegion {
				what = t.Regions[pl.Ref.Index].Ref
			} else {
				what = t.Entities[pl.Ref.Index].Decl.Name
			}
			return Step{}, &Unplaceable{Literal: bddl.String(pl.Atom), Region: what, Object: t.Entities[pl.Entity].Decl.Name,
				Reason: "what it rests on is never placed"}
		}
	}
	for i, e := range t.Entities {
		if !s.placed[i] && !e.Workspace {
			return Step{}, &Unplaceable{Object: e.Decl.Name, Reason: "no placement in :init"}
		}
	}
	s.sites()
	s.joints()
	// Verify, as LIBERO's predicates would read the state.
	r := Check(t, []Step{s.step})
	if r.Init != True {
		var atoms []string
		for _, f := range r.InitFailures {
			atoms = append(atoms, fmt.Sprintf("%s (%d:%d, %s: %s)", f.Literal, f.Line, f.Col, f.Value, f.Detail))
		}
		return Step{}, errors.New("the sampled state does not satisfy :init: " + strings.Join(atoms, "; "))
	}
	return s.step, nil
}

type sampler struct {
	t      *Task
	rng    *rand.Rand
	step   Step
	placed map[int]bool
	order  []int // movable and fixture entities placed on the workspace
	checks int   // footprint comparisons so far
}

func yawQuat(yaw float64) [4]float64 {
	return [4]float64{math.Cos(yaw / 2), 0, 0, math.Sin(yaw / 2)}
}

func (s *sampler) uniform(lo, hi float64) float64 {
	if hi <= lo {
		return lo
	}
	return lo + s.rng.Float64()*(hi-lo)
}

// coord draws a coordinate of a centre in [lo, hi] for a footprint of
// radius r: within [lo+r, hi-r] when that is not empty, as robosuite
// draws; else inside the rectangle (robosuite then draws from the crossed
// interval, which can leave the rectangle and so the region's site).
func (s *sampler) coord(lo, hi, r float64) float64 {
	if r > 0 && lo+r < hi-r {
		return s.uniform(lo+r, hi-r)
	}
	m, w := (lo+hi)/2, (hi-lo)/2
	return m + (s.rng.Float64()*2-1)*w*0.98
}

// workspaceSite is the TargetZone LIBERO builds from a workspace region's
// first rectangle (libero_kitchen_tabletop_manipulation.py:69-94;
// target_zones.py:28-56, zone height 0.007).
func (s *sampler) workspaceSite(r *TaskRegion) SiteBox {
	off := s.t.Class.Offset
	q := r.Ranges[0]
	return SiteBox{
		Pos:  [3]float64{(q.V[0].Value+q.V[2].Value)/2 + off[0], (q.V[1].Value+q.V[3].Value)/2 + off[1], off[2]},
		Mat:  [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1},
		Size: [3]float64{(q.V[2].Value - q.V[0].Value) / 2, (q.V[3].Value - q.V[1].Value) / 2, 0.007},
	}
}

func (s *sampler) onWorkspace(pl Placement) error {
	t := s.t
	r := &t.Regions[pl.Ref.Index]
	e := &t.Entities[pl.Entity]
	if !r.HasRanges() {
		return &Unplaceable{Region: r.Ref, Object: e.Decl.Name, Reason: "the region has no ranges"}
	}
	site := s.workspaceSite(r)
	s.step.Sites[r.Ref] = site
	q := r.Ranges[0]
	rad := e.Radius()
	yaw := [2]float64{}
	if e.Fixture {
		if n := len(r.Yaw); n > 0 { // LIBERO keeps the last (bddl_utils.py:35-36)
			yaw = [2]float64{r.Yaw[n-1].V[0].Value, r.Yaw[n-1].V[1].Value}
		}
	} else if e.Category != nil {
		yaw = e.Category.Yaw
	}
	blockers := map[string]bool{}
	if !e.Fixture {
		// Fail fast when a placed footprint covers every point that can be
		// drawn: robosuite would spend its 5000 tries and fail the same.
		x0, x1 := sampleInterval(q.V[0].Value, q.V[2].Value, rad)
		y0, y1 := sampleInterval(q.V[1].Value, q.V[3].Value, rad)
		off := t.Class.Offset
		for _, o := range s.order {
			b := s.step.Bodies[t.Entities[o].Name]
			dx := math.Max(math.Abs(x0+off[0]-b.Pos[0]), math.Abs(x1+off[0]-b.Pos[0]))
			dy := math.Max(math.Abs(y0+off[1]-b.Pos[1]), math.Abs(y1+off[1]-b.Pos[1]))
			if math.Hypot(dx, dy) <= rad+t.Entities[o].Radius() {
				return &Unplaceable{Region: r.Ref, Object: e.Decl.Name, Blockers: []string{t.Entities[o].Decl.Name}, Tries: 0,
					Reason: "every point the sampler can draw is within the footprint of " + t.Entities[o].Decl.Name}
			}
		}
	}
	for try := 0; try < maxTries; try++ {
		var x, y float64
		if e.Fixture {
			// Fixtures: ensure_object_boundary_in_range=False (bddl_base_domain.py:612).
			x, y = s.coord(q.V[0].Value, q.V[2].Value, 0), s.coord(q.V[1].Value, q.V[3].Value, 0)
		} else {
			x, y = s.coord(q.V[0].Value, q.V[2].Value, rad), s.coord(q.V[1].Value, q.V[3].Value, rad)
		}
		x += t.Class.Offset[0]
		y += t.Class.Offset[1]
		ok := true
		if !e.Fixture {
			s.checks += len(s.order)
			if s.checks > maxChecks {
				return &Unplaceable{Region: r.Ref, Object: e.Decl.Name, Tries: try,
					Reason: fmt.Sprintf("gave up after %d footprint comparisons", maxChecks)}
			}
			for _, o := range s.order {
				b := s.step.Bodies[t.Entities[o].Name]
				if math.Hypot(x-b.Pos[0], y-b.Pos[1]) <= rad+t.Entities[o].Radius() {
					ok = false
					blockers[t.Entities[o].Decl.Name] = true
					break
				}
			}
		}
		if !ok {
			continue
		}
		yw := s.uniform(min(yaw[0], yaw[1]), max(yaw[0], yaw[1]))
		s.step.Bodies[e.Name] = Body{Pos: [3]float64{x, y, site.Pos[2] + site.Size[2] + 0.02}, Quat: yawQuat(yw)}
		s.placed[pl.Entity] = true
		s.order = append(s.order, pl.Entity)
		return nil
	}
	var names []string
	for n := range blockers {
		names = append(names, n)
	}
	slices.Sort(names)
	return &Unplaceable{Region: r.Ref, Object: e.Decl.Name, Blockers: names, Tries: maxTries}
}

func (s *sampler) inWorkspace(pl Placement) error {
	r := &s.t.Regions[pl.Ref.Index]
	e := &s.t.Entities[pl.Entity]
	if !r.HasRanges() {
		return &Unplaceable{Region: r.Ref, Object: e.Decl.Name, Reason: "the region has no ranges"}
	}
	box := s.workspaceSite(r)
	s.step.Sites[r.Ref] = box
	yaw := [2]float64{}
	if e.Category != nil {
		yaw = e.Category.Yaw
	}
	s.step.Bodies[e.Name] = Body{Pos: box.Pos, Quat: yawQuat(s.uniform(yaw[0], yaw[1]))}
	s.placed[pl.Entity] = true
	return nil
}

// siteBox is a model site's world box on a placed parent (yaw only: LIBERO
// places fixtures and objects upright).
func (s *sampler) siteBox(parent int, site *Site) SiteBox {
	pb := s.step.Bodies[s.t.Entities[parent].Name]
	pr := quatMat(pb.Quat)
	local := matVec(pr, site.Pos)
	m := mul(pr, quatMat(site.Quat))
	return SiteBox{Pos: [3]float64{pb.Pos[0] + local[0], pb.Pos[1] + local[1], pb.Pos[2] + local[2]}, Mat: m, Size: site.Half}
}

func (s *sampler) onSite(pl Placement) error {
	t := s.t
	r := &t.Regions[pl.Ref.Index]
	e := &t.Entities[pl.Entity]
	if r.Target < 0 || r.Site == nil || !s.placed[r.Target] {
		return &Unplaceable{Region: r.Ref, Object: e.Decl.Name, Reason: "the region names no site of a placed object"}
	}
	box := s.siteBox(r.Target, r.Site)
	s.step.Sites[r.Ref] = box
	// A point of the site's frame, mapped back to the world: d = M·(p-pos)
	// as SiteObject.under reads it, so p = pos + Mᵀ·d.
	var d [3]float64
	if pl.Pred == "in" {
		d = [3]float64{}
	} else {
		d = [3]float64{(s.rng.Float64()*2 - 1) * box.Size[0] * 0.3, (s.rng.Float64()*2 - 1) * box.Size[1] * 0.3, box.Size[2] + 0.03}
	}
	p := matVec(transpose(box.Mat), d)
	for i := range p {
		p[i] += box.Pos[i]
	}
	yaw := [2]float64{}
	if e.Category != nil {
		yaw = e.Category.Yaw
	}
	s.step.Bodies[e.Name] = Body{Pos: p, Quat: yawQuat(s.uniform(yaw[0], yaw[1]))}
	s.placed[pl.Entity] = true
	if pl.Pred == "on" {
		s.step.Contacts = append(s.step.Contacts, [2]string{t.Entities[r.Target].Name, e.Name})
	}
	return nil
}

func (s *sampler) onObject(pl Placement) {
	t := s.t
	e := &t.Entities[pl.Entity]
	other := t.Entities[pl.Ref.Index].Name
	ob := s.step.Bodies[other]
	// ObjectBasedSampler with x, y ranges of zero: straight above.
	s.step.Bodies[e.Name] = Body{Pos: [3]float64{ob.Pos[0], ob.Pos[1], ob.Pos[2] + 0.05}, Quat: [4]float64{1, 0, 0, 0}}
	s.placed[pl.Entity] = true
	if pl.Pred == "on" {
		s.step.Contacts = append(s.step.Contacts, [2]string{other, e.Name})
	}
}

// sites records every site region whose target is placed, so a check of
// the goal on the sampled state can read them.
func (s *sampler) sites() {
	for i := range s.t.Regions {
		r := &s.t.Regions[i]
		if _, ok := s.step.Sites[r.Ref]; ok || r.Target < 0 {
			continue
		}
		switch {
		case r.OnWorkspace && r.HasRanges():
			s.step.Sites[r.Ref] = s.workspaceSite(r)
		case r.Site != nil && s.placed[r.Target]:
			s.step.Sites[r.Ref] = s.siteBox(r.Target, r.Site)
		}
	}
}

// joints sets every articulated entity's joints: from :init's Open,
// Close, TurnOn and TurnOff atoms, drawn inside the default range as
// OpenCloseSampler and TurnOnOffSampler draw (bddl_base_domain.py:631-672),
// else closed (or off).
func (s *sampler) joints() {
	t := s.t
	type jointSet struct {
		names []string
		q     map[string]float64
	}
	sets := map[int]*jointSet{}
	for i, e := range t.Entities {
		c := e.Category
		if c == nil || c.Joint == nil {
			continue
		}
		js := &jointSet{q: map[string]float64{}}
		for _, st := range c.Sites {
			for _, j := range st.Joints {
				if !slices.Contains(js.names, j) {
					js.names = append(js.names, j)
				}
			}
		}
		if len(js.names) == 0 {
			js.names = []string{"joint"}
		}
		def := c.Joint.Close
		if def == nil {
			def = c.Joint.TurnOff
		}
		for _, n := range js.names {
			js.q[n] = s.draw(def)
		}
		sets[i] = js
	}
	for _, a := range t.InitAtoms() {
		pred := a.Pred.Key()
		if _, ok := opposite[pred]; !ok || len(a.Args) != 1 {
			continue
		}
		ref := t.Lookup(a.Args[0].Name)
		switch ref.Kind {
		case RefEntity:
			if js := sets[ref.Index]; js != nil {
				th := thresholdFor(t.Entities[ref.Index].Category, pred)
				for _, n := range js.names {
					js.q[n] = s.draw(th)
				}
			}
		case RefRegion:
			r := &t.Regions[ref.Index]
			if r.Target < 0 || r.Site == nil {
				continue
			}
			if js := sets[r.Target]; js != nil {
				th := thresholdFor(t.Entities[r.Target].Category, pred)
				for _, n := range r.Site.Joints {
					js.q[n] = s.draw(th)
				}
			}
		}
	}
	for i, js := range sets {
		qs := make([]float64, len(js.names))
		for k, n := range js.names {
			qs[k] = js.q[n]
		}
		s.step.Joints[t.Entities[i].Name] = qs
	}
	for _, r := range t.Regions {
		if r.Target < 0 || r.Site == nil || sets[r.Target] == nil {
			continue
		}
		js := sets[r.Target]
		qs := make([]float64, 0, len(r.Site.Joints))
		for _, n := range r.Site.Joints {
			qs = append(qs, js.q[n])
		}
		s.step.Joints[r.Ref] = qs
	}
}

// draw picks a joint position inside the threshold's default range that
// passes the threshold.
func (s *sampler) draw(th *Threshold) float64 {
	if th == nil {
		return 0
	}
	lo, hi := min(th.Range[0], th.Range[1]), max(th.Range[0], th.Range[1])
	for range 16 {
		q := lo + (0.05+0.9*s.rng.Float64())*(hi-lo)
		if th.Holds(q) {
			return q
		}
	}
	return (lo + hi) / 2
}

// quatMat is the row-major rotation of a w x y z quaternion.
func quatMat(q [4]float64) [9]float64 {
	w, x, y, z := q[0], q[1], q[2], q[3]
	n := math.Sqrt(w*w + x*x + y*y + z*z)
	if n == 0 {
		return [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}
	}
	w, x, y, z = w/n, x/n, y/n, z/n
	return [9]float64{
		1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y),
		2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x),
		2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y),
	}
}

func mul(a, b [9]float64) [9]float64 {
	var c [9]float64
	for i := range 3 {
		for j := range 3 {
			for k := range 3 {
				c[i*3+j] += a[i*3+k] * b[k*3+j]
			}
		}
	}
	return c
}

func transpose(a [9]float64) [9]float64 {
	return [9]float64{a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]}
}
