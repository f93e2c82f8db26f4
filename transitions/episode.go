package transitions

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// The glue between transition rules and recorded episodes: rule
// firings as result records, states and rule outcomes as episode
// fields, and checking recordings with the rules applied.

// EpisodeChecker checks recordings made with rules off, applying the
// rules after each recorded step before evaluating: one engine per
// activity program, forked per episode. It is safe for concurrent use.
type EpisodeChecker struct {
	base    *kb.Base
	opts    Options
	engines sync.Map // *predicates.Program → *Engine
}

// NewEpisodeChecker returns a checker applying the rules of base.
func NewEpisodeChecker(base *kb.Base) *EpisodeChecker { return &EpisodeChecker{base: base} }

// NewEpisodeCheckerWith is NewEpisodeChecker with engine options.
func NewEpisodeCheckerWith(base *kb.Base, opts Options) *EpisodeChecker {
	return &EpisodeChecker{base: base, opts: opts}
}

// Check checks a recording against prog as episode.Check does, with the
// rules applied after each step; the result lists the firings.
func (c *EpisodeChecker) Check(ctx context.Context, prog *predicates.Program, rd *episode.Reader, opts episode.CheckOptions) *episode.Result {
	annotate, err := c.Hook(prog, rd.Header().DT, &opts)
	if err != nil {
		return &episode.Result{Error: err.Error(), Reason: err.Error()}
	}
	res := episode.Check(ctx, prog, rd, opts)
	annotate(res)
	return res
}

// Hook prepares opts to apply the rules after each step of a recording
// of prog whose header has dt (episode.CheckOptions.AfterStep), for
// episode.Check or an episode.Stepper. annotate adds the firings so far,
// and a warning when no rule can apply, to a result of that check.
func (c *EpisodeChecker) Hook(prog *predicates.Program, dt float64, opts *episode.CheckOptions) (annotate func(*episode.Result), err error) {
	proto, ok := c.engines.Load(prog)
	if !ok {
		eng, err := CompileWith(prog, c.base, c.opts)
		if err != nil {
			return nil, err
		}
		proto, _ = c.engines.LoadOrStore(prog, eng)
	}
	eng := proto.(*Engine).Fork()
	eng.SetDT(dt)
	var firings []episode.RuleFiring
	var prev *episode.StepInfo
	opts.AfterStep = func(s *predicates.State, info episode.StepInfo) error {
		if prev != nil {
			eng.SetElapsed(ElapsedSteps(prev.Step, info.Step, prev.T, info.T, prev.HasT && info.HasT, dt))
		} else {
			prev = new(episode.StepInfo)
		}
		*prev = info
		for _, f := range eng.Step(s).Firings {
			firings = append(firings, FiringRecord(prog, info.Step, f))
		}
		return nil
	}
	return func(res *episode.Result) {
		res.Firings = slices.Clip(firings)
		if n := eng.AnonymousDropped(); n > 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("--transitions: %d rule outputs that no declared object stands for were not kept: too many anonymous objects at once (max-anonymous)", n))
		}
		if eng.NumRules() == 0 {
			res.Warnings = append(res.Warnings, "--transitions: no transition rule of the knowledge base can apply to this activity's objects")
		}
	}, nil
}

// FiringRecord is a firing at a step as a result reports it: objects by
// name, generated outputs marked.
func FiringRecord(p *predicates.Program, step int64, f Firing) episode.RuleFiring {
	r := episode.RuleFiring{Step: step, Rule: f.Rule, Family: string(f.Family)}
	if f.Container != predicates.NoObject {
		r.Container = p.Name(f.Container)
	} else if f.Anonymous != "" {
		r.Container = f.Anonymous + " (anonymous)"
	}
	for _, o := range f.Consumed {
		r.Consumed = append(r.Consumed, p.Name(o))
	}
	for _, o := range f.ConsumedSubstances {
		r.Consumed = append(r.Consumed, p.Name(o))
	}
	for _, name := range f.ConsumedAnonymous {
		r.Consumed = append(r.Consumed, name+" (anonymous)")
	}
	for _, pr := range f.Produced {
		name := pr.Name
		switch {
		case pr.Anonymous:
			name += " (anonymous)"
		case pr.Object == predicates.NoObject:
			name += " (generated)"
		}
		r.Produced = append(r.Produced, name)
	}
	return r
}

