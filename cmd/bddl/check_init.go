package main

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/termsafe"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// check --init answers "does :init hold on these instances?" in one
// command: OmniGibson task folders, *_instances folders, instance files
// and globs of them are converted in memory (as episode from-omnigibson
// converts them) and episode files read; each gets one verdict line naming
// the literals that are not true, and a table sums up per activity. It is
// added through checkExtensions, so check.go is untouched.

func init() {
	checkExtensions = append(checkExtensions, func(cmd *cobra.Command, o *checkOptions) {
		var on bool
		cmd.Flags().BoolVar(&on, "init", false, "only evaluate :init on the first step, literal by literal; PATHs may also be OmniGibson task folders, the sampled_task folder, *_instances folders or instance files (converted in memory)")
		cmd.Flags().BoolVar(&o.geometry.IgnoreError, "strict-geometry", false, "decide geometric atoms on estimated boxes with the thresholds alone (true or false), ignoring the boxes' recorded error (box_error)")
		cmd.Example += `
  bddl check --init BEHAVIOR-1K/joylo/sampled_task/cook_bacon BEHAVIOR-1K/joylo/sampled_task/freeze_pies
  bddl check --init BEHAVIOR-1K/joylo/sampled_task`
		run := cmd.RunE
		cmd.RunE = func(c *cobra.Command, args []string) error {
			if !on {
				return run(c, args)
			}
			o.episodes = append(o.episodes, args...)
			if done, err := checkLibero(c, o); done {
				return err
			}
			// Oopsie and Dora-record recordings are joined with their
			// tracks by check's own reader, which --init does not use:
			// say so rather than fail on their bytes as episode lines.
			if ins, err := batch.Expand(o.episodes, batch.ExpandOptions{What: "episodes", Match: batch.IsEpisodeFile,
				Describe: batch.EpisodeSuffixes()}); err == nil && hasRecordings(ins) {
				return misuse("--init does not read Oopsie or Dora-record recordings: run check without --init (its report says whether :init held), or convert them with 'bddl episode from-oopsie' / 'from-dora' first")
			}
			return runCheckInit(c, o, o.episodes)
		}
	})
}

// initJob is one state whose :init is evaluated: an OmniGibson instance
// (conv set) or an episode file.
type initJob struct {
	path     string
	rel      string // relative to its argument: what --shard hashes
	activity string
	eval     *omnigibson.InitEvaluator // one per definition
	conv     *omnigibson.Converter
	template bool // the template's own state
	// own evaluates a job of another kind (a LIBERO episode).
	own func() initResult
}

// initResult is one state's verdict: the "init" record of check --init
// --format json and -o (bddl schema init), for BEHAVIOR-1K states and
// LIBERO episodes alike.
type initResult struct {
	Record   string `json:"record"` // "init"
	Episode  string `json:"episode"`
	Activity string `json:"activity"`
	Init     string `json:"init"` // true, false or unknown
	Literals int    `json:"literals"`
	// False and Unknown count the literals of each value (the rest are
	// true); NotTrue is their sum, Approximate those of them decided on
	// an approximated record.
	False       int           `json:"false"`
	Unknown     int           `json:"unknown"`
	NotTrue     int           `json:"not_true"`
	Approximate int           `json:"approximate"`
	Failing     []initFailure `json:"failing,omitempty"`
	Error       string        `json:"error,omitempty"`
	// Results files (-o) only, as in check's: the shard, its number of
	// states, the state's absolute path (what resuming matches on) and
	// its path relative to its argument.
	Shard       string `json:"shard,omitempty"`
	ShardInputs int    `json:"shard_inputs,omitempty"`
	Key         string `json:"key,omitempty"`
	Rel         string `json:"rel,omitempty"`
}

type initFailure struct {
	Literal     string `json:"literal"`
	Value       string `json:"value"`
	Detail      string `json:"detail,omitempty"`
	Approximate bool   `json:"approximate,omitempty"`
}

// initIgnores are the flags of check that --init has no use for: they
// are refused, not ignored.
var initIgnores = []string{"per-step", "plot", "hold", "at-end", "lenient", "stats", "details", "negation", "strict-pairs",
	"touch-tolerance", "vertical-range", "horizontal-range", "nextto-ratio", "horizontal-rays", "overlap-fraction", "transitions"}

