package main

import (
	"fmt"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/samplerun"
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

// sampleJobs resolves the arguments: files, directories and globs of
// definitions, else names of embedded examples.
func sampleJobs(opts *sampleOptions, args []string, parse bddl.Options) ([]samplerun.Job, error) {
	var jobs []samplerun.Job
	var paths []string
	for _, a := range args {
		if !isPathLike(a) {
			n, err := resolveName(a, opts.library)
			if err != nil {
				return nil, misuse("%v", err)
			}
			if n.path != "" {
				paths = append(paths, n.path)
				continue
			}
			act := n.example
			jobs = append(jobs, samplerun.Job{Job: sampler.Job{Name: act.Name, Problem: act.Problem}, Key: act.Name, Source: act.Source})
			continue
		}
		paths = append(paths, a)
	}
	if len(paths) > 0 {
		ins, err := opts.expandDefinitions(paths)
		if err != nil {
			return nil, err
		}
		for i, p := range parseInputsWith(ins, opts.in, parse) {
			if p.err != nil {
				return nil, misuse("%v", p.err)
			}
			if !p.diags.HasErrors() {
				p.diags.WriteText(opts.err) // what the reference passes over
			}
			if p.file == nil || p.file.Problem == nil {
				continue // domain files
			}
			// The canonical name; a second instance of an activity keeps
			// its number so that its files do not overwrite the first's.
			name := activities.CanonicalName(p.path, p.file.Problem)
			if act, n, ok := activities.ActivityPath(p.path); ok && n > 0 {
				name = fmt.Sprintf("%s-%d", act, n)
			}
			job := samplerun.Job{Job: sampler.Job{Name: name, Problem: p.file.Problem}, Key: ins[i].Rel,
				Source: definitionCopy(p.path, bddl.Format(p.file))}
			if p.diags.HasErrors() {
				job.Failure = &sampler.Failure{Kind: sampler.Unsupported, Message: p.path + " does not parse: " + firstDiag(p.diags)}
			}
			jobs = append(jobs, job)
		}
	}
	if len(jobs) == 0 {
		return nil, misuse("no activity definition found in %v", args)
	}
	return jobs, nil
}
