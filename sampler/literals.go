package sampler

import (
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/predicates"
)

// literal is one ground :init (or goal option) literal over instance
// indices of the sampling plan. b is -1 for a unary predicate; for inroom
// room holds the room type.
type literal struct {
	pred predicates.PredID
	name string // predicate name as the registry spells it
	a, b int
	room string
	neg  bool
	plan *plan
}

func (l *literal) String() string {
	var s strings.Builder
	if l.neg {
		s.WriteString("(not ")
	}
	s.WriteString("(" + l.name + " " + l.plan.inst[l.a].name)
	switch {
	case l.room != "":
		s.WriteString(" " + l.room)
	case l.b >= 0:
		s.WriteString(" " + l.plan.inst[l.b].name)
	}
	s.WriteString(")")
	if l.neg {
		s.WriteString(")")
	}
	return s.String()
}

func (l *literal) objectNames() []string {
	out := []string{l.plan.inst[l.a].name}
	if l.b >= 0 {
		out = append(out, l.plan.inst[l.b].name)
	}
	return out
}

// kinematic predicates place objects relative to each other.
func isKinematic(name string) bool {
	switch name {
	case "ontop", "inside", "under", "nextto", "touching", "overlaid", "draped", "attached", "onfloor":
		return true
	}
	return false
}

// initLiterals reads :init as literals. :init is a list of atoms and
// negated atoms; anything else (a connective) cannot be sampled. A
// wildcard argument stands for each instance of its expansion.
func (pl *plan) initLiterals(fs []bddl.Formula) ([]literal, *Failure) {
	var out []literal
	var walk func(f bddl.Formula, neg bool) *Failure
	walk = func(f bddl.Formula, neg bool) *Failure {
		switch f := f.(type) {
		case *bddl.And:
			if neg {
				return &Failure{Kind: Unsupported, Message: "a negated conjunction in :init cannot be sampled"}
			}
			for _, x := range f.Xs {
				if fail := walk(x, neg); fail != nil {
					return fail
				}
			}
			return nil
		case *bddl.Not:
			return walk(f.X, !neg)
		case *bddl.Atom:
			lits, fail := pl.atomLiterals(f, neg)
			out = append(out, lits...)
			return fail
		}
		return &Failure{Kind: Unsupported, Message: "only atoms and negated atoms in :init can be sampled"}
	}
	for _, f := range fs {
		if fail := walk(f, false); fail != nil {
			return nil, fail
		}
	}
	return out, nil
}

// atomLiterals grounds one atom by name.
func (pl *plan) atomLiterals(a *bddl.Atom, neg bool) ([]literal, *Failure) {
	name := a.Pred.Key()
	pred, ok := predicates.PredByName(name)
	if !ok {
		return nil, &Failure{Kind: Unsupported, Message: "unknown predicate " + a.Pred.Name}
	}
	if len(a.Args) == 0 {
		return nil, &Failure{Kind: Unsupported, Message: "predicate " + name + " without arguments"}
	}
	heads := pl.resolve(a.Args[0].Key())
	if heads == nil {
		return nil, &Failure{Kind: Unsupported, Message: "unknown instance " + a.Args[0].Name}
	}
	if name == "inroom" {
		if len(a.Args) != 2 {
			return nil, &Failure{Kind: Unsupported, Message: "inroom takes an instance and a room type"}
		}
		var out []literal
		for _, h := range heads {
			out = append(out, literal{pred: pred, name: name, a: h, b: -1, room: a.Args[1].Key(), neg: neg, plan: pl})
		}
		return out, nil
	}
	tails := []int{-1}
	if len(a.Args) > 1 {
		tails = pl.resolve(a.Args[1].Key())
		if tails == nil {
			return nil, &Failure{Kind: Unsupported, Message: "unknown instance " + a.Args[1].Name}
		}
	}
	var out []literal
	for _, h := range heads {
		for _, t := range tails {
			out = append(out, literal{pred: pred, name: name, a: h, b: t, neg: neg, plan: pl})
		}
	}
	return out, nil
}

// resolve returns the plan instances a name stands for: itself, or the
// expansion of a wildcard (possibly empty, as a non-nil slice).
func (pl *plan) resolve(key string) []int {
	if bddl.IsWildcard(key) {
		if ids, ok := pl.wild[key]; ok {
			return append([]int{}, ids...)
		}
		return nil
	}
	if i, ok := pl.index[key]; ok {
		return []int{i}
	}
	return nil
}
