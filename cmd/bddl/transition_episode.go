package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/transitions"
)

// The glue between transition rules and recorded episodes: states and
// rule outcomes as episode fields, firings as result records, and the
// --transitions evaluation of bddl check.

// ---------------------------------------------------------------------
// bddl check --transitions

// --transitions is added to check through checkExtensions: the
// evaluation then applies the rules after each step.
func init() {
	checkExtensions = append(checkExtensions, func(cmd *cobra.Command, o *checkOptions) {
		var on bool
		cmd.Flags().BoolVar(&on, "transitions", false,
			"apply the knowledge base's transition rules after each recorded step, before evaluating (for recordings made with rules off)")
		o.prepare = append(o.prepare, func(c *batch.Checker) error {
			if on {
				c.Evaluate = transitionsEvaluate(c.Resolver.Base())
			}
			return nil
		})
	})
}

// transitionsEvaluate is the check evaluation that applies the rules:
// one engine per activity program, forked per episode.
func transitionsEvaluate(base *kb.Base) batch.Evaluate {
	var engines sync.Map // *predicates.Program → *transitions.Engine
	return func(ctx context.Context, t *batch.Task) *episode.Result {
		proto, ok := engines.Load(t.Program)
		if !ok {
			eng, err := transitions.Compile(t.Program, base)
			if err != nil {
				return &episode.Result{Error: err.Error(), Reason: err.Error()}
			}
			proto, _ = engines.LoadOrStore(t.Program, eng)
		}
		eng := proto.(*transitions.Engine).Fork()
		eng.SetDT(t.Reader.Header().DT)
		var firings []episode.RuleFiring
		opts := t.Options
		opts.AfterStep = func(s *predicates.State, info episode.StepInfo) error {
			for _, f := range eng.Step(s).Firings {
				firings = append(firings, firingRecord(t.Program, info.Step, f))
			}
			return nil
		}
		res := episode.Check(ctx, t.Program, t.Reader, opts)
		res.Firings = firings
		if eng.NumRules() == 0 {
			res.Warnings = append(res.Warnings, "--transitions: no transition rule of the knowledge base can apply to this activity's objects")
		}
		return res
	}
}

// firingRecord is a firing as a result reports it.
func firingRecord(p *predicates.Program, step int64, f transitions.Firing) episode.RuleFiring {
	r := episode.RuleFiring{Step: step, Rule: f.Rule, Family: string(f.Family)}
	if f.Container != predicates.NoObject {
		r.Container = p.Name(f.Container)
	}
	for _, o := range f.Consumed {
		r.Consumed = append(r.Consumed, p.Name(o))
	}
	for _, o := range f.ConsumedSubstances {
		r.Consumed = append(r.Consumed, p.Name(o))
	}
	for _, pr := range f.Produced {
		name := pr.Name
		if pr.Object == predicates.NoObject {
			name += " (generated)"
		}
		r.Produced = append(r.Produced, name)
	}
	return r
}

// ---------------------------------------------------------------------
// States as episodes

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

