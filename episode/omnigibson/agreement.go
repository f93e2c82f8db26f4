package omnigibson

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// InitLiteral is one top-level literal of :init evaluated on a converted
// state.
type InitLiteral struct {
	Pred    string   // the predicate, e.g. ontop
	Args    []string // the ground arguments
	Literal string   // as written, e.g. (not (open fridge.n.01_1))
	Value   predicates.Truth
	// Geometric: decided by box geometry (ontop, inside, nextto, ...).
	Geometric bool
	Source    predicates.Source
	Detail    string
}

// geometric are the predicates decided from poses and boxes.
var geometric = map[string]bool{"ontop": true, "inside": true, "nextto": true, "under": true, "touching": true,
	"overlaid": true, "draped": true}

// IsGeometric reports whether a predicate is decided from poses and boxes.
func IsGeometric(pred string) bool { return geometric[pred] }

// EvalInit evaluates the definition's :init literal by literal on a
// converted header, as bddl check would read it from the episode file.
func EvalInit(problem *bddl.Problem, base *kb.Base, h *episode.Header) ([]InitLiteral, error) {
	return NewInitEvaluator(problem, base).Eval(h)
}

// EvalInitReader evaluates the definition's :init literal by literal on
// the first step of an episode (any episode, not only a converted one).
func EvalInitReader(problem *bddl.Problem, base *kb.Base, r *episode.Reader) ([]InitLiteral, error) {
	return NewInitEvaluator(problem, base).EvalReader(r)
}

// InitEvaluator evaluates one definition's :init on many states, compiling
// the definition once per set of wildcard expansions (the instances of a
// task all have the same). It is safe for concurrent use.
type InitEvaluator struct {
	problem *bddl.Problem
	base    *kb.Base
	opts    predicates.Options
	mu      sync.Mutex
	progs   map[string]*predicates.Program
}

// NewInitEvaluator makes an evaluator of the definition's :init.
func NewInitEvaluator(problem *bddl.Problem, base *kb.Base) *InitEvaluator {
	return NewInitEvaluatorOptions(problem, base, predicates.Options{})
}

// NewInitEvaluatorOptions is NewInitEvaluator with compile options (the
// geometry's tolerances, Geometry.IgnoreError); their Wildcards are set
// per state.
func NewInitEvaluatorOptions(problem *bddl.Problem, base *kb.Base, opts predicates.Options) *InitEvaluator {
	return &InitEvaluator{problem: problem, base: base, opts: opts, progs: map[string]*predicates.Program{}}
}

// program compiles the definition for the header's wildcard expansions,
// once per distinct set.
func (e *InitEvaluator) program(h *episode.Header) (*predicates.Program, error) {
	wild := episode.Wildcards(e.problem, h)
	keys := make([]string, 0, len(wild))
	for k := range wild {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var key strings.Builder
	for _, k := range keys {
		key.WriteString(k)
		for _, v := range wild[k] {
			key.WriteByte(' ')
			key.WriteString(v)
		}
		key.WriteByte('\n')
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if p, ok := e.progs[key.String()]; ok {
		return p, nil
	}
	opts := e.opts
	opts.Wildcards = wild
	p, err := predicates.Compile(e.problem, e.base, opts)
	if err != nil {
		return nil, err
	}
	e.progs[key.String()] = p
	return p, nil
}

// Eval evaluates :init on a converted header, as bddl check would read
// it from the episode file.
func (e *InitEvaluator) Eval(h *episode.Header) ([]InitLiteral, error) {
	var buf bytes.Buffer
	w, err := episode.NewWriter(&buf, h)
	if err != nil {
		return nil, err
	}
	if err := w.WriteStep(&episode.Step{Step: 0}); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	r, err := episode.NewReader(&buf, "converted")
	if err != nil {
		return nil, err
	}
	return e.EvalReader(r)
}

// EvalReader evaluates :init on the first step of an episode.
func (e *InitEvaluator) EvalReader(r *episode.Reader) ([]InitLiteral, error) {
	prog, err := e.program(r.Header())
	if err != nil {
		return nil, err
	}
	s := prog.NewState()
	if err := r.Bind(s); err != nil {
		return nil, err
	}
	if _, err := r.Next(); err != nil {
		return nil, err
	}
	tr := prog.ExplainInit(s)
	if tr.Root == nil {
		return nil, fmt.Errorf("no :init to evaluate")
	}
	var out []InitLiteral
	var walk func(n *predicates.TraceNode)
	walk = func(n *predicates.TraceNode) {
		switch n.Kind {
		case "and":
			for _, c := range n.Children {
				walk(c)
			}
		case "atom", "not":
			a := n
			if n.Kind == "not" && len(n.Children) == 1 {
				a = n.Children[0]
			}
			lit := InitLiteral{Pred: a.Pred, Args: a.Args, Value: n.Value, Source: a.Source, Detail: a.Detail, Geometric: geometric[a.Pred]}
			if n.Formula != nil {
				lit.Literal = bddl.String(n.Formula)
			}
			if a.Kind == "atom" && len(a.Args) > 0 {
				lit.Literal = "(" + a.Pred + " " + joinArgs(a.Args) + ")"
				if n.Kind == "not" {
					lit.Literal = "(not " + lit.Literal + ")"
				}
			}
			out = append(out, lit)
		default:
			// A quantified literal (a wildcard's inroom): one entry per
			// ground literal under it.
			for _, c := range n.Children {
				walk(c)
			}
		}
	}
	walk(tr.Root)
	return out, nil
}

func joinArgs(a []string) string {
	s := ""
	for i, x := range a {
		if i > 0 {
			s += " "
		}
		s += x
	}
	return s
}