func runCheckInit(cmd *cobra.Command, o *checkOptions, paths []string) error {
	if err := checkFormat(o.format); err != nil {
		return err
	}
	for _, name := range initIgnores {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			return misuse("--%s does not apply to --init, which evaluates :init on the first step only", name)
		}
	}
	if len(paths) == 0 {
		return misuse("--init: name task folders, instance files or episode files")
	}
	if o.jobs < 0 {
		return misuse("--jobs must not be negative")
	}
	base, err := o.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	jobs, err := initJobs(o, paths, base)
	if err != nil {
		return err
	}
	return runInitJobs(o, jobs)
}

// runInitJobs evaluates the jobs of check --init (BEHAVIOR-1K states or
// LIBERO episodes): --shard, -o and the report are the same for both.
func runInitJobs(o *checkOptions, jobs []*initJob) error {
	shard, err := batch.ParseShard(o.shardSpec)
	if err != nil {
		return misuse("%v", err)
	}
	jobs = batch.Select(shard, jobs, func(j *initJob) string { return j.rel })
	shardInputs := len(jobs)
	// -o: the records go to a results file too, and a run resumes from
	// it: states with a verdict in it are not evaluated again.
	var results *batch.ResultsFile
	var previous []initResult
	if o.out != "" {
		outKey := batch.PathKey(o.out)
		results, err = batch.OpenResults(o.out, noter(o.err))
		if err != nil {
			return misuse("-o %v", err)
		}
		defer results.Close()
		recs, err := batch.ReadResults(o.out, func(string) {})
		if err != nil {
			return misuse("-o %v", err)
		}
		byKey := map[string]initResult{}
		for _, rec := range recs {
			var r initResult
			if json.Unmarshal(rec.Line, &r) == nil && r.Record == "init" && r.Error == "" {
				byKey[rec.Key] = r
			}
		}
		var todo []*initJob
		for _, j := range jobs {
			key := batch.PathKey(j.path)
			if key == outKey {
				continue
			}
			if r, ok := byKey[key]; ok {
				previous = append(previous, r)
				continue
			}
			todo = append(todo, j)
		}
		if len(previous) > 0 {
			fmt.Fprintf(o.err, "bddl: note: %s: %d of %d states already checked; checking %d\n", o.out, len(previous), len(jobs), len(todo))
		}
		jobs = todo
	}
	ctx, stop := o.interruptible()
	defer stop()
	pool := batch.Pool{Jobs: o.jobs}
	if !o.noProgress {
		pool.Progress = batch.NewProgress(o.err, int64(len(jobs)), 2, "checking :init")
	}
	results2 := append([]initResult(nil), previous...)
	err = batch.Run(ctx, pool, jobs, func(ctx context.Context, j *initJob) (initResult, bool) {
		if ctx.Err() != nil {
			return initResult{}, false
		}
		return evalInitJob(j), true
	}, batch.Handlers[initResult]{Ordered: func(i int, r initResult) error {
		results2 = append(results2, r)
		if results != nil {
			line := r
			line.Shard, line.ShardInputs, line.Key, line.Rel = shardName(shard), shardInputs, batch.PathKey(r.Episode), jobs[i].rel
			if err := results.Append(line); err != nil {
				return fmt.Errorf("-o %s: %w", o.out, err)
			}
		}
		return writeInitResult(o.streams.out, o.format, &r)
	}})
	if err != nil {
		return err
	}
	if o.format == "text" {
		writeInitSummary(o.streams.out, results2, len(previous))
	}
	if ctx.Err() != nil {
		return &exitError{code: exitInterrupted, err: fmt.Errorf("interrupted: %d of %d states checked", len(results2)-len(previous), len(jobs))}
	}
	for _, r := range results2 {
		if r.Init != "true" {
			return findings()
		}
	}
	return nil
}

