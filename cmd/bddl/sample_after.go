package main

import (
	"fmt"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/sampler"
	"github.com/openbddl/bddl/transitions"
)

// afterJob builds the job of --after RULE: the definition of the state
// before the rule fires (sampler.PrepareAfter), sampled like any other.
func afterJob(opts *sampleOptions, base *kb.Base, name string) (sampler.Job, error) {
	r, ok := transitions.FindRule(base, name)
	if !ok {
		return sampler.Job{}, misuse("--after: no transition rule %q in %s%s", name, opts.kbSource(), ruleHint(base, name))
	}
	a, err := sampler.PrepareAfter(base, r, opts.seed)
	if err != nil {
		return sampler.Job{}, fmt.Errorf("--after %s: %w", name, err)
	}
	return sampler.Job{Name: "after_" + string(r.Family) + "_" + r.Name, Problem: a.Problem, Failure: a.Failure, After: a}, nil
}
