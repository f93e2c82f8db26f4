package sampler

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/transitions"
)

// The state before a transition rule fires and the state after, in a
// scene (bddl sample --after). The transitions package builds the rule's
// smallest symbolic scene (transitions.Sample: its inputs in a fitting
// container on an active heat source, in a machine switched on, ...);
// its first state becomes the :init of a definition (every relation and
// state it records, as literals), which the sampler places in a scene and
// verifies like any other; then the symbolic scene's later steps (a
// machine switched on, the timesteps of a recipe) are replayed on the
// sampled state with the rule's engine, and the step on which it fires
// records its outcome. The episode checks as a success: the definition's
// goal is the rule's outputs.

// After is a transition rule prepared for sampling before and after it
// fires.
type After struct {
	Rule transitions.Rule
	// Problem is the definition whose :init is the state before the rule
	// fires and whose goal is its outputs; nil when Failure is set.
	Problem *bddl.Problem
	// Failure says why the rule cannot be sampled (it never fires).
	Failure *Failure

	index int
	ts    *transitions.SampleResult
	def   string
	// onDef and onProblem put on containers what the first definition
	// puts in them: the rules take either as in the container, and a
	// model may be too flat to hold the object inside its box.
	onDef     string
	onProblem *bddl.Problem
}

// PrepareAfter builds the definition of the state before rule r of base
// fires, from the rule's symbolic sample drawn with seed. A rule that
// never fires gives an After with Failure set, not an error.
func PrepareAfter(base *kb.Base, r transitions.Rule, seed uint64) (*After, error) {
	a := &After{Rule: r, index: -1}
	for i, x := range transitions.Rules(base) {
		if x.Family == r.Family && x.Name == r.Name {
			a.index = i
		}
	}
	ts, err := transitions.Sample(base, r, transitions.SampleOptions{Seed: seed, Alone: true})
	switch {
	case errors.Is(err, transitions.ErrNeverFires):
		a.Failure = &Failure{Kind: Unsupported, Message: fmt.Sprintf("%s %s never fires: there is no state before it", r.Family, r.Name)}
		return a, nil
	case err != nil:
		return nil, err
	}
	def, err := beforeDefinition(ts)
	if err != nil {
		return nil, err
	}
	prob, diags := bddl.ParseProblem("problem0.bddl", []byte(def))
	if diags.HasErrors() {
		return nil, fmt.Errorf("the definition of its first state does not parse: %v", diags)
	}
	a.Problem, a.ts, a.def = prob, ts, def
	if on := strings.ReplaceAll(def, "(inside ", "(ontop "); on != def {
		if p, d := bddl.ParseProblem("problem0.bddl", []byte(on)); !d.HasErrors() {
			a.onDef, a.onProblem = on, p
		}
	}
	return a, nil
}

// Sample samples req (whose Problem is a.Problem) and, when that fails
// and the definition puts objects inside containers, the variant that
// puts them on the containers instead.
func (a *After) Sample(smp *Sampler, req Request) (*Result, error) {
	res, err := smp.Sample(req)
	if err != nil && a.onProblem != nil {
		req.Problem, req.Goal = a.onProblem, false
		res, err = smp.Sample(req)
	}
	return res, err
}

// afterPreds are the predicates a rule's first state is described by:
// placement (positive only) and the states rules read (both ways when
// recorded as facts).
var afterPreds = []string{"ontop", "inside", "touching", "toggled_on", "open", "cooked", "frozen", "hot", "on_fire", "folded", "unfolded",
	"filled", "contains", "covered", "saturated"}