// initJobs resolves the paths: episode files (and directories holding
// only episodes) are read as they are; anything else is taken for an
// OmniGibson task (FindTasks), one Converter per template and definition.
func initJobs(o *checkOptions, paths []string, base *kb.Base) ([]*initJob, error) {
	og := &fromOGOptions{globalOptions: o.globalOptions, activity: o.activity, library: o.library}
	type def struct {
		problem *bddl.Problem
		eval    *omnigibson.InitEvaluator
		name    string // the canonical activity name, as every record has it
	}
	defs := map[string]def{}
	readDef := func(path string) (def, error) {
		if d, ok := defs[path]; ok {
			return d, nil
		}
		p, _, err := og.readDefinition(path)
		if err != nil {
			return def{}, err
		}
		d := def{p, omnigibson.NewInitEvaluatorOptions(p, base, predicates.Options{Geometry: o.geometry}), activities.CanonicalName(path, p)}
		defs[path] = d
		return d, nil
	}
	convs := map[[3]string]*omnigibson.Converter{}
	pool := omnigibson.NewPool() // every task's template votes on the models they share
	var jobs []*initJob
	for _, path := range paths {
		if eps := episodeFiles(path); len(eps) > 0 {
			for _, ep := range eps {
				defPath := o.activity
				if defPath == "" {
					h, err := episodeHeader(ep)
					if err != nil {
						return nil, misuse("%v", err)
					}
					defPath = h.Activity
					if !filepath.IsAbs(defPath) && !fileExists(defPath) {
						defPath = besideEpisode(ep, defPath)
					}
				}
				if !fileExists(defPath) {
					return nil, misuse("%s: its definition %q is not a file: give --activity FILE", ep, defPath)
				}
				d, err := readDef(defPath)
				if err != nil {
					return nil, err
				}
				jobs = append(jobs, &initJob{path: ep, rel: relTo(path, ep), activity: d.name, eval: d.eval})
			}
			continue
		}
		tasks, err := omnigibson.FindTasks(path, "")
		if err != nil {
			return nil, misuse("%v", err)
		}
		for _, task := range tasks {
			defPath, err := og.definitionPath(task)
			if err != nil {
				return nil, err
			}
			d, err := readDef(defPath)
			if err != nil {
				return nil, err
			}
			key := [3]string{task.Template, task.Partial, defPath}
			conv := convs[key]
			if conv == nil {
				tmpl, err := omnigibson.ReadTask(task)
				if err != nil {
					return nil, misuse("%v", err)
				}
				if conv, err = omnigibson.NewConverter(tmpl, d.problem, defPath, base, omnigibson.Options{Activity: d.name, Pool: pool}); err != nil {
					return nil, misuse("%v", err)
				}
				convs[key] = conv
			}
			if len(task.Instances) == 0 {
				jobs = append(jobs, &initJob{path: task.Template, rel: relTo(path, task.Template), activity: d.name, eval: d.eval, conv: conv, template: true})
			}
			for _, in := range task.Instances {
				jobs = append(jobs, &initJob{path: in, rel: relTo(path, in), activity: d.name, eval: d.eval, conv: conv})
			}
		}
	}
	return jobs, nil
}

// relTo is a state's path relative to the argument that named it (its
// file name when the argument is the file or a glob), as --shard hashes
// episodes.
func relTo(arg, path string) string {
	if info, err := os.Stat(arg); err == nil && info.IsDir() {
		if rel, err := filepath.Rel(arg, path); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(path)
}

// besideEpisode resolves a relative header activity against the
// episode's directory: the path itself, else the copy of the definition
// bddl writes beside the episodes it makes (<name>.bddl, as
// batch.Resolver finds it for check without --init).
func besideEpisode(ep, ref string) string {
	dir := filepath.Dir(ep)
	path := filepath.Join(dir, ref)
	if fileExists(path) || strings.ContainsAny(ref, "/\\") {
		return path
	}
	name := strings.TrimSuffix(ref, ".bddl")
	for _, cand := range []string{batch.DefinitionFile(name), batch.DefinitionFile(activities.StripInstance(name))} {
		if c := filepath.Join(dir, cand); fileExists(c) {
			return c
		}
	}
	return path
}

// episodeFiles lists path itself when it is an episode file, the
// episode files of a directory that holds no OmniGibson task, or those a
// glob matches when they all are episode files.
func episodeFiles(path string) []string {
	info, err := os.Stat(path)
	if err != nil {
		matches, _ := filepath.Glob(path)
		for _, m := range matches {
			if !batch.IsEpisodeFile(m) {
				return nil
			}
		}
		return matches
	}
	if !info.IsDir() {
		if batch.IsEpisodeFile(path) {
			return []string{path}
		}
		return nil
	}
	if _, err := omnigibson.FindTask(path); err == nil {
		return nil
	}
	var out []string
	_ = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && batch.IsEpisodeFile(p) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

// openEpisode opens an episode file, gzip-compressed or not.
func openEpisode(path string) (*episode.Reader, io.Closer, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, nil, err
	}
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: %v", path, err)
		}
		r = zr
	}
	er, err := episode.NewReader(r, path)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return er, f, nil
}

func episodeHeader(path string) (*episode.Header, error) {
	r, c, err := openEpisode(path)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return r.Header(), nil
}

