package episode

import (
	"github.com/openbddl/bddl/predicates"
)

// FromInit returns the closed-world symbolic recording of a definition's
// own :init (predicates.Program.InitState): a header listing every
// instance (those declared future with exists false) and one step, 0,
// with every init atom as a fact (negated ones under "false"). Checking
// it must find :init true; it is the starting point of hand-written
// symbolic recordings, tests and benchmarks.
func FromInit(prog *predicates.Program, activity string) (*Header, *Step) {
	s := prog.InitState()
	h := &Header{Activity: activity, ClosedWorld: true, Steps: 1, Objects: map[string]*Object{}}
	for id := 0; id < prog.NumObjects(); id++ {
		o := &Object{}
		if s.Exists(predicates.ObjectID(id)) == predicates.False {
			o.Set, o.Exists = predicates.FieldExists, false
		}
		h.Objects[prog.Name(predicates.ObjectID(id))] = o
	}
	step := &Step{Step: 0}
	step.Facts, step.False = factsOf(prog, s)
	return h, step
}

// factsOf lists a state's recorded facts, true and false, in registry
// then id order.
func factsOf(prog *predicates.Program, s *predicates.State) (facts, falses []Atom) {
	n := prog.NumIDs()
	for _, p := range predicates.Predicates() {
		for a := 0; a < n; a++ {
			if p.Arity == 1 {
				facts, falses = addFact(prog, s, p.ID, predicates.ObjectID(a), predicates.NoObject, facts, falses)
				continue
			}
			for b := 0; b < n; b++ {
				facts, falses = addFact(prog, s, p.ID, predicates.ObjectID(a), predicates.ObjectID(b), facts, falses)
			}
		}
	}
	return facts, falses
}

func addFact(prog *predicates.Program, s *predicates.State, pred predicates.PredID, a, b predicates.ObjectID, facts, falses []Atom) ([]Atom, []Atom) {
	t := s.Fact(pred, a, b)
	if t == predicates.Unknown {
		return facts, falses
	}
	atom := Atom{Pred: pred.String(), A: prog.Name(a)}
	if b != predicates.NoObject {
		atom.B = prog.Name(b)
	}
	if t == predicates.True {
		return append(facts, atom), falses
	}
	return facts, append(falses, atom)
}
