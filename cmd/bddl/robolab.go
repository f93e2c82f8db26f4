package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/robolab"
	"github.com/openbddl/bddl/internal/batch"
)

// RoboLab run files (run_<i>.hdf5) are an episode format of their own:
// one episode per data/demo_<k> group, named run_0.hdf5#demo_3.
var roboLabFormat = &batch.Format{
	Name:     "hdf5",
	Suffixes: []string{".hdf5", ".h5"},
	List:     listDemos,
	Open:     openDemo,
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
	cmd.Long = insertParagraph(cmd.Long, "--out FILE", `RoboLab run files (*.hdf5, *.h5) are read directly: every data/demo_<k> is
an episode named run_0.hdf5#demo_3. --map FILE names the BDDL instance of
each RoboLab object and gives the static objects (see the README); the
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
		prev := c.Finish
		c.Finish = func(ctx context.Context, t *batch.Task, out *batch.Outcome) {
			if prev != nil {
				prev(ctx, t, out)
			}
			rl.finish(t, out)
		}
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

func listDemos(_ context.Context, path string) ([]string, error) {
	r, err := robolab.Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var names []string
	for _, d := range r.Demos() {
		names = append(names, d.Name)
	}
	return names, nil
}

// roboLabCheck is check's RoboLab state: the flags, the map, RoboLab's
// verdicts, and the demo streams between opening and finishing.
type roboLabCheck struct {
	mapPath     string
	resultsPath string

	activity string // the activity reference run files are checked against
	m        *robolab.Map
	resolver *batch.Resolver

	mu       sync.Mutex
	results  map[string]*robolab.Results // by results file; nil: none found
	open     map[string]*roboLabEpisode  // by episode key, from openDemo to finish
	verdicts []*robolab.Result           // the judged results, for the summary
}

type roboLabEpisode struct {
	run    *robolab.Run
	demo   robolab.Demo
	stream *robolab.Stream // nil when err
	err    error           // why the demo could not be read at all
}

func (rl *roboLabCheck) addFlags(f *pflag.FlagSet) {
	f.StringVar(&rl.mapPath, "map", "", "RoboLab run files: a YAML map of RoboLab object names to BDDL instances, and static objects (see the README)")
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
		if batch.FormatOf(in.Path) == roboLabFormat {
			hdf5 = true
		}
	}
	if !hdf5 {
		if rl.mapPath != "" || rl.resultsPath != "" {
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
	rl.results = map[string]*robolab.Results{}
	rl.open = map[string]*roboLabEpisode{}
	rl.activity = opts.activity
	if rl.mapPath != "" {
		m, err := robolab.LoadMap(rl.mapPath)
		if err != nil {
			return nil, misuse("--map %v", err)
		}
		rl.m = m
		switch {
		case opts.activity == "":
			opts.activity = mapActivity(m, rl.mapPath)
			rl.activity = opts.activity
		case m.Activity != "":
			// --activity a tree of activities: the map names which.
			rl.activity = m.Activity
		}
	}
	if opts.activity == "" {
		return nil, misuse("RoboLab run files name no BDDL activity: give --activity, or activity: in the --map file")
	}
	if rl.resultsPath != "" {
		rs, err := robolab.LoadResults(rl.resultsPath)
		if err != nil {
			return nil, misuse("--robolab-results %v", err)
		}
		rl.results[""] = rs
	}
	return inputs, nil
}

// mapActivity is the activity a map names: a file or activity directory
// relative to the map's directory (name.bddl there too), else a name.
func mapActivity(m *robolab.Map, mapPath string) string {
	a := m.Activity
	if a == "" || filepath.IsAbs(a) {
		return a
	}
	dir := filepath.Dir(mapPath)
	for _, cand := range []string{a, a + ".bddl"} {
		if _, err := os.Stat(filepath.Join(dir, cand)); err == nil {
			return filepath.Join(dir, cand)
		}
	}
	if strings.ContainsAny(a, `/\`) || strings.HasSuffix(a, ".bddl") {
		return filepath.Join(dir, a) // reported missing when read
	}
	return a
}

// verdictsFor are RoboLab's results for a run file: --robolab-results,
// else the episode_results.jsonl found beside it or above.
func (rl *roboLabCheck) verdictsFor(path string) (*robolab.Results, error) {
	rl.mu.Lock()
	defer rl.mu.Unlock()
	if rs, ok := rl.results[""]; ok {
		return rs, nil
	}
	file := robolab.FindResults(path)
	if file == "" {
		return nil, nil
	}
	if rs, ok := rl.results[file]; ok {
		return rs, nil
	}
	rs, err := robolab.LoadResults(file)
	if err != nil {
		return nil, err
	}
	rl.results[file] = rs
	return rs, nil
}

// openDemo opens a demo as an episode: the activity is resolved first,
// as the demo's names are checked against its instances.
func openDemo(ctx context.Context, ep batch.Episode, o batch.OpenOptions) (*episode.Reader, io.Closer, error) {
	rl, _ := o.Config.(*roboLabCheck)
	if rl == nil || rl.resolver == nil {
		return nil, nil, errors.New("RoboLab run files are read by 'bddl check' and 'bddl episode convert'")
	}
	act, err := rl.resolver.Resolve(rl.activity, ep)
	if err != nil {
		return nil, nil, err
	}
	prog, err := rl.resolver.Program(act, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("activity %s: %v", act.Name, err)
	}
	run, err := robolab.Open(ep.Path)
	if err != nil {
		return nil, nil, err
	}
	var demo robolab.Demo
	found := false
	for _, d := range run.Demos() {
		if d.Name == ep.Sub {
			demo, found = d, true
		}
	}
	if !found {
		run.Close()
		return nil, nil, fmt.Errorf("%s: no data/%s", ep.Path, ep.Sub)
	}
	e := &roboLabEpisode{run: run, demo: demo}
	var src io.Reader
	if e.stream, e.err = run.Stream(demo, robolab.Options{Activity: act.Name, Instances: robolab.InstancesOf(prog), Map: rl.m}); e.err == nil {
		src = e.stream
		if o.Count != nil {
			// A progress bar by bytes: the demo's share of the file, as
			// its steps are read.
			share, counted := batch.FileSize(ep.Path)/int64(len(run.Demos())), int64(0)
			e.stream.Progress = func(done, steps int) {
				if n := share * int64(done) / int64(steps); n > counted {
					o.Count(int(n - counted))
					counted = n
				}
			}
		}
	} else {
		// A demo whose names or datasets are wrong has no steps; its
		// result is the error, with the activity and RoboLab's fields.
		header, _ := json.Marshal(map[string]any{"bddl_episode": episode.Version, "activity": act.Name})
		src = strings.NewReader(string(header) + "\n")
	}
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
	res := robolab.NewResult(e.run, e.demo, o.Result)
	switch {
	case e.err != nil:
		res.Warnings = nil // those of an empty stand-in
		robolab.Spoil(res.Result, e.err)
	default:
		res.Warnings = append(res.Warnings, e.stream.Warnings()...)
		if err := e.stream.Err(); err != nil {
			robolab.Spoil(res.Result, err)
		}
	}
	rs, err := rl.verdictsFor(e.run.Path)
	if err != nil {
		o.Problems = append(o.Problems, "RoboLab results: "+err.Error())
	}
	res.Judge(rs.Find(e.run, e.demo))
	if o.Extra == nil {
		o.Extra = map[string]any{}
	}
	for k, v := range res.Extra() {
		o.Extra[k] = v
	}
	if res.Agreement != nil {
		rl.mu.Lock()
		rl.verdicts = append(rl.verdicts, res)
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
	for _, r := range rl.verdicts {
		byName[r.Episode] = r
	}
	var ordered []*robolab.Result
	for _, o := range fresh {
		if r := byName[o.Episode]; r != nil {
			ordered = append(ordered, r)
		}
	}
	if len(ordered) == 0 {
		var files []string
		rl.mu.Lock()
		for _, rs := range rl.results {
			if rs != nil {
				files = append(files, rs.File)
			}
		}
		rl.mu.Unlock()
		if len(files) == 0 {
			fmt.Fprintln(errw, "bddl: note: no RoboLab verdict for these episodes: no episode_results.jsonl beside the run files or in their parent directory (give --robolab-results FILE)")
		} else {
			sort.Strings(files)
			fmt.Fprintf(errw, "bddl: note: no RoboLab verdict for these episodes: %s %s no line of the same env_name, run and env_id\n", strings.Join(files, ", "), plural(len(files), "has", "have"))
		}
		return nil
	}
	return robolab.WriteAgreement(w, ordered)
}

type episodeConvertOptions struct {
	episodeWriteOptions
	mapPath string
	dir     string
	gzip    bool
	format  string
}

func newEpisodeConvertCmd(g *globalOptions) *cobra.Command {
	opts := &episodeConvertOptions{episodeWriteOptions: episodeWriteOptions{globalOptions: g}}
	cmd := &cobra.Command{
		Use:   "convert RUN.hdf5... --map FILE -o DIR",
		Short: "Write the demos of RoboLab run files as episode files",
		Long: `Convert writes every data/demo_<k> of RoboLab run files (run_<i>.hdf5) as a
JSON Lines episode, DIR/run_<i>_demo_<k>.jsonl (.jsonl.gz with --gzip), for
users who want to keep or edit them: what 'bddl check --episode run_0.hdf5'
reads directly. --map names the BDDL instance of each RoboLab object and the
static objects RoboLab does not record (see the README's RoboLab section);
the activity is --activity, else the map's activity:. The header declares
the number of steps.

A demo that cannot be read in full (a missing dataset, a shape that does
not match its steps, NaN, a file cut short) is reported with the file,
dataset and step, and no file is written for it. An existing file is
replaced atomically, keeping its mode.

The exit status is 0 when every demo was written, 1 when one was not, 2 on
misuse.`,
		Example: `  bddl episode convert output/AppleInBowlTask/run_0.hdf5 --map names.yaml -o episodes/
  bddl check --activity my_task.bddl --episode 'episodes/*.jsonl'`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runEpisodeConvert(opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.dir, "output", "o", "", "the directory to write the episodes to (created if missing)")
	f.StringVar(&opts.mapPath, "map", "", "a YAML map of RoboLab object names to BDDL instances, and static objects")
	f.StringVar(&opts.activity, "activity", "", "the activity: a problem file or a name (default: the map's activity:)")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find the activity by name in")
	f.BoolVar(&opts.gzip, "gzip", false, "write .jsonl.gz files")
	f.StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per demo, JSON Lines)")
	return cmd
}

func runEpisodeConvert(opts *episodeConvertOptions, runs []string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	if opts.dir == "" {
		return misuse("no output directory: give -o DIR")
	}
	var m *robolab.Map
	if opts.mapPath != "" {
		var err error
		if m, err = robolab.LoadMap(opts.mapPath); err != nil {
			return misuse("--map %v", err)
		}
		if opts.activity == "" {
			opts.activity = mapActivity(m, opts.mapPath)
		}
	}
	if opts.activity == "" {
		return misuse("no activity: give --activity, or activity: in the --map file")
	}
	prog, _, err := opts.compileActivity()
	if err != nil {
		return err
	}
	// The header names the activity, not the path it was read from here.
	ref := prog.Problem().Name.Name
	if err := os.MkdirAll(opts.dir, 0o755); err != nil {
		return misuse("-o %v", err)
	}
	ropts := robolab.Options{Activity: ref, Instances: robolab.InstancesOf(prog), Map: m}
	w := opts.streams.out
	failed, written := 0, 0
	report := func(name, path string, steps int, err error) {
		if opts.format == "json" {
			rec := map[string]any{"episode": name, "file": path, "steps": steps}
			if err != nil {
				rec["error"] = err.Error()
			}
			line, _ := json.Marshal(rec)
			fmt.Fprintf(w, "%s\n", line)
		} else if err == nil {
			fmt.Fprintf(w, "%s: wrote %s (%d steps)\n", name, path, steps)
		}
		if err != nil {
			failed++
			fmt.Fprintf(opts.err, "bddl: %v\n", err)
		} else {
			written++
		}
	}
	for _, path := range runs {
		r, err := robolab.Open(path)
		if err != nil {
			report(path, "", 0, err)
			continue
		}
		for _, d := range r.Demos() {
			out, steps, err := robolab.Convert(r, d, ropts, opts.dir, opts.gzip)
			report(r.EpisodeName(d), out, steps, err)
		}
		r.Close()
	}
	if opts.format == "text" {
		fmt.Fprintf(opts.err, "converted %d %s, %d failed\n", written, plural(written, "demo", "demos"), failed)
	}
	if failed > 0 {
		return findings()
	}
	return nil
}
