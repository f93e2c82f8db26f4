package initcheck

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/openbddl/bddl/internal/jobs/batch"
)

// Resume splits jobs by a results file's records: the states with a
// verdict in it (an "init" record without an error, matched by absolute
// path) are previous, the others still to do. The results file itself
// (outKey) is never a state to check.
func Resume(recs []batch.Record, outKey string, jobs []*Job) (todo []*Job, previous []Result) {
	byKey := map[string]Result{}
	for _, rec := range recs {
		var r Result
		if json.Unmarshal(rec.Line, &r) == nil && r.Record == "init" && r.Error == "" {
			byKey[rec.Key] = r
		}
	}
	for _, j := range jobs {
		key := batch.PathKey(j.Path)
		if key == outKey {
			continue
		}
		if r, ok := byKey[key]; ok {
			previous = append(previous, r)
			continue
		}
		todo = append(todo, j)
	}
	return todo, previous
}

// Runner evaluates jobs on a pool of workers.
type Runner struct {
	Pool   batch.Pool
	Format string    // text or json, of each Result on Stdout
	Stdout io.Writer // each Result, in input order
	// Results, when set, gets each Result too, stamped with the shard
	// (Shard, of ShardInputs states) and the state's key and path
	// relative to its argument; OutName names it in errors.
	Results     *batch.ResultsFile
	OutName     string
	Shard       batch.Shard
	ShardInputs int
}

// Run evaluates the jobs and returns their Results in input order; a
// cancelled ctx stops it early with the Results so far (the caller
// tells by ctx.Err()).
func (r *Runner) Run(ctx context.Context, jobs []*Job) ([]Result, error) {
	var out []Result
	shard := "0/1"
	if !r.Shard.All() {
		shard = r.Shard.String()
	}
	err := batch.Run(ctx, r.Pool, jobs, func(ctx context.Context, j *Job) (Result, bool) {
		if ctx.Err() != nil {
			return Result{}, false
		}
		return j.Eval(), true
	}, batch.Handlers[Result]{Ordered: func(i int, res Result) error {
		out = append(out, res)
		if r.Results != nil {
			line := res
			line.Shard, line.ShardInputs, line.Key, line.Rel = shard, r.ShardInputs, batch.PathKey(res.Episode), jobs[i].Rel
			if err := r.Results.Append(line); err != nil {
				return fmt.Errorf("-o %s: %w", r.OutName, err)
			}
		}
		return WriteResult(r.Stdout, r.Format, &res)
	}})
	return out, err
}