// objectOf is an object's recorded fields in a state, as far as rule
// samples and outcomes use them: existence, box, temperatures.
func objectOf(s *predicates.State, id predicates.ObjectID) *episode.Object {
	o := &episode.Object{Set: predicates.FieldExists, Exists: s.Exists(id) == predicates.True}
	if s.Has(id, predicates.FieldAABB) != 0 {
		o.AABB, _ = s.Box(id)
		o.Set |= predicates.FieldAABB
	}
	if t, ok := s.MaxTemperature(id); ok {
		o.MaxTemperature, o.Set = t, o.Set|predicates.FieldMaxTemperature
	}
	if t, ok := s.Temperature(id); ok {
		o.Temperature, o.Set = t, o.Set|predicates.FieldTemperature
	}
	return o
}

// factsIn lists a state's recorded facts, true and false.
func factsIn(p *predicates.Program, s *predicates.State) (facts, falses []episode.Atom) {
	n := p.NumIDs()
	for _, pr := range predicates.Predicates() {
		for a := 0; a < n; a++ {
			for b := 0; b < n; b++ {
				bid := predicates.ObjectID(b)
				if pr.Arity == 1 {
					if b > 0 {
						break
					}
					bid = predicates.NoObject
				}
				t := s.Fact(pr.ID, predicates.ObjectID(a), bid)
				if t == predicates.Unknown {
					continue
				}
				at := episode.Atom{Pred: pr.Name, A: p.Name(predicates.ObjectID(a))}
				if bid != predicates.NoObject {
					at.B = p.Name(bid)
				}
				if t == predicates.True {
					facts = append(facts, at)
				} else {
					falses = append(falses, at)
				}
			}
		}
	}
	return facts, falses
}

// WriteStatesEpisode writes states as an episode of the activity, one
// step each, delta encoded; meta goes into the header.
func WriteStatesEpisode(w io.Writer, p *predicates.Program, activity string, meta json.RawMessage, states []*predicates.State) error {
	h := &episode.Header{Activity: activity, ClosedWorld: states[0].ClosedWorld(), Steps: len(states), Objects: map[string]*episode.Object{}, Meta: meta}
	for id := 0; id < p.NumObjects(); id++ {
		h.Objects[p.Name(predicates.ObjectID(id))] = objectOf(states[0], predicates.ObjectID(id))
	}
	ew, err := episode.NewWriter(w, h)
	if err != nil {
		return err
	}
	for k, s := range states {
		st := &episode.Step{Step: int64(k), Objects: map[string]*episode.Object{}}
		for id := 0; id < p.NumObjects(); id++ {
			st.Objects[p.Name(predicates.ObjectID(id))] = objectOf(s, predicates.ObjectID(id))
		}
		st.Facts, st.False = factsIn(p, s)
		if err := ew.WriteSnapshot(st); err != nil {
			return err
		}
	}
	return ew.Close()
}

