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
	"github.com/spf13/pflag"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/robolab"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

// RoboLab run files (run_<i>.hdf5) are an episode format of their own:
// one episode per data/demo_<k> group, named run_0.hdf5#demo_3.
var roboLabFormat = &batch.Format{
	Name:     "hdf5",
	Suffixes: []string{".hdf5", ".h5"},
	List:     listHDF5,
	Open:     openHDF5,
}

// listHDF5 and openHDF5 dispatch an HDF5 file by its layout: an Oopsie
// episode (recordings_check.go) or a RoboLab run file.
func listHDF5(_ context.Context, path string) ([]string, error) {
	if oopsieFile(path) {
		return nil, nil
	}
	return robolab.DemoNames(path)
}

func openHDF5(ctx context.Context, ep batch.Episode, o batch.OpenOptions) (*episode.Reader, io.Closer, error) {
	if ep.Sub == "" && oopsieFile(ep.Path) {
		return openRecording(ctx, ep, o)
	}
	return openDemo(ctx, ep, o)
}

func init() {
	batch.RegisterFormat(roboLabFormat)
	checkExtensions = append(checkExtensions, roboLabCheckExtension)
}

// roboLabCheckExtension adds check's RoboLab flags and hooks: the map and
// activity before the run, the demos' streams opened with them, their
// results completed, and the agreement with RoboLab's verdicts after.
func roboLabCheckExtension(cmd *cobra.Command, o *checkOptions) {
	rl := &roboLabCheck{}
	rl.addFlags(cmd.Flags())
	cmd.Long = insertParagraph(cmd.Long, "-o/--output FILE", `RoboLab run files (*.hdf5, *.h5) are read directly: every data/demo_<k> is
an episode named run_0.hdf5#demo_3. --map FILE names the BDDL instance of
each RoboLab object and gives the static objects (see docs/robolab.md); the
activity is --activity or the map's activity:. Result lines add RoboLab's
env_name, env_id, run and dt, and with its episode_results.jsonl (beside the
run file or its directory, or --robolab-results FILE) its verdict and how
ours agrees, summed up after the run.`)
	cmd.Example += "\n  bddl check --episode output/AppleInBowlTask/run_0.hdf5 --map names.yaml"
	o.inputs = append(o.inputs, func(in []batch.Input) ([]batch.Input, error) { return rl.setup(o, in) })
	o.prepare = append(o.prepare, func(c *batch.Checker) error {
		if rl.open == nil {
			return nil // no run file among the episodes
		}
		rl.resolver = c.Resolver
		c.Open.Config = rl
		c.AlsoFinish(rl.finish)
		return nil
	})
	o.summaries = append(o.summaries, rl.report)
}

// insertParagraph puts a paragraph of help text before the one starting
// with at (at the end when there is none).
func insertParagraph(text, at, para string) string {
	if i := strings.Index(text, "\n\n"+at); i >= 0 {
		return text[:i+2] + para + "\n\n" + text[i+2:]
	}
	return text + "\n\n" + para
}

// roboLabCheck is check's RoboLab state: the flags, the map, RoboLab's
// verdicts, and the demo streams between opening and finishing.
type roboLabCheck struct {
	mapPath     string
	resultsPath string

	activity string // the activity reference run files are checked against
	m        *robolab.Map
	resolver *batch.Resolver

	verdicts *robolab.VerdictCache // nil: no run file among the episodes
	mu       sync.Mutex
	open     map[string]*robolab.DemoEpisode // by episode key, from openDemo to finish
	judged   []*robolab.Result               // the judged results, for the summary
}

func (rl *roboLabCheck) addFlags(f *pflag.FlagSet) {
	f.StringVar(&rl.mapPath, "map", "", "a YAML map: for RoboLab run files, object names and static objects (see docs/robolab.md); for Oopsie/Dora recordings, the agent, track names, rooms and static objects (docs/recordings.md)")
	f.StringVar(&rl.resultsPath, "robolab-results", "", "RoboLab run files: RoboLab's episode_results.jsonl to compare verdicts with (default: beside the run file or in its parent directory)")
}

// setup loads the map and RoboLab's results, and fixes the activity of
// run files: --activity, else the map's activity: (relative to the map
// file), which then acts as --activity. RoboLab's own results files found
// in directories walked beside run files are not episodes: they are
// dropped from the inputs.
func (rl *roboLabCheck) setup(opts *checkOptions, inputs []batch.Input) ([]batch.Input, error) {
	hdf5 := false
	for _, in := range inputs {
		if batch.FormatOf(in.Path) == roboLabFormat && !oopsieFile(in.Path) {
			hdf5 = true
		}
	}
	if !hdf5 {
		if rl.resultsPath != "" || rl.mapPath != "" && !hasRecordings(inputs) {
			return nil, misuse("--map and --robolab-results are for RoboLab run files (*.hdf5, *.h5); no episode is one")
		}
		return inputs, nil
	}
	kept := inputs[:0:0]
	for _, in := range inputs {
		if filepath.Base(in.Path) == robolab.ResultsFileName && in.Path != in.Arg {
			fmt.Fprintf(opts.err, "bddl: note: %s is RoboLab's results file, not an episode: read for its verdicts\n", in.Path)
			continue
		}
		kept = append(kept, in)
	}
	inputs = kept
	rl.open = map[string]*robolab.DemoEpisode{}
	rl.activity = opts.activity
	if rl.mapPath != "" {
		m, err := robolab.LoadMap(rl.mapPath)
		if err != nil {
			return nil, misuse("--map %v", err)
		}
		rl.m = m
		switch {
		case opts.activity == "":
			if opts.activity, err = m.ActivityRef(); err != nil {
				return nil, misuse("--map %v", err)
			}
			rl.activity = opts.activity
		case m.Activity != "":
			// --activity a tree of activities: the map names which.
			rl.activity = m.Activity
		}
	}
	if opts.activity == "" {
		return nil, misuse("RoboLab run files name no BDDL activity: give --activity, or activity: in the --map file")
	}
	var fixed *robolab.Results
	if rl.resultsPath != "" {
		rs, err := robolab.LoadResults(rl.resultsPath)
		if err != nil {
			return nil, misuse("--robolab-results %v", err)
		}
		fixed = rs
	}
	rl.verdicts = robolab.NewVerdictCache(fixed)
	return inputs, nil
}

// openDemo opens a demo as an episode: the activity is resolved first,
// as the demo's names are checked against its instances.
func openDemo(ctx context.Context, ep batch.Episode, o batch.OpenOptions) (*episode.Reader, io.Closer, error) {
	rl, _ := o.Config.(*roboLabCheck)
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
func (rl *roboLabCheck) finish(t *batch.Task, o *batch.Outcome) {
	if t.Episode.Format != roboLabFormat || rl.open == nil {
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

// report prints how our verdicts agree with RoboLab's, in input order;
// a note on errw when RoboLab judged none of them.
func (rl *roboLabCheck) report(w, errw io.Writer, fresh []*batch.Outcome) error {
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