// evalInitJob converts (or reads) the job's state and evaluates :init.
func evalInitJob(j *initJob) initResult {
	if j.own != nil {
		return j.own()
	}
	res := initResult{Record: "init", Episode: j.path, Activity: j.activity}
	var lits []omnigibson.InitLiteral
	var rep *omnigibson.Report
	var err error
	switch {
	case j.conv != nil:
		var h *episode.Header
		if j.template {
			h, rep, err = j.conv.ConvertTemplate()
		} else {
			var in *omnigibson.Instance
			if in, err = omnigibson.ReadInstance(j.path); err == nil {
				h, rep, err = j.conv.Convert(in)
			}
		}
		if err == nil {
			lits, err = j.eval.Eval(h)
		}
	default:
		var r *episode.Reader
		var c io.Closer
		if r, c, err = openEpisode(j.path); err == nil {
			// An episode converted from OmniGibson says which of its
			// records are approximate, as the conversion knew.
			rep = omnigibson.ReportFromMeta(r.Header().Meta)
			lits, err = j.eval.EvalReader(r)
			c.Close()
		}
	}
	if err != nil {
		res.Init, res.Error = "unknown", err.Error()
		return res
	}
	res.Literals = len(lits)
	verdict := predicates.True
	for i := range lits {
		l := &lits[i]
		verdict = verdict.And(l.Value)
		switch l.Value {
		case predicates.True:
			continue
		case predicates.False:
			res.False++
		default:
			res.Unknown++
		}
		f := initFailure{Literal: l.Literal, Value: l.Value.String(), Detail: l.Detail,
			Approximate: rep != nil && rep.IsApproximate(l.Pred, l.Args)}
		res.Failing = append(res.Failing, f)
		res.NotTrue++
		if f.Approximate {
			res.Approximate++
		}
	}
	res.Init = verdict.String()
	return res
}

func writeInitResult(w io.Writer, format string, r *initResult) error {
	if format == "json" {
		b, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintln(w, string(b))
		return err
	}
	switch {
	case r.Error != "":
		_, err := fmt.Fprintf(w, "ERROR  %s: %s\n", r.Episode, r.Error)
		return err
	case r.Init == "true":
		_, err := fmt.Fprintf(w, "TRUE   %s: %d literals\n", r.Episode, r.Literals)
		return err
	}
	var parts []string
	for _, f := range r.Failing {
		s := f.Literal + " is " + f.Value
		if f.Approximate {
			s += " (approximate)"
		}
		if f.Detail != "" {
			s += " [" + f.Detail + "]"
		}
		parts = append(parts, s)
	}
	_, err := fmt.Fprintf(w, "%-6s %s: %d of %d literals not true: %s\n", strings.ToUpper(r.Init), r.Episode, len(r.Failing), r.Literals, strings.Join(parts, "; "))
	return err
}

// writeInitSummary prints one row per activity (and one for all, when
// there are several): states, :init true, false and unknown, the rate
// true, the literals false and unknown and how many of those were
// approximate; previous says how many states came from an earlier run
// (-o).
func writeInitSummary(w io.Writer, results []initResult, previous int) {
	type row struct{ states, initTrue, initFalse, initUnknown, errors, litFalse, litUnknown, approx int }
	rows := map[string]*row{}
	var names []string
	var total row
	for _, r := range results {
		x := rows[r.Activity]
		if x == nil {
			x = &row{}
			rows[r.Activity] = x
			names = append(names, r.Activity)
		}
		for _, x := range []*row{x, &total} {
			x.states++
			switch {
			case r.Error != "":
				x.errors++
			case r.Init == "true":
				x.initTrue++
			case r.Init == "false":
				x.initFalse++
			default:
				x.initUnknown++
			}
			x.litFalse += r.False
			x.litUnknown += r.Unknown
			x.approx += r.Approximate
		}
	}
	sort.Strings(names)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ACTIVITY\tSTATES\tINIT TRUE\tFALSE\tUNKNOWN\tRATE\tLITERALS FALSE\tUNKNOWN\tAPPROXIMATE\tERRORS")
	line := func(n string, x *row) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%.1f%%\t%d\t%d\t%d\t%d\n", termsafe.Text(n), x.states, x.initTrue, x.initFalse, x.initUnknown,
			100*float64(x.initTrue)/float64(max(1, x.states)), x.litFalse, x.litUnknown, x.approx, x.errors)
	}
	for _, n := range names {
		line(n, rows[n])
	}
	if len(names) > 1 {
		line("all", &total)
	}
	tw.Flush()
	if previous > 0 {
		fmt.Fprintf(w, "(%d of the %d states from earlier runs)\n", previous, total.states)
	}
}