// beforeDefinition is the symbolic sample's definition with its :init
// replaced by everything it records before the rule fires: the placement
// at the step it fires on (objects are put in place before the trigger),
// the states and existence of its first step (a machine still off).
func beforeDefinition(ts *transitions.SampleResult) (string, error) {
	p, s, last := ts.Program, ts.Steps[0], ts.Steps[len(ts.Steps)-1]
	var lits []string
	n := p.NumObjects()
	for id := 0; id < n; id++ {
		if s.Exists(predicates.ObjectID(id)) == predicates.False {
			lits = append(lits, "(future "+p.Name(predicates.ObjectID(id))+")")
		}
	}
	rel := placements(p, last)
	for _, name := range afterPreds {
		pred, _ := predicates.PredByName(name)
		kinematic := name == "ontop" || name == "inside" || name == "touching"
		if kinematic {
			for _, r := range rel {
				if r.pred == name {
					lits = append(lits, "("+name+" "+p.Name(r.a)+" "+p.Name(r.b)+")")
				}
			}
			continue
		}
		for a := 0; a < n; a++ {
			ai := predicates.ObjectID(a)
			if s.Exists(ai) != predicates.True || p.IsSubstance(ai) {
				continue
			}
			bs := []predicates.ObjectID{predicates.NoObject}
			if pred.Arity() == 2 {
				bs = bs[:0]
				for b := 0; b < n; b++ {
					bi := predicates.ObjectID(b)
					if b != a && s.Exists(bi) == predicates.True && p.IsSubstance(bi) != kinematic {
						bs = append(bs, bi)
					}
				}
			}
			for _, bi := range bs {
				atom := "(" + name + " " + p.Name(ai)
				if bi != predicates.NoObject {
					atom += " " + p.Name(bi)
				}
				atom += ")"
				switch v := p.Atom(s, pred, ai, bi); {
				case v == predicates.True:
					lits = append(lits, atom)
				case v == predicates.False && !kinematic && s.Fact(pred, ai, bi) == predicates.False:
					lits = append(lits, "(not "+atom+")")
				}
			}
		}
	}
	def := ts.Definition
	i, j := strings.Index(def, "(:init"), strings.Index(def, "(:goal")
	if i < 0 || j < i {
		return "", fmt.Errorf("the rule's sample definition has no :init before its :goal")
	}
	return def[:i] + "(:init\n        " + strings.Join(lits, "\n        ") + "\n    )\n    " + def[j:], nil
}

// WriteFile writes the before-and-after episode of one configuration
// sampled by a.Sample, with the definition it checks against
// (dir/problem0.bddl): step 0 the sampled state, then the symbolic
// sample's later steps replayed with the rule's engine, up to the step on
// which the rule fires. It returns the episode's path, or why the rule
// did not fire or the files could not be written.
func (a *After) WriteFile(smp *Sampler, res *Result, dir string) (string, *Failure) {
	prog, s := res.Program, res.State
	eng, err := transitions.CompileOnly(prog, smp.Base(), func(i int) bool { return i == a.index })
	if err != nil {
		return "", &Failure{Kind: Internal, Message: "compiling the rule: " + err.Error()}
	}
	steps := []*episode.Step{res.Step()}
	fired := false
	for k := range a.ts.Steps {
		st := steps[0]
		if k > 0 {
			st = &episode.Step{Step: int64(k)}
			replayFacts(prog, s, st, a.ts.Program, a.ts.Steps[k-1], a.ts.Steps[k])
			steps = append(steps, st)
		}
		out := eng.Step(s)
		if k == 0 && len(out.Changes) > 0 {
			// Step 0 is the sampled state, where :init holds: what the
			// rule does there is recorded on the next step.
			st = &episode.Step{Step: 1}
			steps = append(steps, st)
		}
		transitions.AddChanges(prog, st, out.Changes)
		if out.Fired() {
			// Output states and places land one rule step later in the
			// reference; the episode ends here, so they land now.
			transitions.AddChanges(prog, st, eng.Flush(s).Changes)
			fired = true
			break
		}
	}
	if !fired {
		return "", &Failure{Kind: Unsupported, Scene: res.Scene,
			Message: fmt.Sprintf("%s %s does not fire on the sampled configuration", a.Rule.Family, a.Rule.Name)}
	}
	h, err := res.Header(smp.Digest())
	if err == nil {
		var meta map[string]any
		if err = json.Unmarshal(h.Meta, &meta); err == nil {
			meta["rule"] = map[string]any{"family": a.Rule.Family, "name": a.Rule.Name, "fired_at": len(steps) - 1}
			h.Meta, err = json.Marshal(meta)
		}
	}
	if err != nil {
		return "", &Failure{Kind: Internal, Message: err.Error()}
	}
	h.Activity, h.Steps = "problem0.bddl", len(steps)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", &Failure{Kind: Output, Message: "writing: " + err.Error()}
	}
	path := filepath.Join(dir, res.FileName())
	def := a.def
	if res.Program.Problem() == a.onProblem {
		def = a.onDef
	}
	err = writeAtomic(filepath.Join(dir, "problem0.bddl"), func(f *os.File) error { _, err := f.WriteString(def); return err })
	if err == nil {
		err = writeAtomic(path, func(f *os.File) error {
			w, err := episode.NewWriter(f, h)
			if err != nil {
				return err
			}
			for _, st := range steps {
				if err := w.WriteStep(st); err != nil {
					return err
				}
			}
			return w.Close()
		})
	}
	if err != nil {
		return "", &Failure{Kind: Output, Message: "writing: " + err.Error()}
	}
	return path, nil
}

