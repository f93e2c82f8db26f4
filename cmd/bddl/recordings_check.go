package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/dora"
	"github.com/openbddl/bddl/episode/oopsie"
	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/episode/robolab"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

// A Dora-record episode is checked through its metadata.json, which a
// walk of a session finds; an Oopsie file shares RoboLab's suffixes and
// is told apart by its layout (oopsieFile).
var doraFormat = &batch.Format{
	Name:     "dora-record",
	Suffixes: []string{dora.MetadataFile},
}

func init() {
	doraFormat.Open = openRecording // set here: Open refers back to the format
	batch.RegisterFormat(doraFormat)
	checkExtensions = append(checkExtensions, recordingCheckExtension)
}

var oopsieCache sync.Map // path → bool

// oopsieFile reports whether an HDF5 file has the Oopsie layout (once
// per path).
func oopsieFile(path string) bool {
	if v, ok := oopsieCache.Load(path); ok {
		return v.(bool)
	}
	is := oopsie.IsOopsie(path)
	oopsieCache.Store(path, is)
	return is
}

// recordingLayout is "oopsie", "dora" or "" for an input.
func recordingLayout(path string) string {
	switch f := batch.FormatOf(path); {
	case f == doraFormat && filepath.Base(path) == dora.MetadataFile:
		return "dora"
	case f == roboLabFormat && oopsieFile(path):
		return "oopsie"
	}
	return ""
}

// hasRecordings reports whether any input is an Oopsie or Dora recording.
func hasRecordings(inputs []batch.Input) bool {
	for _, in := range inputs {
		if recordingLayout(in.Path) != "" {
			return true
		}
	}
	return false
}

// recordingCheck is check's state for recordings: the flags, the map,
// the activity, and the joined streams between opening and finishing.
type recordingCheck struct {
	flags    recordingFlags
	cmd      *cobra.Command
	activity string
	m        *recording.Map
	resolver *batch.Resolver

	mu     sync.Mutex
	open   map[string]*joined // by episode key
	instrs map[string]string  // Oopsie instructions by episode, for the summary
}

func recordingCheckExtension(cmd *cobra.Command, o *checkOptions) {
	rc := &recordingCheck{cmd: cmd}
	rc.flags.add(cmd.Flags(), false) // --map is RoboLab's flag, shared
	cmd.Long = insertParagraph(cmd.Long, "--out FILE", `Real-robot recordings are read directly: Oopsie episodes (*.h5, *.hdf5 with
schema oopsiedata_format_v1) and Dora-record episodes (a folder with
metadata.json; a session is walked for them), each joined with its object
track X.objects.jsonl (--objects FILE for a single episode) at --rate steps
per second; --map gives the agent's streams and footprint, the track's names,
rooms and static objects (docs/recordings.md). Result lines add the layout
and Oopsie's language_instruction, episode_id and lab_id.`)
	cmd.Example += "\n  bddl check --episode oopsie_session/ --map robot.yaml"
	o.inputs = append(o.inputs, func(in []batch.Input) ([]batch.Input, error) { return rc.setup(o, in) })
	o.prepare = append(o.prepare, func(c *batch.Checker) error {
		if rc.open == nil {
			return nil
		}
		if c.Open.Config != nil {
			return misuse("RoboLab run files and Oopsie/Dora recordings cannot be checked in one run")
		}
		rc.resolver = c.Resolver
		c.Open.Config = rc
		c.AlsoFinish(rc.finish)
		return nil
	})
	o.summaries = append(o.summaries, rc.report)
}

