package liberocheck

import (
	"fmt"
	"io"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/libero"
)

// Options say how Run checks and reports.
type Options struct {
	File  libero.FileCheck
	Shard batch.Shard
	// Results is the results file (-o) appended to and resumed from;
	// nil: none. ResultsName names it in messages.
	Results     *batch.ResultsFile
	ResultsName string
	JSON        bool // one record per episode (Encode), else text
	Details     bool // a full report per episode even in a batch
	Out, Err    io.Writer
	Encode      func(any) error // writes one JSON line on Out
}

// ResultLine is a LIBERO result as a results file (-o) holds it: the
// record with what resuming and merging need (bddl schema result).
type ResultLine struct {
	libero.Report
	Shard       string `json:"shard"`
	ShardInputs int    `json:"shard_inputs"`
	Key         string `json:"key"`
	Rel         string `json:"rel,omitempty"`
}

// ShardName is a results file's name of a shard: "0/1" unsharded.
func ShardName(s batch.Shard) string {
	if s.All() {
		return "0/1"
	}
	return s.String()
}

// Run checks the LIBERO episodes among ins that the shard keeps. failed
// is true when an episode, checked now or earlier (resumed), did not
// succeed or could not be checked (the error printed on Err); err stops
// the run (a write error).
func Run(ins []batch.Input, o Options) (failed bool, err error) {
	// --shard keeps the episodes whose path relative to its argument
	// hashes to it, as for BEHAVIOR-1K episodes.
	var kept []batch.Input
	for _, in := range ins {
		if libero.IsEpisodeFile(in.Path) && o.Shard.Keep(in.Rel) {
			kept = append(kept, in)
		}
	}
	var previous []batch.Record
	todo := kept
	if o.Results != nil {
		keys := make([]string, len(kept))
		for i, in := range kept {
			keys[i] = batch.PathKey(in.Path)
		}
		plan := batch.PlanResume(o.Results.Records(), keys)
		previous = plan.Done
		todo = nil
		for _, i := range plan.Todo {
			todo = append(todo, kept[i])
		}
		if len(previous) > 0 {
			fmt.Fprintf(o.Err, "bddl: note: %s: %d of %d episodes already checked; checking %d\n", o.ResultsName, len(previous), len(kept), len(todo))
		}
	}
	// Several episodes: one line each and a table per task, as check
	// prints BEHAVIOR-1K batches; Details prints every full report.
	brief := len(kept) > 1 && !o.Details
	all := append([]batch.Record(nil), previous...)
	for _, in := range todo {
		r, err := libero.CheckFile(in.Path, o.File)
		if err != nil {
			fmt.Fprintln(o.Err, "bddl:", err)
			failed = true
			continue
		}
		failed = failed || !r.Success
		all = append(all, batch.Record{Episode: r.Episode, Activity: r.Activity, Success: r.Success, Score: r.Score, ChallengeScore: r.ChallengeScore})
		if o.Results != nil {
			line := ResultLine{Report: r, Shard: ShardName(o.Shard), ShardInputs: len(kept), Key: batch.PathKey(in.Path), Rel: in.Rel}
			if err := o.Results.Append(line); err != nil {
				return true, fmt.Errorf("-o %s: %w", o.ResultsName, err)
			}
		}
		switch {
		case o.JSON:
			if err := o.Encode(r); err != nil {
				return true, err
			}
		case brief:
			libero.WriteLine(o.Out, r)
		default:
			libero.WriteText(o.Out, r)
		}
	}
	for _, r := range previous {
		failed = failed || !r.Success
	}
	if brief && !o.JSON {
		// The table of BEHAVIOR-1K batches, so one script reads both.
		if err := batch.WriteSummary(o.Out, all, len(previous)); err != nil {
			return true, err
		}
	}
	return failed, nil
}
