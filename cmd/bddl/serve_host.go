package main

import (
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/serve"
)

// serveHost is what the server takes from the command: the knowledge
// base as --kb and the rest resolve it, check's options, the records of
// explain and kb show, and the embedded knowledge base's guard.
func serveHost(g *globalOptions) serve.Options {
	return serve.Options{
		Version: version(),
		Log:     g.err,
		LoadKB: func(path string) (*kb.Base, string, error) {
			h := *g
			if path != "" {
				h.kbPath = path
			}
			b, err := h.loadKBData()
			return b, h.kbSource(), err
		},
		Guard: func(base *kb.Base) func(string, *bddl.Problem) error {
			return guardedResolver(base, predicates.Options{}).Guard
		},
		Read: func(goalFormulas string) (bddl.Options, error) {
			return (&readFlags{goalFormulas: goalFormulas}).options()
		},
		Check: func(s serve.CheckSettings) (serve.CheckConfig, error) {
			o := &checkOptions{globalOptions: g, negation: s.Negation, strictPair: s.StrictPairs, hold: s.Hold,
				atEnd: s.AtEnd, lenient: s.Lenient, perStep: s.PerStep, geometry: s.Geometry}
			o.readFlags.goalFormulas = s.GoalFormulas
			compile, err := o.compileOptions()
			if err != nil {
				return serve.CheckConfig{}, err
			}
			parse, err := o.readFlags.options()
			if err != nil {
				return serve.CheckConfig{}, err
			}
			return serve.CheckConfig{Compile: compile, Parse: parse, Episode: o.episodeOptions()}, nil
		},
		Explain:    func(p *bddl.Problem) any { return explain(p) },
		ShowSynset: func(b *kb.Base, id kb.SynsetID) any { return showRecord(b, id) },
	}
}
