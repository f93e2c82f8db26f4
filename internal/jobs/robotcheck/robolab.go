package robotcheck

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/robolab"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

// RoboLab is check's state for RoboLab run files: the flags, the map,
// RoboLab's verdicts, and the demo streams between opening and finishing.
type RoboLab struct {
	MapPath     string // --map
	ResultsPath string // --robolab-results

	activity string // the activity reference run files are checked against
	m        *robolab.Map
	resolver *batch.Resolver

	verdicts *robolab.VerdictCache // nil: no run file among the episodes
	mu       sync.Mutex
	open     map[string]*robolab.DemoEpisode // by episode key, from openDemo to finish
	judged   []*robolab.Result               // the judged results, for the summary
}

// Setup loads the map and RoboLab's results, and fixes the activity of
// run files: *activity (--activity), else the map's activity: (relative
// to the map file), which then acts as --activity. RoboLab's own results
// files found in directories walked beside run files are not episodes:
// they are dropped from the inputs with a note on notes. Every error is
// a misuse.
func (rl *RoboLab) Setup(activity *string, notes io.Writer, inputs []batch.Input) ([]batch.Input, error) {
	hdf5 := false
	for _, in := range inputs {
		if batch.FormatOf(in.Path) == RoboLabFormat && !IsOopsie(in.Path) {
			hdf5 = true
		}
	}
	if !hdf5 {
		if rl.ResultsPath != "" || rl.MapPath != "" && !HasRecordings(inputs) {
			return nil, errors.New("--map and --robolab-results are for RoboLab run files (*.hdf5, *.h5); no episode is one")
		}
		return inputs, nil
	}
	kept := inputs[:0:0]
	for _, in := range inputs {
		if filepath.Base(in.Path) == robolab.ResultsFileName && in.Path != in.Arg {
			fmt.Fprintf(notes, "bddl: note: %s is RoboLab's results file, not an episode: read for its verdicts\n", in.Path)
			continue
		}
		kept = append(kept, in)
	}
	inputs = kept
	rl.open = map[string]*robolab.DemoEpisode{}
	rl.activity = *activity
	if rl.MapPath != "" {
		m, err := robolab.LoadMap(rl.MapPath)
		if err != nil {
			return nil, fmt.Errorf("--map %v", err)
		}
		rl.m = m
		switch {
		case *activity == "":
			if *activity, err = m.ActivityRef(); err != nil {
				return nil, fmt.Errorf("--map %v", err)
			}
			rl.activity = *activity
		case m.Activity != "":
			// --activity a tree of activities: the map names which.
			rl.activity = m.Activity
		}
	}
	if *activity == "" {
		return nil, errors.New("RoboLab run files name no BDDL activity: give --activity, or activity: in the --map file")
	}
	var fixed *robolab.Results
	if rl.ResultsPath != "" {
		rs, err := robolab.LoadResults(rl.ResultsPath)
		if err != nil {
			return nil, fmt.Errorf("--robolab-results %v", err)
		}
		fixed = rs
	}
	rl.verdicts = robolab.NewVerdictCache(fixed)
	return inputs, nil
}

// Prepare hands the run's state to the checker when a run file is among
// the episodes.
func (rl *RoboLab) Prepare(c *batch.Checker) error {
	if rl.open == nil {
		return nil // no run file among the episodes
	}
	rl.resolver = c.Resolver
	c.Open.Config = rl
	c.AlsoFinish(rl.finish)
	return nil
}

// openDemo opens a demo as an episode: the activity is resolved first,
// as the demo's names are checked against its instances.
func openDemo(ctx context.Context, ep batch.Episode, o batch.OpenOptions) (*episode.Reader, io.Closer, error) {
	rl, _ := o.Config.(*RoboLab)
	if rl == nil || rl.resolver == nil {
		return nil, nil, errors.New("RoboLab run files are read by 'bddl check' and 'bddl episode convert'")
	}
	act, prog, err := rl.resolver.ResolveProgram(rl.activity, ep)
	if err != nil {
		return nil, nil, err
	}
	e, src, err := robolab.OpenDemo(ep.Path, ep.Sub, robolab.Options{Activity: act.Name, Instances: robolab.InstancesOf(prog), Map: rl.m}, o.Count)
	if err != nil {
		return nil, nil, err
	}
	run := e.Run
	r, err := episode.NewReader(src, ep.Name())
	if err != nil {
		run.Close()
		return nil, nil, err
	}
	rl.mu.Lock()
	rl.open[ep.Key()] = e
	rl.mu.Unlock()
	return r, run, nil
}

// finish completes a demo's result: a demo read short (bad data, a file
// cut) is an error whatever the steps read showed; RoboLab's field names
// and verdict are added to the line.
func (rl *RoboLab) finish(t *batch.Task, o *batch.Outcome) {
	if t.Episode.Format != RoboLabFormat || rl.open == nil {
		return
	}
	rl.mu.Lock()
	e := rl.open[t.Episode.Key()]
	delete(rl.open, t.Episode.Key())
	rl.mu.Unlock()
	if e == nil {
		return
	}
	res := e.Result(o.Result)
	rs, err := rl.verdicts.For(e.Run.Path)
	if err != nil {
		o.Problems = append(o.Problems, "RoboLab results: "+err.Error())
	}
	res.Judge(rs.Find(e.Run, e.Demo))
	if o.Extra == nil {
		o.Extra = map[string]any{}
	}
	for k, v := range res.Extra() {
		o.Extra[k] = v
	}
	if res.Agreement != nil {
		rl.mu.Lock()
		rl.judged = append(rl.judged, res)
		rl.mu.Unlock()
	}
}

// Report prints how our verdicts agree with RoboLab's, in input order;
// a note on errw when RoboLab judged none of them.
func (rl *RoboLab) Report(w, errw io.Writer, fresh []*batch.Outcome) error {
	if rl.open == nil {
		return nil
	}
	byName := map[string]*robolab.Result{}
	for _, r := range rl.judged {
		byName[r.Episode] = r
	}
	var ordered []*robolab.Result
	for _, o := range fresh {
		if r := byName[o.Episode]; r != nil {
			ordered = append(ordered, r)
		}
	}
	if len(ordered) == 0 {
		fmt.Fprintln(errw, "bddl: note:", rl.verdicts.NoVerdictNote())
		return nil
	}
	return robolab.WriteAgreement(w, ordered)
}
