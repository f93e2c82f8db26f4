package serve

import (
	"fmt"
	"io"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// testHost is the host of the package's tests: the knowledge base at
// kbPath (else the embedded one), check's options as bddl check makes
// them, and records of explain and kb show. The bddl command's host, and
// the agreement of its answers with its commands, are tested in
// cmd/bddl.
func testHost(log io.Writer, kbPath string) *Options {
	o := &Options{
		Version: "test",
		Log:     log,
		LoadKB: func(path string) (*kb.Base, string, error) {
			if path == "" {
				path = kbPath
			}
			if path == "" {
				return kb.Default(), "(embedded default)", nil
			}
			b, err := kb.Load(path)
			return b, path, err
		},
		Read: func(goalFormulas string) (bddl.Options, error) {
			opts := bddl.Options{Mode: bddl.Reference}
			switch goalFormulas {
			case "first", "":
			case "all":
				opts.Goal = bddl.AllGoalFormulas
			default:
				return opts, fmt.Errorf("--goal-formulas %q: use first or all", goalFormulas)
			}
			return opts, nil
		},
		Explain: func(p *bddl.Problem) any {
			e := struct {
				Problem string   `json:"problem"`
				Domain  string   `json:"domain"`
				Init    []string `json:"init"`
				Goal    []string `json:"goal"`
			}{Problem: p.Name.Name, Domain: p.Domain.Name, Init: []string{}, Goal: []string{}}
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
		},
		ShowSynset: func(b *kb.Base, id kb.SynsetID) any {
			return map[string]any{"name": b.Name(id), "parents": b.Names(b.Parents(id))}
		},
	}
	o.Check = func(s CheckSettings) (CheckConfig, error) {
		var c CheckConfig
		switch s.Negation {
		case "reference":
			c.Compile.Negation = predicates.ReferenceNegation
		case "strict":
			c.Compile.Negation = predicates.StrictNegation
		default:
			return c, fmt.Errorf("--negation %q: use reference or strict", s.Negation)
		}
		c.Compile.StrictPairs, c.Compile.Geometry = s.StrictPairs, s.Geometry
		var err error
		if c.Parse, err = o.Read(s.GoalFormulas); err != nil {
			return c, err
		}
		c.Episode = episode.CheckOptions{Hold: s.Hold, AtEnd: s.AtEnd, PerStep: s.PerStep, Lenient: s.Lenient}
		return c, nil
	}
	o.defaults()
	return o
}
