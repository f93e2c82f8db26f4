package sampler

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/openbddl/bddl/episode"
)

// The sampled configuration as an episode: a header with every
// instance's fields and one step (step 0, with the facts of predicates
// that only facts define), open-world, so `bddl check` reads it directly.

// Meta is what the header's meta.sampler records.
type Meta struct {
	Seed   uint64 `json:"seed"`
	Index  int    `json:"index"`
	Scene  string `json:"scene"`
	Source string `json:"scene_source"`
	Goal   bool   `json:"goal,omitempty"`
	// Models maps each instance to its object model (in-room instances:
	// the scene object's model), "" for substances and future objects.
	Models map[string]string `json:"models"`
	// SceneObjects maps in-room instances to the scene objects they are.
	SceneObjects map[string]string `json:"scene_objects,omitempty"`
	// Scales lists the instances shrunk to fit, with the factor.
	Scales map[string]float64 `json:"scales,omitempty"`
	// ModelScales lists the instances whose model is loaded rescaled, as
	// the reference loads it (Object.ModelScale), per axis.
	ModelScales map[string][3]float64 `json:"model_scales,omitempty"`
	KB          string                `json:"kb_digest"`
	// SamplingLists is the digest of the sampling lists (Lists.Digest)
	// when they name the task, "" when they do not.
	SamplingLists string `json:"sampling_lists,omitempty"`
}

// Header is the episode header of the configuration.
func (r *Result) Header(digest string) (*episode.Header, error) {
	m := Meta{Seed: r.Seed, Index: r.Index, Scene: r.Scene, Source: r.Source, Goal: r.Goal, Models: map[string]string{}, KB: digest, SamplingLists: r.SamplingLists}
	for _, o := range r.Objects {
		m.Models[o.Name] = o.Model
		if o.Scale != 1 && o.Scale > 0 {
			if m.Scales == nil {
				m.Scales = map[string]float64{}
			}
			m.Scales[o.Name] = o.Scale
		}
		if o.ModelScale != ([3]float64{1, 1, 1}) && o.ModelScale != ([3]float64{}) {
			if m.ModelScales == nil {
				m.ModelScales = map[string][3]float64{}
			}
			m.ModelScales[o.Name] = o.ModelScale
		}
		if o.SceneObject != "" {
			if m.SceneObjects == nil {
				m.SceneObjects = map[string]string{}
			}
			m.SceneObjects[o.Name] = o.SceneObject
		}
	}
	meta, err := json.Marshal(map[string]any{"sampler": m})
	if err != nil {
		return nil, err
	}
	return &episode.Header{Activity: r.Activity, ClosedWorld: false, Steps: 1, Objects: r.fields, Meta: meta}, nil
}

// WriteEpisode writes the configuration as an episode.
func (r *Result) WriteEpisode(w io.Writer, digest string) error {
	h, err := r.Header(digest)
	if err != nil {
		return err
	}
	ew, err := episode.NewWriter(w, h)
	if err != nil {
		return err
	}
	if err := ew.WriteStep(&episode.Step{Step: 0, Facts: r.facts, False: r.falseFacts}); err != nil {
		return err
	}
	return ew.Close()
}

// FileName is the configuration's file name: <scene>-<seed>-<index>.jsonl.
func (r *Result) FileName() string {
	return fmt.Sprintf("%s-%d-%d.jsonl", r.Scene, r.Seed, r.Index)
}

// WriteFile writes the episode to dir/<activity>/<scene>-<seed>-<k>.jsonl
// atomically (a temporary file renamed into place) and returns its path.
func (r *Result) WriteFile(dir, digest string) (string, error) {
	sub := filepath.Join(dir, r.Activity)
	if err := os.MkdirAll(sub, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(sub, r.FileName())
	tmp, err := os.CreateTemp(sub, ".sample-*")
	if err != nil {
		return "", err
	}
	if err := r.WriteEpisode(tmp, digest); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return "", err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return path, nil
}

// Step is the configuration's step 0: the facts of the predicates that
// only facts define.
func (r *Result) Step() *episode.Step {
	return &episode.Step{Step: 0, Facts: append([]episode.Atom(nil), r.facts...), False: append([]episode.Atom(nil), r.falseFacts...)}
}
