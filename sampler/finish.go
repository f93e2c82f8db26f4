package sampler

import (
	"fmt"
	"math"
	"strings"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/r3"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// finish records the configuration in a predicates.State and verifies it
// with the evaluator: :init (or the goal) must be True. A configuration
// that is not is a bug of the sampler, reported as such and never
// retried.
func (pl *plan) finish(goal bool) (*Result, *Failure) {
	prog, err := pl.s.program(pl.req.Problem, pl.wildcardNames())
	if err != nil {
		return nil, &Failure{Kind: Unsupported, Message: "the definition does not compile: " + firstLine(err.Error())}
	}
	res := &Result{Activity: pl.req.Activity, Scene: pl.scene.Name, Source: pl.scene.Source, Seed: pl.req.Seed,
		Index: pl.req.Index, Goal: goal, Program: prog, scene: pl.scene, rooms: pl.usedRooms(), SamplingLists: pl.listsDigest}
	for i := range pl.inst {
		in := &pl.inst[i]
		o := Object{Name: in.name, Synset: in.synset, Category: in.category, Model: in.model, Exists: in.exists,
			Substance: in.substance, Placed: in.placed && in.exists && !in.substance, Box: in.box, Yaw: in.yaw, st: in.st}
		if in.bound != nil {
			o.SceneObject = in.bound.Name
		}
		o.Scale, o.ModelScale = 1, [3]float64{1, 1, 1}
		if in.modelScale != ([3]float64{}) {
			o.ModelScale = in.modelScale
		}
		if in.scale > 0 {
			o.Scale = in.scale
		}
		if r := pl.roomOf(i); r != nil && o.Placed {
			o.Room = r.Name
		}
		if in.parent >= 0 {
			o.Parent, o.Relation = pl.inst[in.parent].name, in.rel
		}
		res.Objects = append(res.Objects, o)
	}
	st, fail := res.state(pl)
	if fail != nil {
		return nil, fail
	}
	res.State = st
	v := prog.EvalInit(st)
	what := ":init"
	if goal {
		v = prog.Eval(st)
		what = "the goal"
	}
	if v != predicates.True {
		var reasons []string
		tr := prog.ExplainInit(st)
		if goal {
			tr = prog.Explain(st)
		}
		for _, r := range tr.Reasons() {
			reasons = append(reasons, r.String())
			if len(reasons) == 3 {
				break
			}
		}
		return nil, &Failure{Kind: Internal, Message: fmt.Sprintf("sampler bug: %s is %s on the sampled state: %s", what, v, strings.Join(reasons, "; "))}
	}
	return res, nil
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

func (pl *plan) usedRooms() []*Room {
	seen := map[*Room]bool{}
	var out []*Room
	for _, r := range pl.rooms {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	for i := range pl.inst {
		if r := pl.roomOf(i); r != nil && !seen[r] && pl.inst[i].placed {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}

// quatOf is the orientation of a yaw about the vertical, [x, y, z, w].
func quatOf(yaw float64) [4]float64 {
	q := r3.NewRotation(yaw, r3.Vec{Z: 1})
	return [4]float64{round(q.Imag), round(q.Jmag), round(q.Kmag), round(q.Real)}
}

// round keeps 9 decimals: sub-nanometre noise would only make files
// longer.
func round(v float64) float64 { return math.Round(v*1e9)/1e9 + 0 }

func roundBox(b predicates.Box) predicates.Box {
	for k := 0; k < 3; k++ {
		b.Min[k], b.Max[k] = round(b.Min[k]), round(b.Max[k])
	}
	return b
}

// state writes the configuration into a fresh predicates.State, in the
// exact values the episode file records.
func (r *Result) state(pl *plan) (*predicates.State, *Failure) {
	prog := r.Program
	st := prog.NewState()
	b := pl.s.base
	var substances []predicates.ObjectID
	ids := make([]predicates.ObjectID, len(r.Objects))
	for i, o := range r.Objects {
		id, ok := prog.ObjectID(o.Name)
		if !ok {
			return nil, &Failure{Kind: Internal, Message: "sampler bug: instance " + o.Name + " is not in the compiled program"}
		}
		ids[i] = id
		if prog.IsSubstance(id) {
			substances = append(substances, id)
		}
	}
	roomIDs := map[string]predicates.RoomID{}
	r.fields = map[string]*episode.Object{}
	must := func(err error) *Failure {
		if err != nil {
			return &Failure{Kind: Internal, Message: "sampler bug: " + err.Error()}
		}
		return nil
	}
	for i := range r.Objects {
		o := &r.Objects[i]
		id := ids[i]
		o.Box = roundBox(o.Box)
		eo := &episode.Object{Set: predicates.FieldExists, Exists: o.Exists}
		r.fields[o.Name] = eo
		if f := must(st.SetExists(id, o.Exists)); f != nil {
			return nil, f
		}
		if !o.Exists || o.Substance || prog.IsSubstance(id) {
			continue
		}
		in := &pl.inst[i]
		if o.Placed {
			c := o.Box.Center()
			for k := range c {
				c[k] = round(c[k])
			}
			_ = st.SetPosition(id, c)
			_ = st.SetOrientation(id, quatOf(o.Yaw))
			if f := must(st.SetAABB(id, o.Box)); f != nil {
				return nil, f
			}
			eo.Set |= predicates.FieldPosition | predicates.FieldOrientation | predicates.FieldAABB
			eo.Pos, eo.Quat, eo.AABB = c, quatOf(o.Yaw), o.Box
			if o.Room != "" {
				rid, ok := roomIDs[o.Room]
				if !ok {
					rid = st.Room(o.Room)
					roomIDs[o.Room] = rid
				}
				_ = st.SetRoom(id, rid)
				eo.Set |= predicates.FieldRoom
				eo.Room = o.Room
			}
		}
		s := &o.st
		s.T, s.MaxT = round(s.T), round(s.MaxT)
		_ = st.SetTemperature(id, s.T)
		_ = st.SetMaxTemperature(id, s.MaxT)
		eo.Set |= predicates.FieldTemperature | predicates.FieldMaxTemperature
		eo.Temperature, eo.MaxTemperature = s.T, s.MaxT
		syn := in.syn
		has := func(p kb.Property) bool { return syn != kb.NoSynset && b.Has(syn, p) }
		if has(kb.Toggleable) || s.toggled != unset {
			_ = st.SetToggledOn(id, s.toggled == yes)
			eo.Set |= predicates.FieldToggledOn
			eo.ToggledOn = s.toggled == yes
		}
		if has(kb.Openable) || s.open != unset {
			s.jointQ = round(s.jointQ)
			_ = st.SetJoints(id, []predicates.Joint{{Q: s.jointQ, Lo: 0, Hi: round(math.Pi / 2), Dir: 1}})
			eo.Set |= predicates.FieldJoints
			eo.Joints = []episode.Joint{{Name: "joint_0", Q: s.jointQ, Lo: 0, Hi: round(math.Pi / 2), Dir: 1}}
		}
		if has(kb.Cloth) || s.folded != unset || s.unfolded != unset {
			_ = st.SetCloth(id, s.cloth)
			eo.Set |= predicates.FieldCloth
			eo.Cloth = s.cloth
		}
		if s.broken != unset {
			_ = st.SetBroken(id, s.broken == yes)
			eo.Set |= predicates.FieldBroken
			eo.Broken = s.broken == yes
		}
		if s.sliced != unset {
			_ = st.SetSliced(id, s.sliced == yes)
			eo.Set |= predicates.FieldSliced
			eo.Sliced = s.sliced == yes
		}
		parent := predicates.NoObject
		if s.attached >= 0 {
			parent = ids[s.attached]
		}
		_ = st.SetAttachedTo(id, parent)
		eo.Set |= predicates.FieldAttachedTo
		if s.attached >= 0 {
			eo.AttachedTo = pl.inst[s.attached].name
		}
		for _, sub := range substances {
			si := pl.index[strings.ToLower(prog.Name(sub))]
			rec := pl.particlesFor(i, si)
			if f := must(st.SetParticles(id, sub, rec)); f != nil {
				return nil, f
			}
			eo.Set |= predicates.FieldParticles
			eo.Particles = append(eo.Particles, episode.Particles{Substance: prog.Name(sub), Particles: rec})
		}
	}
	// Legacy predicates have no quantity: they are recorded as facts.
	for k := range pl.lits {
		l := &pl.lits[k]
		if !legacyFact(l.name) {
			continue
		}
		pred, _ := predicates.PredByName(l.name)
		bID := predicates.NoObject
		if l.b >= 0 {
			bID = ids[l.b]
		}
		if f := must(st.SetFact(pred, ids[l.a], bID, predicates.TruthOf(!l.neg))); f != nil {
			return nil, f
		}
		at := episode.Atom{Pred: l.name, A: l.plan.inst[l.a].name}
		if l.b >= 0 {
			at.B = l.plan.inst[l.b].name
		}
		if l.neg {
			r.falseFacts = append(r.falseFacts, at)
		} else {
			r.facts = append(r.facts, at)
		}
	}
	return st, nil
}

// legacyFact reports whether a predicate is defined only by recorded
// facts (the legacy BEHAVIOR-100 states).
func legacyFact(name string) bool {
	switch name {
	case "dusty", "stained", "soaked", "perished", "screwed", "timeset":
		return true
	}
	return false
}