// writeStatesEpisode writes states as an episode, one step each, delta
// encoded.
func writeStatesEpisode(w io.Writer, p *predicates.Program, activity string, meta json.RawMessage, states []*predicates.State) error {
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

// addChanges writes an outcome's changes into a step as ordinary
// recorded fields: existence, boxes, and facts (which replace an earlier
// value of the same atom on that line).
func addChanges(p *predicates.Program, st *episode.Step, changes []transitions.Change) {
	for _, c := range changes {
		switch c.Kind {
		case transitions.ChangeExists, transitions.ChangeAABB:
			if st.Objects == nil {
				st.Objects = map[string]*episode.Object{}
			}
			name := p.Name(c.Object)
			o := st.Objects[name]
			if o == nil {
				o = &episode.Object{}
				st.Objects[name] = o
			}
			if c.Kind == transitions.ChangeExists {
				o.Exists, o.Set, o.Null = c.Value == predicates.True, o.Set|predicates.FieldExists, o.Null&^predicates.FieldExists
			} else {
				o.AABB, o.Set, o.Null = c.Box, o.Set|predicates.FieldAABB, o.Null&^predicates.FieldAABB
			}
		case transitions.ChangeFact:
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

// ---------------------------------------------------------------------
// bddl episode apply-rules

type applyRulesOptions struct {
	*globalOptions
	out      string
	activity string
	library  string
}

func newEpisodeApplyRulesCmd(g *globalOptions) *cobra.Command {
	opts := &applyRulesOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "apply-rules EPISODE -o OUT",
		Short: "Write an episode with the transition rules' outcomes added as recorded fields",
		Long: `Read a recording made with transition rules off, apply the knowledge base's
rules after each step as 'bddl check --transitions' does, and write the
recording with each rule's outcome added to the step it fired at as
ordinary recorded fields: "exists" of the objects consumed and created, the
boxes of created objects, and facts (cooked, contains, ontop, ...). The
result checks the same without --transitions. The firings are listed on
stderr. OUT ending in .gz is compressed; it is replaced atomically.

The activity is --activity, else the one the header names. The exit status
is 1 when no rule fired (OUT is written all the same).`,
		Example: `  bddl episode apply-rules run.jsonl -o run-rules.jsonl
  bddl --kb ../shared/behavior1k/knowledge_base episode apply-rules run.jsonl.gz -o out.jsonl.gz --activities ../shared/behavior1k/activity_definitions`,
		Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error { return runApplyRules(opts, args[0]) },
	}
	cmd.Flags().StringVarP(&opts.out, "output", "o", "", "the episode to write (required; .gz: compressed)")
	cmd.Flags().StringVar(&opts.activity, "activity", "", "activity definition: a problem file or an activity name (default: the one the header names)")
	cmd.Flags().StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find the activity by name in")
	return cmd
}

func runApplyRules(opts *applyRulesOptions, path string) error {
	if opts.out == "" {
		return misuse("-o OUT is required")
	}
	if batch.PathKey(opts.out) == batch.PathKey(path) {
		return misuse("-o %s: write the outcome to another file than the episode", opts.out)
	}
	base, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	bound, err := episode.Open(path)
	if err != nil {
		return misuse("%v", err)
	}
	defer bound.Close()
	values, err := episode.Open(path)
	if err != nil {
		return misuse("%v", err)
	}
	defer values.Close()
	res := batch.NewResolver(base, predicates.Options{})
	if opts.library != "" {
		if err := res.AddLibrary(opts.library, noter(opts.err)); err != nil {
			return misuse("--activities %v", err)
		}
	}
	if opts.activity != "" {
		if err := res.SetActivity(context.Background(), opts.activity, opts.in, noter(opts.err)); err != nil {
			return misuse("--activity %v", err)
		}
	}
	ep := batch.Episode{Input: batch.Input{Path: path, Arg: path, Root: filepath.Dir(path), Rel: filepath.Base(path)}}
	act, err := res.Resolve(bound.Header().Activity, ep)
	if err != nil {
		return misuse("%v", err)
	}
	prog, err := res.Program(act, episode.Wildcards(act.Problem, bound.Header()))
	if err != nil {
		return misuse("activity %s: %v", act.Name, err)
	}
	eng, err := transitions.Compile(prog, base)
	if err != nil {
		return err
	}
	eng.SetDT(bound.Header().DT)
	s := prog.NewState()
	// A bad recording is a finding (exit 1), as check reports it; the
	// error names the file, line, step and field.
	bad := func(err error) error { return &exitError{code: exitFindings, err: err} }
	if err := bound.Bind(s); err != nil {
		return bad(err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(opts.out), "."+filepath.Base(opts.out)+".*")
	if err != nil {
		return misuse("-o %s: %v", opts.out, err)
	}
	defer os.Remove(tmp.Name())
	newWriter := episode.NewWriter
	if strings.HasSuffix(opts.out, ".gz") {
		newWriter = episode.NewGzipWriter
	}
	h := *bound.Header()
	ew, err := newWriter(tmp, &h)
	if err != nil {
		tmp.Close()
		return err
	}
	fired := 0
	for {
		info, err := bound.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			tmp.Close()
			return bad(err)
		}
		st, err := values.ReadStep()
		if err != nil {
			tmp.Close()
			return bad(fmt.Errorf("%s: reading step %d again: %w", path, info.Step, err))
		}
		out := eng.Step(s)
		for _, f := range out.Firings {
			fired++
			r := firingRecord(prog, info.Step, f)
			fmt.Fprintf(opts.err, "step %d: %s %s in %s: %s → %s\n", info.Step, r.Family, r.Rule, r.Container,
				strings.Join(r.Consumed, ", "), strings.Join(r.Produced, ", "))
		}
		addChanges(prog, st, out.Changes)
		if err := ew.WriteStep(st); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := ew.Close(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if info, err := os.Stat(opts.out); err == nil {
		_ = os.Chmod(tmp.Name(), info.Mode().Perm())
	} else {
		_ = os.Chmod(tmp.Name(), 0o644)
	}
	if err := os.Rename(tmp.Name(), opts.out); err != nil {
		return err
	}
	if fired == 0 {
		fmt.Fprintf(opts.err, "bddl: no transition rule fired in %s; wrote it unchanged to %s\n", path, opts.out)
		return findings()
	}
	fmt.Fprintf(opts.err, "%d rule firing%s written to %s\n", fired, map[bool]string{true: "", false: "s"}[fired == 1], opts.out)
	return nil
}
