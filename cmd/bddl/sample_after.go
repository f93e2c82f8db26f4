package main

import (
	"fmt"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/sampler"
	"github.com/openbddl/bddl/transitions"
)

// afterJob builds the job of --after RULE: the definition of the state
// before the rule fires (sampler.PrepareAfter), sampled like any other.
func afterJob(opts *sampleOptions, base *kb.Base, name string) (sampleJob, error) {
	r, ok := transitions.FindRule(base, name)
	if !ok {
		return sampleJob{}, misuse("--after: no transition rule %q in %s; 'bddl transition list' shows them", name, opts.kbSource())
	}
	a, err := sampler.PrepareAfter(base, r, opts.seed)
	if err != nil {
		return sampleJob{}, fmt.Errorf("--after %s: %w", name, err)
	}
	return sampleJob{name: "after_" + string(r.Family) + "_" + r.Name, problem: a.Problem, fail: a.Failure, after: a}, nil
}
