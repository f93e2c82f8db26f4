package batch

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/termsafe"
	"github.com/openbddl/bddl/predicates"
)

// Task is one episode ready to be evaluated: opened, its activity
// resolved and compiled. An Evaluate hook receives it.
type Task struct {
	Episode  Episode
	Reader   *episode.Reader // header read; steps not yet
	Activity *Activity
	Program  *predicates.Program
	Options  episode.CheckOptions
	Resolver *Resolver
}

// Evaluate checks one task. The default is episode.Check; a command that
// evaluates differently (applying transition rules after each step)
// supplies its own, and may call episode.Check with a modified task.
type Evaluate func(ctx context.Context, t *Task) *episode.Result

// DefaultEvaluate is episode.Check on the task.
func DefaultEvaluate(ctx context.Context, t *Task) *episode.Result {
	return episode.Check(ctx, t.Program, t.Reader, t.Options)
}

// Checker checks episodes: open, resolve, compile, evaluate, finish.
type Checker struct {
	Resolver *Resolver
	Options  episode.CheckOptions
	// Negation names the negation mode in error results.
	Negation string
	// Evaluate replaces DefaultEvaluate when set.
	Evaluate Evaluate
	// Finish, when set, is called with each result that is not an
	// interruption, before it is recorded: to draw a plot, add Extra
	// fields, or turn a failure into an error.
	Finish func(ctx context.Context, t *Task, o *Outcome)
	// Open are the options episodes are opened with.
	Open OpenOptions
}

// AlsoFinish runs f on every outcome after the Finish already set.
func (c *Checker) AlsoFinish(f func(t *Task, o *Outcome)) {
	prev := c.Finish
	c.Finish = func(ctx context.Context, t *Task, o *Outcome) {
		if prev != nil {
			prev(ctx, t, o)
		}
		f(t, o)
	}
}

// Outcome is the result of one episode: what a results file line holds.
// Extra fields (the demo of a RoboLab run, a seed) are added to the
// same flat JSON object.
type Outcome struct {
	*episode.Result
	Extra map[string]any
	// Problems are failures beside the verdict (a plot that could not
	// be written): the command reports them and fails.
	Problems []string
}

// MarshalJSON writes the result's fields and the Extra fields as one
// flat object.
func (o *Outcome) MarshalJSON() ([]byte, error) {
	b, err := MarshalLine(o.Result)
	if err != nil {
		return nil, err
	}
	b = bytes.TrimSuffix(b, []byte("\n"))
	if pb := bddl.PathBytes(o.Result.Episode); pb != "" {
		// The episode's name as on disk, where JSON shows U+FFFD.
		b = append(append(append(b[:len(b)-1], `,"path_bytes":"`...), pb...), `"}`...)
	}
	if len(o.Extra) == 0 {
		return b, nil
	}
	extra, err := MarshalLine(o.Extra)
	if err != nil {
		return nil, err
	}
	extra = bytes.TrimSuffix(extra, []byte("\n"))
	if len(extra) <= 2 {
		return b, nil
	}
	return append(append(b[:len(b)-1], ','), extra[1:]...), nil
}

// Check checks one episode. Every failure becomes an error result; an
// episode cut short by ctx comes back with Result.Interrupted set.
func (c *Checker) Check(ctx context.Context, ep Episode) *Outcome {
	fail := func(activity string, err error) *Outcome {
		return &Outcome{Result: &episode.Result{Activity: activity, Episode: ep.Name(), Reason: err.Error(),
			Error: err.Error(), Hold: max(c.Options.Hold, 1), Negation: c.Negation}}
	}
	if ctx.Err() != nil {
		return &Outcome{Result: &episode.Result{Episode: ep.Name(), Interrupted: true}}
	}
	r, closer, err := ep.Open(ctx, c.Open)
	if err != nil {
		if ctx.Err() != nil {
			return &Outcome{Result: &episode.Result{Episode: ep.Name(), Interrupted: true}}
		}
		return fail("", err)
	}
	defer closer.Close()
	ref := r.Header().Activity
	act, err := c.Resolver.Resolve(ref, ep)
	if err != nil {
		return fail(ref, err)
	}
	prog, err := c.Resolver.Program(act, episode.Wildcards(act.Problem, r.Header()))
	if err != nil {
		return fail(act.Name, fmt.Errorf("activity %s: %v", act.Name, err))
	}
	t := &Task{Episode: ep, Reader: r, Activity: act, Program: prog, Options: c.Options, Resolver: c.Resolver}
	eval := c.Evaluate
	if eval == nil {
		eval = DefaultEvaluate
	}
	res := eval(ctx, t)
	if ctx.Err() != nil {
		// A read stopped by the cancellation fails as a closed file.
		res.Interrupted = true
	}
	res.Activity = act.Name
	res.Episode = ep.Name()
	for _, d := range act.Warnings {
		res.Warnings = append(res.Warnings, d.Error()) // file:line:col: warning: ...
	}
	if c.Resolver.Fixed() && ref != "" && !SameActivity(ref, act) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the episode names activity %q; checked against %s as --activity asks", ref, act.Name))
	}
	o := &Outcome{Result: res}
	if ep.Format != nil && ep.Format.Fields != nil {
		o.Extra = ep.Format.Fields(ep, r.Header())
	}
	if !res.Interrupted && c.Finish != nil {
		c.Finish(ctx, t, o)
	}
	return o
}

// PlotPaths names one plot file per episode from the --plot FILE: FILE
// itself for a single episode; otherwise FILE's stem, "-", and the
// episode's path relative to its argument with separators turned into
// "_" (and a number when two still collide), so that episodes with the
// same base name in different directories never share a file.
func PlotPaths(plot string, eps []Episode) map[string]string {
	out := map[string]string{}
	if len(eps) == 1 {
		out[eps[0].Key()] = plot
		return out
	}
	ext := filepath.Ext(plot)
	stem := strings.TrimSuffix(plot, ext)
	used := map[string]bool{}
	for _, ep := range eps {
		name := ep.Rel
		if ep.Path == ep.Arg || filepath.IsAbs(name) {
			// A file given itself: its path relative to its argument
			// is its name, not the flattened path it was given by.
			name = filepath.Base(ep.Path)
		}
		for _, suf := range []string{".gz", ".jsonl", ".hdf5", ".h5"} {
			name = strings.TrimSuffix(name, suf)
		}
		if ep.Sub != "" {
			name += "#" + ep.Sub
		}
		// A control byte of a walked file's name (ESC, BEL, a newline)
		// must not reach the plot's file name: escaped, then its
		// backslash flattened below like a separator.
		name = termsafe.Text(name)
		name = strings.NewReplacer("/", "_", "\\", "_", "#", "_", "..", "_").Replace(name)
		p := stem + "-" + name + ext
		for n := 2; used[p]; n++ {
			p = fmt.Sprintf("%s-%s-%d%s", stem, name, n, ext)
		}
		used[p] = true
		out[ep.Key()] = p
	}
	return out
}
