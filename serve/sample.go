package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/sampler"
)

// bddl serve's sample: configurations of an activity as bddl sample
// draws them, written to a directory (output) or returned as the lines
// of the episode files bddl sample would write.

func init() { serveMethods["sample"] = serveSample }

// maxServeSamples bounds n of one request.
const maxServeSamples = 10_000

type sampleParams struct {
	definitionParams
	Scene  string `json:"scene"`
	Seed   uint64 `json:"seed"`
	N      int    `json:"n"`
	Goal   bool   `json:"goal"`
	Output string `json:"output"`
}

// sampleRecord is a sample.schema.json record with, when no output
// directory is given, the configuration's episode lines.
type sampleRecord struct {
	sampler.Record
	Episode []json.RawMessage `json:"episode,omitempty"`
}

func serveSample(s *server, raw json.RawMessage) (any, *serveError) {
	var p sampleParams
	if e := decodeParams(raw, &p); e != nil {
		return nil, e
	}
	if p.N == 0 {
		p.N = 1
	}
	if p.N < 1 || p.N > maxServeSamples {
		return nil, errorf(codeInvalidParams, "n must be between 1 and %d", maxServeSamples)
	}
	name, src, serr := p.source()
	if serr != nil {
		return nil, serr
	}
	parse, _ := s.opts.Read("")
	prob, diags := parse.ParseProblem(name, src)
	if diags.HasErrors() {
		return nil, asServeError(diags, codeDefinition)
	}
	smp, serr := s.state.sampler(p.KB)
	if serr != nil {
		return nil, serr
	}
	job := sampler.Job{Name: prob.Name.Name, Problem: prob}
	if act, n, ok := activities.ActivityPath(name); ok {
		job.Name = act
		if n > 0 {
			job.Name = fmt.Sprintf("%s-%d", act, n)
		}
	} else if p.Activity != "" {
		job.Name = p.Activity
	}
	// Scene choice as bddl sample makes it.
	switch {
	case p.Scene != "":
		if _, ok := smp.Scene(p.Scene); !ok {
			return nil, errorf(codeNotFound, "no scene %q in the knowledge base", p.Scene)
		}
		job.Scenes = []string{p.Scene}
	default:
		rep := activities.Analyze(prob, smp.Base(), activities.OnlyRules("no-scene"))
		if f := rep.Scenes; f != nil && len(f.Needs) > 0 {
			for _, sc := range f.Compatible() {
				job.Scenes = append(job.Scenes, sc.Scene)
			}
			if len(job.Scenes) == 0 {
				job.Failure = &sampler.Failure{Kind: sampler.NoScene, Message: fmt.Sprintf("no scene of the knowledge base has the in-room objects (%d scenes)", len(f.Scenes))}
			}
		} else {
			job.Scenes = smp.SceneNames()
		}
		sampler.ShuffleScenes(job.Scenes, p.Seed, job.Name)
	}
	recs := make([]sampleRecord, 0, p.N)
	for k := 0; k < p.N; k++ {
		if p.Output != "" {
			recs = append(recs, sampleRecord{Record: smp.SampleAndWrite(&job, k, sampler.WriteOptions{Seed: p.Seed, Goal: p.Goal, Out: p.Output})})
			continue
		}
		recs = append(recs, sampleInMemory(smp, &job, k, p.Seed, p.Goal))
	}
	return map[string]any{"configurations": recs}, nil
}

// sampleInMemory is SampleAndWrite returning the episode's lines instead
// of writing its file.
func sampleInMemory(smp *sampler.Sampler, j *sampler.Job, k int, seed uint64, goal bool) sampleRecord {
	rec := sampleRecord{Record: sampler.Record{Activity: j.Name, Seed: seed, Index: k}}
	if j.Failure != nil {
		rec.Status, rec.Reason = "failed", j.Failure
		return rec
	}
	start := time.Now()
	res, err := smp.Sample(sampler.Request{Activity: j.Name, Problem: j.Problem, Scenes: j.Scenes, Seed: seed, Index: k, Goal: goal})
	rec.MS = float64(time.Since(start).Microseconds()) / 1000
	if err == nil {
		var buf bytes.Buffer
		if err = res.WriteEpisode(&buf, smp.Digest()); err == nil {
			rec.Scene, rec.Status = res.Scene, "ok"
			for _, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
				rec.Episode = append(rec.Episode, json.RawMessage(line))
			}
			return rec
		}
	}
	rec.Status = "failed"
	if f, ok := err.(*sampler.Failure); ok {
		rec.Reason = f
	} else {
		rec.Reason = &sampler.Failure{Kind: sampler.Internal, Message: err.Error()}
	}
	return rec
}
