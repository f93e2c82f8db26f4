package bddl

// Explanation is a problem in plain words, as bddl explain --format json
// prints it (bddl schema explain): one sentence per :init literal and
// per top-level goal conjunct.
type Explanation struct {
	Problem string   `json:"problem"`
	Domain  string   `json:"domain"`
	Init    []string `json:"init"`
	Goal    []string `json:"goal"`
}

// ExplainRecord is p's Explanation.
func ExplainRecord(p *Problem) Explanation {
	e := Explanation{Problem: p.Name.Name, Domain: p.Domain.Name, Init: []string{}, Goal: []string{}}
	for _, f := range p.Init {
		e.Init = append(e.Init, Explain(f))
	}
	goal := []Formula{p.Goal}
	if and, ok := p.Goal.(*And); ok {
		goal = and.Xs
	}
	for _, f := range goal {
		e.Goal = append(e.Goal, Explain(f))
	}
	return e
}
