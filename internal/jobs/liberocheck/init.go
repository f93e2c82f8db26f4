package liberocheck

import (
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/initcheck"
	"github.com/openbddl/bddl/libero"
)

// InitJobs are check --init's jobs of LIBERO episodes: each evaluates
// its own :init (InitResult), with check --init's records, report,
// results file and shards.
func InitJobs(ins []batch.Input, fc libero.FileCheck) []*initcheck.Job {
	jobs := make([]*initcheck.Job, 0, len(ins))
	for _, in := range ins {
		path := in.Path
		jobs = append(jobs, &initcheck.Job{Path: path, Rel: in.Rel, Own: func() initcheck.Result { return InitResult(path, fc) }})
	}
	return jobs
}

// InitResult is check --init's record of a LIBERO episode.
func InitResult(path string, fc libero.FileCheck) initcheck.Result {
	res := initcheck.Result{Record: "init", Episode: path}
	r, err := libero.CheckFile(path, fc)
	if err != nil {
		res.Init, res.Error = "unknown", err.Error()
		return res
	}
	res.Activity, res.Init, res.Literals = r.Activity, r.Init.String(), r.InitLiterals
	for _, l := range r.InitFailures {
		res.Failing = append(res.Failing, initcheck.Failure{Literal: l.Literal, Value: l.Value.String(), Detail: l.Detail})
		if l.Value == libero.False {
			res.False++
		} else {
			res.Unknown++
		}
	}
	res.NotTrue = len(res.Failing)
	return res
}
