package sampler

import (
	"strings"

	"github.com/openbddl/bddl/predicates"
)

// Goal sampling: a state in which the goal holds. The goal is expanded
// into its ground options (predicates.GroundOptions, the reference's
// options); options are tried in an order drawn from the seed, each with
// the :init literals it does not override (rooms, and the placement and
// states of what the option leaves unsaid), until one samples.

const goalOptionTries = 12

func (pl *plan) sampleGoal() (*Result, *Failure) {
	prog, err := pl.s.program(pl.req.Problem, pl.wildcardNames())
	if err != nil {
		return nil, &Failure{Kind: Unsupported, Message: "the definition does not compile: " + firstLine(err.Error())}
	}
	initLits, fail := pl.initLiterals(pl.req.Problem.Init)
	if fail != nil {
		return nil, fail
	}
	var options [][]predicates.Literal
	for opt := range prog.GroundOptions(goalOptionTries * 4) {
		options = append(options, opt)
	}
	if len(options) == 0 {
		return nil, &Failure{Kind: Contradiction, Message: "the goal has no consistent ground option"}
	}
	pl.rng.Shuffle(len(options), func(i, j int) { options[i], options[j] = options[j], options[i] })
	snapshot := append([]inst(nil), pl.inst...)
	var first *Failure
	for t, opt := range options {
		if t == goalOptionTries {
			break
		}
		pl.inst = append(pl.inst[:0], snapshot...)
		for i := range pl.inst {
			pl.inst[i].st = newObjectStates()
		}
		pl.bodies = map[*Room][]body{}
		lits, fail := pl.goalLiterals(prog, opt, initLits)
		if fail == nil {
			pl.lits = lits
			fail = pl.realize()
		}
		if fail == nil {
			res, f := pl.finish(true)
			if f == nil {
				return res, nil
			}
			fail = f
		}
		if fail.Kind == Internal {
			return nil, fail
		}
		if first == nil {
			first = fail
		}
	}
	return nil, first
}

type litKey struct {
	name string
	a, b int
}

// family groups predicates that set the same quantity, so an option's
// literal replaces every :init literal on that quantity: (not (contains
// jar salt)) in the goal overrides (filled jar salt) in :init.
func family(name string) string {
	switch name {
	case "filled", "contains", "covered", "saturated":
		return "particles"
	case "cooked", "burnt", "hot", "frozen", "on_fire":
		return "temperature"
	case "folded", "unfolded":
		return "cloth"
	}
	return name
}

// goalLiterals is one goal option with the :init literals it leaves in
// force.
func (pl *plan) goalLiterals(prog *predicates.Program, opt []predicates.Literal, initLits []literal) ([]literal, *Failure) {
	var out []literal
	said := map[litKey]bool{}
	placed := map[int]bool{}  // objects the option places
	present := map[int]bool{} // objects a positive option literal needs to exist
	for _, gl := range opt {
		name := gl.Pred.String()
		a, ok := pl.index[strings.ToLower(prog.Name(gl.A))]
		if !ok {
			return nil, &Failure{Kind: Internal, Message: "sampler bug: goal instance " + prog.Name(gl.A) + " unknown"}
		}
		b := -1
		if gl.Pred.Arity() == 2 {
			if b, ok = pl.index[strings.ToLower(prog.Name(gl.B))]; !ok {
				return nil, &Failure{Kind: Internal, Message: "sampler bug: goal instance " + prog.Name(gl.B) + " unknown"}
			}
		}
		l := literal{pred: gl.Pred, name: name, a: a, b: b, neg: gl.Negated, plan: pl}
		out = append(out, l)
		said[litKey{family(name), a, b}] = true
		if !l.neg && isKinematic(name) {
			placed[a] = true
		}
		if !l.neg && name != "future" {
			present[a] = true
			if b >= 0 {
				present[b] = true
			}
		}
		if l.neg && name == "future" {
			present[a] = true
		}
	}
	for _, l := range initLits {
		switch {
		case said[litKey{family(l.name), l.a, l.b}]:
		case l.name == "future" && present[l.a]:
		case isKinematic(l.name) && !l.neg && placed[l.a]:
		case l.name != "inroom" && l.name != "future" && (present[l.a] && !pl.inst[l.a].exists):
		default:
			l.plan = pl
			out = append(out, l)
		}
	}
	return out, nil
}