// setup finds the recordings, drops their tracks found by walking, reads
// the map and fixes the activity: --activity, else the map's.
func (rc *recordingCheck) setup(opts *checkOptions, inputs []batch.Input) ([]batch.Input, error) {
	if !hasRecordings(inputs) {
		if rc.flags.objects != "" || rc.flags.rate != 0 {
			return nil, misuse("--objects and --rate are for Oopsie and Dora-record recordings; no episode is one")
		}
		return inputs, nil
	}
	if err := rc.flags.validate(); err != nil {
		return nil, err
	}
	kept, n := inputs[:0:0], 0
	for _, in := range inputs {
		if strings.HasSuffix(in.Path, recording.TrackSuffix) && in.Path != in.Arg {
			continue // a track beside its recording, found by walking
		}
		switch recordingLayout(in.Path) {
		case "":
			if batch.FormatOf(in.Path) == roboLabFormat && oopsie.NotHDF5(in.Path) {
				// No HDF5 at all, among recordings: read as one (its
				// open fails), so it is one error record of the batch,
				// not a RoboLab run file that makes the batch a misuse.
				oopsieCache.Store(in.Path, true)
				n++
				break
			}
			if batch.FormatOf(in.Path) == roboLabFormat {
				return nil, misuse("RoboLab run files and Oopsie/Dora recordings cannot be checked in one run (%s)", in.Path)
			}
		default:
			n++
		}
		kept = append(kept, in)
	}
	if rc.flags.objects != "" && n != 1 {
		return nil, misuse("--objects names the track of a single recording; there are %d", n)
	}
	if f := rc.cmd.Flags().Lookup("map"); f != nil {
		rc.flags.mapPath = f.Value.String()
	}
	m, err := rc.flags.loadMap()
	if err != nil {
		return nil, err
	}
	rc.m = m
	rc.activity = opts.activity
	if m != nil {
		switch {
		case opts.activity == "":
			opts.activity = m.ActivityRef()
			rc.activity = opts.activity
		case m.Activity != "":
			rc.activity = m.Activity
		}
	}
	if opts.activity == "" {
		return nil, misuse("recordings name no BDDL activity: give --activity, or activity: in the --map file")
	}
	rc.open, rc.instrs = map[string]*joined{}, map[string]string{}
	return kept, nil
}

// openRecording joins a recording with its track as an episode.
func openRecording(_ context.Context, ep batch.Episode, o batch.OpenOptions) (*episode.Reader, io.Closer, error) {
	rc, _ := o.Config.(*recordingCheck)
	if rc == nil || rc.resolver == nil {
		return nil, nil, errors.New("Oopsie and Dora-record recordings are read by 'bddl check', 'bddl episode from-oopsie' and 'from-dora'")
	}
	act, prog, err := rc.resolver.ResolveProgram(rc.activity, ep)
	if err != nil {
		return nil, nil, err
	}
	rec := recEpisode{layout: "oopsie", path: ep.Path}
	if batch.FormatOf(ep.Path) == doraFormat {
		if filepath.Base(ep.Path) != dora.MetadataFile {
			return nil, nil, fmt.Errorf("%s: not a Dora-record metadata.json", ep.Path)
		}
		rec = recEpisode{layout: "dora", path: filepath.Dir(ep.Path)}
	}
	ropts := rc.flags.options(act.Name, prog, rc.m)
	j, err := rec.open(ropts)
	if err != nil {
		return nil, nil, err
	}
	r, err := episode.NewReader(j, ep.Name())
	if err != nil {
		j.close()
		return nil, nil, err
	}
	rc.mu.Lock()
	rc.open[ep.Key()] = j
	rc.mu.Unlock()
	return r, closerFunc(func() error { j.close(); return nil }), nil
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

// finish spoils the result of a recording cut short (a gap, a sample
// going back) and adds the layout's fields.
func (rc *recordingCheck) finish(t *batch.Task, out *batch.Outcome) {
	if recordingLayout(t.Episode.Path) == "" || rc.open == nil {
		return
	}
	rc.mu.Lock()
	j := rc.open[t.Episode.Key()]
	delete(rc.open, t.Episode.Key())
	rc.mu.Unlock()
	if j == nil {
		return
	}
	if err := j.Err(); err != nil {
		robolab.Spoil(out.Result, err)
	}
	if out.Extra == nil {
		out.Extra = map[string]any{}
	}
	if e := j.oopsie; e != nil {
		out.Extra["layout"] = "oopsie"
		out.Extra["language_instruction"] = e.LanguageInstruction
		out.Extra["episode_id"] = e.EpisodeID
		out.Extra["lab_id"] = e.LabID
		rc.mu.Lock()
		rc.instrs[out.Result.Episode] = e.LanguageInstruction
		rc.mu.Unlock()
	} else {
		out.Extra["layout"] = "dora-record"
	}
}

// report prints the Oopsie episodes' language instructions, in input
// order.
func (rc *recordingCheck) report(w, _ io.Writer, fresh []*batch.Outcome) error {
	if len(rc.instrs) == 0 {
		return nil
	}
	fmt.Fprintln(w, "Oopsie instructions:")
	for _, o := range fresh {
		if s, ok := rc.instrs[o.Episode]; ok {
			fmt.Fprintf(w, "  %s: %q\n", o.Episode, s)
		}
	}
	return nil
}
