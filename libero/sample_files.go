package libero

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
)

// Definition is a LIBERO definition to sample: its path, its path
// relative to the argument it was found under, and its text.
type Definition struct {
	Path, Rel string
	Src       []byte
}

// SampleFiles says how SampleDefinitions samples and where it writes.
type SampleFiles struct {
	Out         string // the directory the episodes are written under
	Seed        uint64 // the first seed; configuration k uses Seed+k
	Count       int    // configurations per definition
	Diagnostics io.Writer
}

// SampleRecord is one sampled configuration as sample --format json
// records it (bddl schema sample); the scene is the problem class.
type SampleRecord struct {
	Activity string         `json:"activity"`
	Scene    string         `json:"scene"`
	Seed     uint64         `json:"seed"`
	Index    int            `json:"index"`
	File     string         `json:"file,omitempty"`
	Status   string         `json:"status"`
	Reason   *SampleFailure `json:"reason,omitempty"`
	Ms       float64        `json:"ms"`
}

// SampleFailure is why a configuration could not be sampled.
type SampleFailure struct {
	Kind    string   `json:"kind"`
	Literal string   `json:"literal,omitempty"`
	Objects []string `json:"objects,omitempty"`
	Message string   `json:"message"`
}

// SampleDefinitions samples o.Count configurations of each definition and
// writes each as a one-step episode, OUT/<dir>/<task>-<seed>.jsonl: a
// definition found under a directory keeps its place under OUT, so tasks
// of one name in two suites do not collide. emit receives each record
// with the sampler's error, if any. failed is true when a definition has
// errors or a configuration could not be sampled; err is a write error
// (or emit's), which stops the run.
func SampleDefinitions(defs []Definition, o SampleFiles, emit func(SampleRecord, error) error) (sampled, done int, failed bool, err error) {
	for _, d := range defs {
		p, diags := bddl.Options{Mode: bddl.Reference, Dialect: bddl.DialectLibero}.ParseProblem(d.Path, d.Src)
		if o.Diagnostics != nil {
			diags.WriteText(o.Diagnostics)
		}
		if diags.HasErrors() {
			failed = true
			continue
		}
		task := Resolve(p)
		abs, _ := filepath.Abs(d.Path)
		name := TaskName(d.Path)
		sub := ""
		if d.Rel != "" && !filepath.IsAbs(d.Rel) && !strings.HasPrefix(d.Rel, "..") {
			sub = filepath.Dir(d.Rel)
		}
		for k := range o.Count {
			seed := o.Seed + uint64(k)
			start := time.Now()
			step, serr := Sample(task, seed)
			rec := SampleRecord{Activity: name, Scene: p.Name.Name, Seed: seed, Index: k, Status: "ok"}
			if serr != nil {
				failed = true
				rec.Status, rec.Scene = "failed", ""
				rec.Reason = &SampleFailure{Kind: "internal", Message: serr.Error()}
				if u, ok := serr.(*Unplaceable); ok {
					rec.Reason.Kind, rec.Reason.Literal = "no-space", u.Literal
					rec.Reason.Objects = append([]string{u.Object}, u.Blockers...)
				}
			} else {
				out := filepath.Join(o.Out, sub, fmt.Sprintf("%s-%d.jsonl", name, seed))
				if err := writeSample(out, Header{Format: EpisodeFormat, Version: 1, Definition: abs, Problem: p.Name.Name,
					Language: p.Libero.Language, Seed: ptr(int64(seed)), Source: "bddl sample"}, step); err != nil {
					return sampled, done, failed, err
				}
				rec.File = out
			}
			rec.Ms = float64(time.Since(start).Microseconds()) / 1000
			done++
			if rec.Status == "ok" {
				sampled++
			}
			if err := emit(rec, serr); err != nil {
				return sampled, done, failed, err
			}
		}
	}
	return sampled, done, failed, nil
}

// writeSample writes a one-step episode atomically.
func writeSample(out string, h Header, step Step) error {
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := WriteEpisode(&buf, h, []Step{step}); err != nil {
		return err
	}
	return fsutil.WriteFileAtomic(out, buf.Bytes())
}

func ptr[T any](v T) *T { return &v }
