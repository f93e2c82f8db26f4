package episodes

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/oopsie"
	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/episode/recordings"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/predicates"
)

// Recordings are the settings of every command that reads real-robot
// recordings (Oopsie, Dora-record; docs/recordings.md).
type Recordings struct {
	MapPath string  // --map
	Objects string  // --objects: the track of a single episode
	Rate    float64 // --rate
	MaxGap  float64 // --max-gap
}

// Validate checks the rates.
func (r *Recordings) Validate() error {
	if r.Rate < 0 || r.MaxGap <= 0 {
		return batch.Usage("--rate must be positive and --max-gap above 0")
	}
	return nil
}

// compile loads the map and compiles the activity (the source's, else
// the map's) under its canonical name; opts are the readers' options.
func (r *Recordings) compile(src *Source) (*predicates.Program, string, recording.Options, error) {
	var m *recording.Map
	if r.MapPath != "" {
		var err error
		if m, err = recording.LoadMap(r.MapPath); err != nil {
			return nil, "", recording.Options{}, batch.Usage("--map %v", err)
		}
	}
	if src.Activity == "" && m != nil {
		src.Activity = m.ActivityRef()
	}
	if src.Activity == "" {
		return nil, "", recording.Options{}, batch.Usage("no activity: give --activity, or activity: in the --map file")
	}
	prog, ref, err := src.CompileNamed()
	if err != nil {
		return nil, "", recording.Options{}, err
	}
	return prog, ref, recording.Options{Activity: ref, Map: m, Track: r.Objects, Rate: r.Rate, MaxGap: r.MaxGap, Instances: recordings.Instances(prog)}, nil
}

// Output is where a job writes: its files, its report and notes.
type Output struct {
	Out    string // -o
	JSON   bool   // --format json
	Gzip   bool   // --gzip
	Stdout io.Writer
	Stderr io.Writer
}

// FromRecordings writes the episodes of the recordings under paths
// (layout "oopsie" or "dora"), each joined with its object track, into
// o.Out: a directory, or a .jsonl(.gz) file for a single episode.
func FromRecordings(src *Source, r *Recordings, paths []string, layout string, o Output) error {
	if err := r.Validate(); err != nil {
		return err
	}
	if o.Out == "" {
		return batch.Usage("no output: give -o DIR (or -o FILE.jsonl for a single episode)")
	}
	eps, err := recordings.Find(paths, layout)
	if err != nil {
		return batch.Usage("%v", err)
	}
	toFile := strings.HasSuffix(o.Out, ".jsonl") || strings.HasSuffix(o.Out, ".jsonl.gz")
	if toFile && len(eps) != 1 {
		return batch.Usage("-o %s is a file, but there are %d episodes: give a directory", o.Out, len(eps))
	}
	if r.Objects != "" && len(eps) != 1 {
		return batch.Usage("--objects names the track of a single episode; there are %d (put each track beside its episode)", len(eps))
	}
	prog, ref, ropts, err := r.compile(src)
	if err != nil {
		return err
	}
	outDir := o.Out
	if toFile {
		outDir = filepath.Dir(o.Out)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return batch.Usage("-o %v", err)
	}
	ropts.DeclareSteps = true
	failed := recordings.ConvertEach(eps, ropts, ref, recordings.ConvertAll{Out: o.Out, File: toFile, Gzip: o.Gzip,
		JSON: o.JSON, W: o.Stdout, Err: o.Stderr})
	if failed < len(eps) && o.Out != "-" {
		if err := src.WriteDefinition(outDir, ref, prog); err != nil {
			fmt.Fprintf(o.Stderr, "bddl: writing the definition beside the episodes: %v\n", err)
			failed++
		}
	}
	if failed > 0 {
		return batch.Findings(nil)
	}
	return nil
}

// Annotation is what 'bddl annotate' writes.
type Annotation struct {
	Annotator string
	Force     bool // replace an annotation by the same annotator
	Hold      int
	Now       func() time.Time
}

// Annotate checks each recording under paths against the activity and
// writes the verdict where annotation tools look (recordings.Annotate).
func Annotate(ctx context.Context, src *Source, r *Recordings, paths []string, a Annotation, o Output) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := r.Validate(); err != nil {
		return err
	}
	if err := oopsie.ValidAnnotator(a.Annotator); err != nil {
		return batch.Usage("--annotator: %v", err)
	}
	eps, err := recordings.Find(paths)
	if err != nil {
		return batch.Usage("%v", err)
	}
	if r.Objects != "" && len(eps) != 1 {
		return batch.Usage("--objects names the track of a single episode; there are %d", len(eps))
	}
	prog, _, ropts, err := r.compile(src)
	if err != nil {
		return err
	}
	failed := 0
	for _, ep := range eps {
		res := recordings.Check(ctx, prog, ep, ropts, episode.CheckOptions{Hold: a.Hold})
		v := recording.Verdict(res, a.Annotator, a.Now())
		where, err := recordings.Annotate(ep, &v, a.Force)
		if err != nil {
			failed++
			fmt.Fprintf(o.Stderr, "bddl: %v\n", err)
		}
		recordings.WriteAnnotated(o.Stdout, o.JSON, ep, &v, where, err)
	}
	if failed > 0 {
		return batch.Findings(nil)
	}
	return nil
}

// Compare writes how annotator agrees with the others (against: one, or
// "human", or "" for every other) over the recordings under paths.
func Compare(paths []string, annotator, against string, o Output) error {
	eps, err := recordings.Find(paths)
	if err != nil {
		return batch.Usage("%v", err)
	}
	ann, err := recordings.ReadAnnotations(eps)
	if err != nil {
		fmt.Fprintf(o.Stderr, "bddl: %v\n", err)
		return batch.Findings(nil)
	}
	compared := 0
	for _, p := range recording.Pairs(ann, annotator, against) {
		g := recording.Agree(ann, p[0], p[1])
		if g.Episodes == 0 {
			continue // nothing both judged: no figures (kappa of nothing)
		}
		compared++
		if o.JSON {
			line, _ := json.Marshal(g)
			fmt.Fprintf(o.Stdout, "%s\n", line)
			continue
		}
		recordings.WriteAgreement(o.Stdout, g)
	}
	if compared == 0 {
		if against == "" {
			against = "another annotator"
		}
		fmt.Fprintf(o.Stderr, "bddl: no episode among %d is annotated by both %s and %s\n", len(eps), annotator, against)
		return batch.Findings(nil)
	}
	return nil
}
