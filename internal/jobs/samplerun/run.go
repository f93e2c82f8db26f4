package samplerun

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/sampler"
)

// MaxTasks bounds the configurations of one run, so that a mistyped -n
// cannot exhaust memory.
const MaxTasks = 10_000_000

// Job is an activity to sample, with its shard key and the text of the
// copy of its definition written beside its episodes (none: no copy).
type Job struct {
	sampler.Job
	Key    string
	Source []byte
}

// AssignScenes fixes each job's scenes: scene when given, else the scene
// files' (fileScenes), else the knowledge base's scenes that have the
// activity's in-room objects (a NoScene failure when none has), shuffled
// by the seed and the activity's name; an activity with no in-room
// object may be sampled in any scene.
func AssignScenes(jobs []Job, smp *sampler.Sampler, base *kb.Base, scene string, fileScenes []string, seed uint64) {
	for i := range jobs {
		j := &jobs[i]
		if j.Failure != nil {
			continue
		}
		if scene != "" {
			j.Scenes = []string{scene}
			continue
		}
		if len(fileScenes) > 0 {
			j.Scenes = fileScenes
			continue
		}
		rep := activities.Analyze(j.Problem, base, activities.OnlyRules("no-scene"))
		if f := rep.Scenes; f != nil && len(f.Needs) > 0 {
			for _, s := range f.Compatible() {
				j.Scenes = append(j.Scenes, s.Scene)
			}
			if len(j.Scenes) == 0 {
				j.Failure = &sampler.Failure{Kind: sampler.NoScene, Message: fmt.Sprintf("no scene of the knowledge base has the in-room objects (%d scenes)", len(f.Scenes))}
			}
		} else {
			j.Scenes = smp.SceneNames()
		}
		sampler.ShuffleScenes(j.Scenes, seed, j.Name)
	}
}

// Options say how Run samples and reports.
type Options struct {
	Count int // configurations per job
	Write sampler.WriteOptions
	JSON  bool // a sample record per configuration on Out, else text lines
	Out   io.Writer
	Err   io.Writer // the definition copies' write errors
	Pool  batch.Pool
}

// Run samples o.Count configurations of each job and writes them, then
// the definitions beside the episodes of the jobs that wrote any. done
// counts the configurations reported, failed those not sampled (and one
// more when a definition could not be written); err is an output error.
// A cancelled ctx stops the run.
func Run(ctx context.Context, smp *sampler.Sampler, jobs []Job, o Options) (done, failed int, err error) {
	type task struct{ job, k int }
	var tasks []task
	for j := range jobs {
		for k := 0; k < o.Count; k++ {
			tasks = append(tasks, task{j, k})
		}
	}
	wrote := make([]bool, len(jobs)) // jobs with a configuration written
	enc := json.NewEncoder(o.Out)
	err = batch.Run(ctx, o.Pool, tasks, func(_ context.Context, t task) (sampler.Record, bool) {
		return smp.SampleAndWrite(&jobs[t.job].Job, t.k, o.Write), true
	}, batch.Handlers[sampler.Record]{Ordered: func(i int, r sampler.Record) error {
		done++
		if r.Status != "ok" {
			failed++
		} else {
			wrote[tasks[i].job] = true
		}
		if o.JSON {
			return enc.Encode(r)
		}
		return WriteText(o.Out, r)
	}})
	if err != nil {
		return done, failed, err
	}
	if err := WriteDefinitionCopies(o.Write.Out, jobs, wrote); err != nil {
		fmt.Fprintf(o.Err, "bddl: %v\n", err)
		failed++
	}
	return done, failed, nil
}

// WriteText writes a configuration's line for people: ok with its file,
// time and the objects shrunk to fit, or FAIL with the reason.
func WriteText(w io.Writer, r sampler.Record) error {
	if r.Status != "ok" {
		_, err := fmt.Fprintf(w, "FAIL  %s  #%d  %v\n", r.Activity, r.Index, r.Reason)
		return err
	}
	_, err := fmt.Fprintf(w, "ok    %s  %s  %.1f ms\n", r.Activity, r.File, r.MS)
	if len(r.Shrunk) > 0 && err == nil {
		parts := make([]string, len(r.Shrunk))
		for i, s := range r.Shrunk {
			parts[i] = fmt.Sprintf("%s ×%.2g", s.Object, s.Factor)
		}
		_, err = fmt.Fprintf(w, "      shrunk to fit: %s\n", strings.Join(parts, ", "))
	}
	return err
}

// WriteDefinitionCopies writes, beside the episodes of each job that
// wrote any, a copy of its definition, OUT/<name>/<name>.bddl, so that
// 'bddl check --episode OUT/' finds it without --activity or
// --activities (batch.Resolver looks there for the name a header gives).
func WriteDefinitionCopies(out string, jobs []Job, wrote []bool) error {
	for i, j := range jobs {
		if !wrote[i] || len(j.Source) == 0 || j.After != nil {
			continue
		}
		path := filepath.Join(out, j.Name, batch.DefinitionFile(j.Name))
		if err := fsutil.WriteFileAtomic(path, j.Source); err != nil {
			return fmt.Errorf("writing the definition beside the episodes: %w", err)
		}
	}
	return nil
}
