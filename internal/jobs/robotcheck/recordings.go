package robotcheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"sync"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/dora"
	"github.com/openbddl/bddl/episode/oopsie"
	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/episode/recordings"
	"github.com/openbddl/bddl/episode/robolab"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

// Recordings is check's state for real-robot recordings: the reading
// flags, the map, the activity, and the joined streams between opening
// and finishing.
type Recordings struct {
	MapPath string  // --map (RoboLab's flag, shared)
	Objects string  // --objects: the track of a single recording
	Rate    float64 // --rate: steps per second; 0: the slowest stream's
	MaxGap  float64 // --max-gap (s)

	activity string
	m        *recording.Map
	resolver *batch.Resolver

	mu     sync.Mutex
	open   map[string]*recordings.Joined // by episode key
	instrs map[string]string             // Oopsie instructions by episode, for the summary
}

// Setup finds the recordings, drops their tracks found by walking, reads
// the map and fixes the activity: *activity (--activity), else the map's.
// Every error is a misuse.
func (rc *Recordings) Setup(activity *string, inputs []batch.Input) ([]batch.Input, error) {
	if !HasRecordings(inputs) {
		if rc.Objects != "" || rc.Rate != 0 {
			return nil, errors.New("--objects and --rate are for Oopsie and Dora-record recordings; no episode is one")
		}
		return inputs, nil
	}
	if rc.Rate < 0 || rc.MaxGap <= 0 {
		return nil, errors.New("--rate must be positive and --max-gap above 0")
	}
	kept, n := inputs[:0:0], 0
	for _, in := range inputs {
		if strings.HasSuffix(in.Path, recording.TrackSuffix) && in.Path != in.Arg {
			continue // a track beside its recording, found by walking
		}
		switch Layout(in.Path) {
		case "":
			if batch.FormatOf(in.Path) == RoboLabFormat && oopsie.NotHDF5(in.Path) {
				// No HDF5 at all, among recordings: read as one (its
				// open fails), so it is one error record of the batch,
				// not a RoboLab run file that makes the batch a misuse.
				oopsieCache.Store(in.Path, true)
				n++
				break
			}
			if batch.FormatOf(in.Path) == RoboLabFormat {
				return nil, fmt.Errorf("RoboLab run files and Oopsie/Dora recordings cannot be checked in one run (%s)", in.Path)
			}
		default:
			n++
		}
		kept = append(kept, in)
	}
	if rc.Objects != "" && n != 1 {
		return nil, fmt.Errorf("--objects names the track of a single recording; there are %d", n)
	}
	if rc.MapPath != "" {
		m, err := recording.LoadMap(rc.MapPath)
		if err != nil {
			return nil, fmt.Errorf("--map %v", err)
		}
		rc.m = m
	}
	rc.activity = *activity
	if m := rc.m; m != nil {
		switch {
		case *activity == "":
			*activity = m.ActivityRef()
			rc.activity = *activity
		case m.Activity != "":
			rc.activity = m.Activity
		}
	}
	if *activity == "" {
		return nil, errors.New("recordings name no BDDL activity: give --activity, or activity: in the --map file")
	}
	rc.open, rc.instrs = map[string]*recordings.Joined{}, map[string]string{}
	return kept, nil
}

// Prepare hands the run's state to the checker when a recording is among
// the episodes; RoboLab run files are refused beside them.
func (rc *Recordings) Prepare(c *batch.Checker) error {
	if rc.open == nil {
		return nil
	}
	if c.Open.Config != nil {
		return errors.New("RoboLab run files and Oopsie/Dora recordings cannot be checked in one run")
	}
	rc.resolver = c.Resolver
	c.Open.Config = rc
	c.AlsoFinish(rc.finish)
	return nil
}

// openRecording joins a recording with its track as an episode.
func openRecording(_ context.Context, ep batch.Episode, o batch.OpenOptions) (*episode.Reader, io.Closer, error) {
	rc, _ := o.Config.(*Recordings)
	if rc == nil || rc.resolver == nil {
		return nil, nil, errors.New("Oopsie and Dora-record recordings are read by 'bddl check', 'bddl episode from-oopsie' and 'from-dora'")
	}
	act, prog, err := rc.resolver.ResolveProgram(rc.activity, ep)
	if err != nil {
		return nil, nil, err
	}
	rec := recordings.Episode{Layout: recordings.Oopsie, Path: ep.Path}
	if batch.FormatOf(ep.Path) == DoraFormat {
		if filepath.Base(ep.Path) != dora.MetadataFile {
			return nil, nil, fmt.Errorf("%s: not a Dora-record metadata.json", ep.Path)
		}
		rec = recordings.Episode{Layout: recordings.Dora, Path: filepath.Dir(ep.Path)}
	}
	ropts := recording.Options{Activity: act.Name, Map: rc.m, Track: rc.Objects, Rate: rc.Rate, MaxGap: rc.MaxGap, Instances: recordings.Instances(prog)}
	j, err := rec.Open(ropts)
	if err != nil {
		return nil, nil, err
	}
	r, err := episode.NewReader(j, ep.Name())
	if err != nil {
		j.Close()
		return nil, nil, err
	}
	rc.mu.Lock()
	rc.open[ep.Key()] = j
	rc.mu.Unlock()
	return r, closerFunc(func() error { j.Close(); return nil }), nil
}

// finish spoils the result of a recording cut short (a gap, a sample
// going back) and adds the layout's fields.
func (rc *Recordings) finish(t *batch.Task, out *batch.Outcome) {
	if Layout(t.Episode.Path) == "" || rc.open == nil {
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
	if e := j.Oopsie; e != nil {
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

// Report prints the Oopsie episodes' language instructions, in input
// order.
func (rc *Recordings) Report(w, _ io.Writer, fresh []*batch.Outcome) error {
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