// replayFacts carries the facts that change between two states of the
// symbolic sample (a machine switched on) over to the sampled state and
// the episode step.
func replayFacts(prog *predicates.Program, s *predicates.State, st *episode.Step, sp *predicates.Program, prev, cur *predicates.State) {
	for _, pi := range predicates.Predicates() {
		for a := 0; a < sp.NumIDs(); a++ {
			for b := -1; b < sp.NumIDs(); b++ {
				if (pi.Arity == 1) != (b < 0) {
					continue
				}
				ai, bi := predicates.ObjectID(a), predicates.ObjectID(b)
				v := cur.Fact(pi.ID, ai, bi)
				if v == predicates.Unknown || v == prev.Fact(pi.ID, ai, bi) {
					continue
				}
				at := episode.Atom{Pred: pi.Name, A: sp.Name(ai)}
				ta, _ := prog.ObjectID(at.A)
				tb := predicates.NoObject
				if b >= 0 {
					at.B = sp.Name(bi)
					tb, _ = prog.ObjectID(at.B)
				}
				_ = s.SetFact(pi.ID, ta, tb, v)
				if v == predicates.True {
					st.Facts = append(st.Facts, at)
				} else {
					st.False = append(st.False, at)
				}
			}
		}
	}
}

// writeAtomic writes a file through a temporary file renamed into place.
func writeAtomic(path string, write func(*os.File) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".sample-*")
	if err != nil {
		return err
	}
	if err := write(tmp); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return nil
}

type placement struct {
	pred string
	a, b predicates.ObjectID
}

// placements are the ontop and inside relations of a state that place
// objects, without those the others imply (the dough on the tray inside
// the oven is inside the oven too) or that boxes cannot have both ways.
func placements(p *predicates.Program, s *predicates.State) []placement {
	n := p.NumObjects()
	vol := func(id predicates.ObjectID) float64 {
		b, ok := s.Box(id)
		if !ok {
			return 0
		}
		e := b.Extent()
		return e[0] * e[1] * e[2]
	}
	holds := func(pred string, a, b predicates.ObjectID) bool {
		id, _ := predicates.PredByName(pred)
		return p.Atom(s, id, a, b) == predicates.True
	}
	var all []placement
	for a := 0; a < n; a++ {
		for b := 0; b < n; b++ {
			ai, bi := predicates.ObjectID(a), predicates.ObjectID(b)
			if a == b || s.Exists(ai) != predicates.True || s.Exists(bi) != predicates.True || p.IsSubstance(ai) || p.IsSubstance(bi) {
				continue
			}
			// Resting on b's top comes first: the rules take an object on a
			// container as in it, and a flat container (a tray) has no
			// inside to speak of. An object merely overlapping b is not on it.
			ba, _ := s.Box(ai)
			bb, _ := s.Box(bi)
			switch {
			case holds("ontop", ai, bi) && ba.Min[2] >= bb.Max[2]-0.02:
				all = append(all, placement{"ontop", ai, bi})
			case holds("inside", ai, bi) && vol(ai) < vol(bi):
				pred := "inside"
				if bb.Max[2]-bb.Min[2] < ba.Max[2]-ba.Min[2] {
					pred = "ontop" // a tray lower than the object: on it, not in it
				}
				if base := p.KB(); base != nil {
					if syn, ok := base.Lookup(p.Synset(bi)); ok && !base.Has(syn, kb.Fillable) {
						pred = "ontop" // no inside to put it in: on it
					}
				}
				all = append(all, placement{pred, ai, bi})
			}
		}
	}
	// Touching pairs not otherwise related (a knife on an apple's side),
	// each once, the smaller object placed against the larger.
	related := func(a, b predicates.ObjectID) bool {
		for _, r := range all {
			if (r.a == a && r.b == b) || (r.a == b && r.b == a) {
				return true
			}
		}
		return false
	}
	for a := 0; a < n; a++ {
		for b := a + 1; b < n; b++ {
			ai, bi := predicates.ObjectID(a), predicates.ObjectID(b)
			if s.Exists(ai) != predicates.True || s.Exists(bi) != predicates.True || p.IsSubstance(ai) || p.IsSubstance(bi) ||
				!holds("touching", ai, bi) || related(ai, bi) {
				continue
			}
			if vol(ai) > vol(bi) {
				ai, bi = bi, ai
			}
			placed := false // ai already has a parent: keep touching a constraint on it
			for _, r := range all {
				placed = placed || r.a == ai
			}
			if !placed {
				all = append(all, placement{"touching", ai, bi})
			}
		}
	}
	var out []placement
	for _, r := range all {
		implied := false
		if r.pred == "inside" {
			for _, q := range all {
				if q.a == r.a && q.b != r.b {
					for _, c := range all {
						if c.pred == "inside" && c.a == q.b && c.b == r.b {
							implied = true
						}
					}
				}
			}
		}
		if !implied {
			out = append(out, r)
		}
	}
	return out
}
