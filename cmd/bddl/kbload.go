package main

import (
	"errors"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/kbresolve"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// kbLoader resolves and loads the run's knowledge base
// (internal/jobs/kbresolve).
func (g *globalOptions) kbLoader() kbresolve.Loader {
	return kbresolve.Loader{Inputs: kbresolve.Inputs{Flag: g.kbPath, Project: g.project, Hints: g.hints},
		Started: g.started, Noted: &g.kbNoted, Err: g.err}
}

// loadKB loads the knowledge base the run resolves to, noting which when
// nothing chose it; the returned error is for the caller to wrap as
// misuse (exit 2), a refused embedded default already is.
func (g *globalOptions) loadKB() (*kb.Base, error) {
	b, err := g.kbLoader().Load()
	if r := (*kbresolve.Refusal)(nil); errors.As(err, &r) {
		return nil, misuse("%s", r)
	}
	return b, err
}

// loadKBData is loadKB returning data errors with the base, for kb check.
func (g *globalOptions) loadKBData() (*kb.Base, error) { return g.kbLoader().LoadData() }

// kbSource names the knowledge base in use, for messages.
func (g *globalOptions) kbSource() string { return g.kbLoader().Source() }

// guardedResolver is batch.NewResolver refusing, with the embedded
// default, definitions it cannot serve.
func guardedResolver(base *kb.Base, opts predicates.Options) *batch.Resolver {
	return kbresolve.GuardedResolver(base, opts)
}
