package sampler

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/openbddl/bddl/bddl"
)

// Job is one activity to sample configurations of, as `bddl sample`
// resolves its arguments.
type Job struct {
	Name    string
	Problem *bddl.Problem
	Scenes  []string // tried in this order
	Failure *Failure // known before sampling (no compatible scene, no parse)
	After   *After   // --after: the rule to replay on each configuration
}

// Record is the outcome of one configuration, one line of
// `bddl sample --format json`.
type Record struct {
	Activity string   `json:"activity"`
	Scene    string   `json:"scene"`
	Seed     uint64   `json:"seed"`
	Index    int      `json:"index"`
	File     string   `json:"file,omitempty"`
	Status   string   `json:"status"` // ok or failed
	Reason   *Failure `json:"reason,omitempty"`
	MS       float64  `json:"ms"` // time to sample and verify
	// Shrunk lists the objects shrunk to fit, with the factor.
	Shrunk []Shrink `json:"shrunk,omitempty"`
}

// Shrink is an object shrunk to fit and the factor of its size.
type Shrink struct {
	Object string  `json:"object"`
	Factor float64 `json:"factor"`
}

// WriteOptions say how configurations are drawn and where they go.
type WriteOptions struct {
	Seed uint64
	Goal bool   // sample the goal instead of :init
	Out  string // files go to Out/<activity>/
	SVG  bool   // also draw each configuration
	// NoShrink refuses, with a no-space failure, a configuration in
	// which an object fits only shrunk.
	NoShrink bool
}

// SampleAndWrite samples configuration k of the job and writes it under
// o.Out (with its drawing when o.SVG), returning its record; a failure,
// to sample or to write, is a record with status "failed", never lost.
func (s *Sampler) SampleAndWrite(j *Job, k int, o WriteOptions) Record {
	rec := Record{Activity: j.Name, Seed: o.Seed, Index: k}
	if j.Failure != nil {
		rec.Status, rec.Reason = "failed", j.Failure
		return rec
	}
	start := time.Now()
	req := Request{Activity: j.Name, Problem: j.Problem, Scenes: j.Scenes, Seed: o.Seed, Index: k, Goal: o.Goal, NoShrink: o.NoShrink}
	var res *Result
	var err error
	if j.After != nil {
		res, err = j.After.Sample(s, req)
	} else {
		res, err = s.Sample(req)
	}
	rec.MS = float64(time.Since(start).Microseconds()) / 1000
	if err != nil {
		rec.Status = "failed"
		if f, ok := err.(*Failure); ok {
			rec.Reason = f
		} else {
			rec.Reason = &Failure{Kind: Internal, Message: err.Error()}
		}
		return rec
	}
	rec.Scene = res.Scene
	rec.Shrunk = res.Shrunk()
	var path string
	if j.After != nil {
		var fail *Failure
		if path, fail = j.After.WriteFile(s, res, filepath.Join(o.Out, j.Name)); fail != nil {
			rec.Status, rec.Reason = "failed", fail
			return rec
		}
	} else {
		path, err = res.WriteFile(o.Out, s.Digest())
	}
	if err == nil && o.SVG {
		err = res.WriteSVG(filepath.Join(filepath.Dir(path), res.Scene+fmt.Sprintf("-%d-%d.svg", res.Seed, res.Index)))
	}
	if err != nil {
		rec.Status, rec.Reason = "failed", &Failure{Kind: Output, Message: "writing: " + err.Error()}
		return rec
	}
	rec.Status, rec.File = "ok", path
	return rec
}

// Shrunk lists the objects of the configuration shrunk to fit, in
// instance order.
func (r *Result) Shrunk() []Shrink {
	var out []Shrink
	for _, o := range r.Objects {
		if o.Scale > 0 && o.Scale != 1 {
			out = append(out, Shrink{Object: o.Name, Factor: o.Scale})
		}
	}
	return out
}
