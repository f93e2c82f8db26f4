package main

import "github.com/openbddl/bddl/bddl"

// explain is the record of bddl explain --format json.
func explain(p *bddl.Problem) explanation {
	e := explanation{Problem: p.Name.Name, Domain: p.Domain.Name, Init: []string{}, Goal: []string{}}
	for _, f := range p.Init {
		e.Init = append(e.Init, bddl.Explain(f))
	}
	goal := []bddl.Formula{p.Goal}
	if and, ok := p.Goal.(*bddl.And); ok {
		goal = and.Xs
	}
	for _, f := range goal {
		e.Goal = append(e.Goal, bddl.Explain(f))
	}
	return e
}
