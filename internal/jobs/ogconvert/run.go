package ogconvert

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

// Result is one job's outcome.
type Result struct {
	Job    *omnigibson.Job
	Report *omnigibson.Report
	Err    error
}

// RunOptions say how Run runs and reports.
type RunOptions struct {
	Jobs     int  // workers; 0: one per core
	Progress bool // a progress bar on Err when it is a terminal
	JSON     bool // a "converted" record per state on Out
	Out, Err io.Writer
}

// Run converts the jobs, in parallel, reporting in order: an error on
// Err ("bddl: ..."), a record on Out with JSON. It then writes the
// definitions beside the episodes written. failed counts the jobs that
// failed, and one more when a definition could not be written; err is a
// write error of the reports. A cancelled ctx stops the run: results
// holds what was done.
func Run(ctx context.Context, jobs []*omnigibson.Job, defs []Definition, o RunOptions) (results []Result, failed int, err error) {
	pool := batch.Pool{Jobs: o.Jobs}
	if o.Progress {
		pool.Progress = batch.NewProgress(o.Err, int64(len(jobs)), 2, "converting")
	}
	err = batch.Run(ctx, pool, jobs, func(ctx context.Context, j *omnigibson.Job) (Result, bool) {
		if ctx.Err() != nil {
			return Result{}, false
		}
		rep, err := j.Run()
		return Result{Job: j, Report: rep, Err: err}, true
	}, batch.Handlers[Result]{Ordered: func(i int, r Result) error {
		results = append(results, r)
		if r.Err != nil {
			failed++
			fmt.Fprintln(o.Err, "bddl:", r.Err)
			return nil
		}
		if o.JSON {
			b, err := episode.ConvertedRecord(r.Job.Out, r.Report.Instance, defs[i].Name, r.Report)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(o.Out, string(b))
			return err
		}
		return nil
	}})
	if err != nil {
		return results, failed, err
	}
	if err := WriteDefinitions(jobs, defs, results); err != nil {
		fmt.Fprintln(o.Err, "bddl:", err)
		failed++
	}
	return results, failed, nil
}

// WriteDefinitions writes a copy of each converted episode's definition
// beside it, <dir>/<name>.bddl, once per directory and name, so that
// 'bddl check --episode DIR' finds it (batch.Resolver).
func WriteDefinitions(jobs []*omnigibson.Job, defs []Definition, results []Result) error {
	ok := map[*omnigibson.Job]bool{}
	for _, r := range results {
		if r.Err == nil {
			ok[r.Job] = true
		}
	}
	done := map[string]bool{}
	for i, j := range jobs {
		if !ok[j] || j.Out == "-" {
			continue
		}
		path := filepath.Join(filepath.Dir(j.Out), batch.DefinitionFile(defs[i].Name))
		if done[path] {
			continue
		}
		done[path] = true
		if err := fsutil.WriteFileAtomic(path, defs[i].Src); err != nil {
			return fmt.Errorf("writing the definition beside the episodes: %w", err)
		}
	}
	return nil
}

// WriteSummary sums up the converted states for people; out is -o.
func WriteSummary(w io.Writer, results []Result, failed, total int, out string) {
	var sum omnigibson.Summary
	for _, r := range results {
		if r.Err == nil {
			sum.Add(r.Report)
		}
	}
	where := out
	if total == 1 && sum.States == 1 {
		where = results[0].Job.Out
	}
	sum.WriteText(w, total, failed, where)
}