// AddChanges writes an outcome's changes into a step as ordinary
// recorded fields: existence, boxes, and facts (which replace an earlier
// value of the same atom on that line).
func AddChanges(p *predicates.Program, st *episode.Step, changes []Change) {
	for _, c := range changes {
		switch c.Kind {
		case ChangeExists, ChangeAABB, ChangeTemperature, ChangeMaxTemperature:
			if st.Objects == nil {
				st.Objects = map[string]*episode.Object{}
			}
			name := p.Name(c.Object)
			o := st.Objects[name]
			if o == nil {
				o = &episode.Object{}
				st.Objects[name] = o
			}
			switch c.Kind {
			case ChangeExists:
				o.Exists, o.Set, o.Null = c.Value == predicates.True, o.Set|predicates.FieldExists, o.Null&^predicates.FieldExists
			case ChangeAABB:
				o.AABB, o.Set, o.Null = c.Box, o.Set|predicates.FieldAABB, o.Null&^predicates.FieldAABB
			case ChangeTemperature:
				o.Temperature, o.Set, o.Null = c.Temp, o.Set|predicates.FieldTemperature, o.Null&^predicates.FieldTemperature
			case ChangeMaxTemperature:
				o.MaxTemperature, o.Set, o.Null = c.Temp, o.Set|predicates.FieldMaxTemperature, o.Null&^predicates.FieldMaxTemperature
			}
		case ChangeFact:
			at := episode.Atom{Pred: c.Pred.String(), A: p.Name(c.Object)}
			if c.Arg != predicates.NoObject {
				at.B = p.Name(c.Arg)
			}
			drop := func(l []episode.Atom) []episode.Atom {
				return slices.DeleteFunc(l, func(x episode.Atom) bool { return x == at })
			}
			st.Facts, st.False, st.Unset = drop(st.Facts), drop(st.False), drop(st.Unset)
			if c.Value == predicates.True {
				st.Facts = append(st.Facts, at)
			} else {
				st.False = append(st.False, at)
			}
		}
	}
}

// RecordingError is an error in the recording read (a finding about
// the input), as opposed to one writing the output.
type RecordingError struct{ Err error }

func (e *RecordingError) Error() string { return e.Err.Error() }

// Unwrap is the underlying error.
func (e *RecordingError) Unwrap() error { return e.Err }

// Applier adds the rules' outcomes to a recording as recorded fields.
type Applier struct {
	eng          *Engine
	prog         *predicates.Program
	state        *predicates.State
	bound, again *episode.Reader
	name         string
	prev         episode.StepInfo // the previous step read
	started      bool
}

// NewApplier prepares to apply the engine's rules to a recording read
// twice: bound steps the state the rules see, again re-reads each step's
// recorded fields as written, to which the outcome is added. Both must
// read the recording name from its start. A recording that cannot be
// bound is a *RecordingError.
func NewApplier(eng *Engine, prog *predicates.Program, name string, bound, again *episode.Reader) (*Applier, error) {
	eng.SetDT(bound.Header().DT)
	s := prog.NewState()
	if err := bound.Bind(s); err != nil {
		return nil, &RecordingError{err}
	}
	return &Applier{eng: eng, prog: prog, state: s, bound: bound, again: again, name: name}, nil
}

// WriteTo writes the recording to w (gzip compressed when gz) with the
// rules applied after each step and their outcomes added to the step
// they fired at; fired is called for each firing. It returns the number
// of firings. A step that cannot be read is a *RecordingError.
func (a *Applier) WriteTo(w io.Writer, gz bool, fired func(episode.RuleFiring)) (int, error) {
	newWriter := episode.NewWriter
	if gz {
		newWriter = episode.NewGzipWriter
	}
	h := *a.bound.Header()
	ew, err := newWriter(w, &h)
	if err != nil {
		return 0, err
	}
	n := 0
	for {
		info, err := a.bound.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return n, &RecordingError{err}
		}
		st, err := a.again.ReadStep()
		if err != nil {
			return n, &RecordingError{fmt.Errorf("%s: reading step %d again: %w", a.name, info.Step, err)}
		}
		if a.started {
			a.eng.SetElapsed(ElapsedSteps(a.prev.Step, info.Step, a.prev.T, info.T, a.prev.HasT && info.HasT, a.bound.Header().DT))
		}
		a.prev, a.started = info, true
		out := a.eng.Step(a.state)
		for _, f := range out.Firings {
			n++
			fired(FiringRecord(a.prog, info.Step, f))
		}
		AddChanges(a.prog, st, out.Changes)
		if err := ew.WriteStep(st); err != nil {
			return n, err
		}
	}
	return n, ew.Close()
}
