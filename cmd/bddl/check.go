package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

func init() { subcommands = append(subcommands, newCheckCmd) }

// exitInterrupted is the exit status of a batch stopped by SIGINT or
// SIGTERM, as a shell reports a process killed by SIGINT.
const exitInterrupted = 130

type checkOptions struct {
	*globalOptions
	activity   string
	library    string // --activities: a BEHAVIOR-1K activity_definitions tree
	episodes   []string
	format     string
	out        string
	perStep    bool
	details    bool
	hold       int
	atEnd      bool
	negation   string
	strictPair bool
	geometry   predicates.Geometry
	lenient    bool
	plot       string
	stats      bool
	jobs       int
	noProgress bool
}

func newCheckCmd(g *globalOptions) *cobra.Command {
	opts := &checkOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "check [--activity FILE|NAME] --episode FILE|DIR|GLOB... [flags]",
		Short: "Check goal success on recorded episodes",
		Long: `Check streams recorded episodes (JSON Lines, optionally gzip-compressed; the
format is in the README and 'bddl episode schema'), evaluates :init at the
first step and :goal at every step, and reports for each episode: success,
the first step at which the goal holds and whether it still holds at the end,
whether :init held at the first step (and which literals did not), the
library and challenge scores, the goal literals unsatisfied or undetermined
at the end with the objects and recorded values they were decided on, and
how many decisions were approximate (box geometry) or unknown.

The activity is --activity (a problem file, a name in the --activities
library or the embedded examples), else the one each episode's header
names. --episode takes files, directories (walked for *.jsonl and
*.jsonl.gz) and globs; it may be repeated, and further arguments are
episodes too. Episodes are checked in parallel.

An episode succeeds when its goal holds for --hold consecutive steps of a
recording read without error; a bad line (malformed JSON, an unknown
instance, a wrong type, a step number that does not increase, NaN, a box
with min > max) stops it with an error naming file, line, step and field,
and it is not a success. --lenient skips bad steps and counts them; an
episode with skipped steps is not a success either.

--out FILE appends one JSON line per episode (RoboLab-compatible fields:
activity, episode, success, score, reason, episode_step, duration; and
challenge_score, first_success_step, init_ok, unknown_count, ...). A run
skips the episodes already in FILE, so an interrupted run resumes; an
interrupt (Ctrl-C) finishes the line being written and leaves FILE valid.

The exit status is 0 when every episode succeeded, 1 when one failed or
had an error, 2 on misuse, 130 when interrupted.`,
		Example: `  bddl check --activity tidying_the_living_room --episode activities/examples/tidying_the_living_room/episodes/poses.jsonl
  bddl check --per-step --plot timeline.svg --episode run7.jsonl.gz
  bddl check --activities behavior1k/activity_definitions --episode 'runs/*.jsonl.gz' --out results.jsonl
  bddl check --format json --hold 10 --negation strict --episode runs/`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.episodes = append(opts.episodes, args...)
			return runCheck(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.activity, "activity", "", "activity definition: a problem file or an activity name (default: the one each episode names)")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find activities by name in")
	f.StringArrayVar(&opts.episodes, "episode", nil, "an episode file, a directory of them, or a glob (repeatable)")
	f.StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per episode, JSON Lines)")
	f.StringVar(&opts.out, "out", "", "append one JSON line per episode to this file, skipping the episodes already in it")
	f.BoolVar(&opts.perStep, "per-step", false, "add the goal's and each top-level conjunct's truth at every step")
	f.BoolVar(&opts.details, "details", false, "print the full report of every episode, not one line each, when checking several")
	f.IntVar(&opts.hold, "hold", 1, "the goal must hold for N consecutive steps")
	f.BoolVar(&opts.atEnd, "at-end", false, "also require the goal to hold at the last step")
	f.StringVar(&opts.negation, "negation", "reference", "negation: reference (plain NOT, as the simulator) or strict (not open = closed, ...)")
	f.BoolVar(&opts.strictPair, "strict-pairs", false, "forpairs/fornpairs need a one-to-one matching, not the reference's cover test")
	f.Float64Var(&opts.geometry.TouchTolerance, "touch-tolerance", predicates.DefaultTouchTolerance, "largest box separation (m) that counts as touching")
	f.Float64Var(&opts.geometry.VerticalRange, "vertical-range", predicates.DefaultVerticalRange, "length (m) of the vertical rays of ontop and under")
	f.Float64Var(&opts.geometry.HorizontalRange, "horizontal-range", predicates.DefaultHorizontalRange, "length (m) of nextto's horizontal rays")
	f.Float64Var(&opts.geometry.NextToRatio, "nextto-ratio", predicates.DefaultNextToRatio, "nextto's gap limit as a fraction of the sum of both boxes' six extents")
	f.IntVar(&opts.geometry.HorizontalRays, "horizontal-rays", predicates.DefaultHorizontalRays, "number of horizontal ray directions of nextto")
	f.Float64Var(&opts.geometry.OverlapFraction, "overlap-fraction", predicates.DefaultOverlapFraction, "share of the parent's footprint a cloth must cover for overlaid")
	f.BoolVar(&opts.lenient, "lenient", false, "skip bad steps and count them instead of stopping the episode")
	f.StringVar(&opts.plot, "plot", "", "draw each episode's timeline of goal conjuncts to FILE.svg or FILE.png")
	f.BoolVar(&opts.stats, "stats", false, "report time spent decoding vs evaluating, and steps per second")
	f.IntVar(&opts.jobs, "jobs", runtime.GOMAXPROCS(0), "episodes checked in parallel")
	f.BoolVar(&opts.noProgress, "no-progress", false, "do not show a progress bar on a terminal")
	return cmd
}

// testAfterResult, when set by a test, is called after each result is
// recorded, with the number recorded so far.
var testAfterResult func(n int)

func runCheck(opts *checkOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	compile, err := opts.compileOptions()
	if err != nil {
		return err
	}
	if opts.hold < 1 {
		return misuse("--hold must be at least 1, not %d", opts.hold)
	}
	if opts.plot != "" {
		switch strings.ToLower(filepath.Ext(opts.plot)) {
		case ".svg", ".png":
		default:
			return misuse("--plot %s: the file must end in .svg or .png", opts.plot)
		}
	}
	if len(opts.episodes) == 0 {
		return misuse("no episodes: give --episode FILE|DIR|GLOB")
	}
	files, err := episodeFiles(opts.episodes)
	if err != nil {
		return err
	}
	if opts.out != "" {
		// The results file may sit among the episodes (a directory or a
		// glob *.jsonl): it is not one.
		outAbs, _ := filepath.Abs(opts.out)
		kept := files[:0]
		for _, f := range files {
			if abs, _ := filepath.Abs(f); abs != outAbs {
				kept = append(kept, f)
			}
		}
		if files = kept; len(files) == 0 {
			return misuse("no episodes besides the --out file")
		}
	}
	base, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	acts := &activityFinder{base: base, opts: compile}
	if opts.library != "" {
		if acts.library, err = loadLibrary(opts.library); err != nil {
			return err
		}
	}
	if opts.activity != "" {
		// A definition named on the command line must be usable: fail
		// before reading any episode.
		act, err := acts.find(opts.activity, "")
		if err == nil {
			_, err = acts.program(act, nil)
		}
		if err != nil {
			return opts.reportDefinitionError(err)
		}
	}

	var results *resultsFile
	var previous []*episode.Result
	if opts.out != "" {
		results, previous, err = openResults(opts.out, opts.err)
		if err != nil {
			return misuse("--out %s: %v", opts.out, err)
		}
		defer results.close()
		done := map[string]bool{}
		for _, r := range previous {
			done[r.Episode] = true
		}
		var todo []string
		for _, f := range files {
			if !done[f] {
				todo = append(todo, f)
			}
		}
		if skipped := len(files) - len(todo); skipped > 0 {
			fmt.Fprintf(opts.err, "skipping %d %s already in %s\n", skipped, plural(skipped, "episode", "episodes"), opts.out)
		}
		// Summaries cover the episodes asked for, checked now or before.
		want := map[string]bool{}
		for _, f := range files {
			want[f] = true
		}
		kept := previous[:0]
		for _, r := range previous {
			if want[r.Episode] {
				kept = append(kept, r)
			}
		}
		previous = kept
		files = todo
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	c := &checkRun{opts: opts, acts: acts, files: files, results: results, single: len(files) == 1 && len(previous) == 0}
	c.start = time.Now()
	fresh, werr := c.runAll(ctx)
	if werr != nil {
		return werr
	}
	interrupted := ctx.Err() != nil
	stop()
	all := append(append([]*episode.Result(nil), previous...), fresh...)
	if opts.format == "text" && !c.single {
		writeCheckSummary(opts.stdout(), all, len(previous))
	}
	if opts.stats {
		writeCheckStats(opts.err, fresh, time.Since(c.start))
	}
	if interrupted {
		fmt.Fprintf(opts.err, "bddl: interrupted: %d of %d episodes checked", len(fresh), len(files))
		if opts.out != "" {
			fmt.Fprintf(opts.err, "; %s is complete up to them: run the same command again to resume", opts.out)
		}
		fmt.Fprintln(opts.err)
		return &exitError{code: exitInterrupted}
	}
	for _, r := range all {
		if !r.Success {
			return findings()
		}
	}
	return nil
}

// stdout is where results go.
func (o *checkOptions) stdout() io.Writer { return o.streams.out }

// compileOptions turns the flags into predicates options.
func (o *checkOptions) compileOptions() (predicates.Options, error) {
	var opts predicates.Options
	switch o.negation {
	case "reference":
		opts.Negation = predicates.ReferenceNegation
	case "strict":
		opts.Negation = predicates.StrictNegation
	default:
		return opts, misuse("--negation %q: use reference or strict", o.negation)
	}
	g := o.geometry
	for _, v := range []struct {
		name string
		val  float64
	}{{"touch-tolerance", g.TouchTolerance}, {"vertical-range", g.VerticalRange}, {"horizontal-range", g.HorizontalRange},
		{"nextto-ratio", g.NextToRatio}, {"overlap-fraction", g.OverlapFraction}} {
		if !(v.val > 0) || v.val > 1e6 {
			return opts, misuse("--%s %v: must be a positive number", v.name, v.val)
		}
	}
	if g.HorizontalRays < 1 || g.HorizontalRays > 360 {
		return opts, misuse("--horizontal-rays %d: must be between 1 and 360", g.HorizontalRays)
	}
	opts.StrictPairs = o.strictPair
	opts.Geometry = g
	return opts, nil
}

// reportDefinitionError prints a definition's problems and returns the
// misuse exit.
func (o *checkOptions) reportDefinitionError(err error) error {
	if ds, ok := bddl.AsDiagnostics(err); ok {
		_ = ds.WriteText(o.err)
		return &exitError{code: exitMisuse, err: fmt.Errorf("--activity %s cannot be checked against: %d problem(s) in the definition", o.activity, len(ds))}
	}
	return misuse("--activity %s: %v", o.activity, err)
}

// episodeFiles expands the episode arguments: files as given, directories
// walked for *.jsonl and *.jsonl.gz in lexical order, globs expanded.
// Duplicates are dropped.
func episodeFiles(args []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	for _, a := range args {
		if info, err := os.Stat(a); err == nil {
			if !info.IsDir() {
				add(a)
				continue
			}
			var found []string
			err := filepath.WalkDir(a, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				if !d.IsDir() && isEpisodeFile(d.Name()) {
					found = append(found, path)
				}
				return nil
			})
			if err != nil {
				return nil, misuse("%v", err)
			}
			if len(found) == 0 {
				return nil, misuse("%s: no *.jsonl or *.jsonl.gz episodes in the directory", a)
			}
			sort.Strings(found)
			for _, f := range found {
				add(f)
			}
			continue
		}
		if strings.ContainsAny(a, "*?[") {
			matches, err := filepath.Glob(a)
			if err != nil {
				return nil, misuse("--episode %s: %v", a, err)
			}
			if len(matches) == 0 {
				return nil, misuse("--episode %s: no file matches", a)
			}
			sort.Strings(matches)
			for _, m := range matches {
				if info, err := os.Stat(m); err == nil && !info.IsDir() {
					add(m)
				}
			}
			continue
		}
		return nil, misuse("--episode %s: no such file or directory", a)
	}
	return out, nil
}

func isEpisodeFile(name string) bool {
	return strings.HasSuffix(name, ".jsonl") || strings.HasSuffix(name, ".jsonl.gz")
}

// checkRun is one invocation's batch.
type checkRun struct {
	opts    *checkOptions
	acts    *activityFinder
	files   []string
	results *resultsFile
	single  bool
	start   time.Time
}

// runAll checks the files on a pool of workers. Results are written to
// the results file as they complete and printed in input order; a
// cancelled context stops the pool, and episodes cut short are dropped
// (not recorded), so a rerun checks them.
func (c *checkRun) runAll(ctx context.Context) ([]*episode.Result, error) {
	n := len(c.files)
	type done struct {
		i   int
		res *episode.Result
	}
	jobs := make(chan int)
	out := make(chan done)
	var wg sync.WaitGroup
	for range max(1, min(c.opts.jobs, n)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out <- done{i, c.checkOne(ctx, c.files[i])}
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range n {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(out)
	}()

	bar := c.progress(n)
	ordered := make([]*episode.Result, n)
	printed := 0
	var kept []*episode.Result
	var writeErr error
	recorded := 0
	for d := range out {
		if bar != nil {
			_ = bar.Add(1)
		}
		if d.res.Interrupted {
			continue
		}
		if c.results != nil && writeErr == nil {
			writeErr = c.results.append(d.res)
		}
		recorded++
		if testAfterResult != nil {
			testAfterResult(recorded)
		}
		ordered[d.i] = d.res
		for printed < n && ordered[printed] != nil {
			if err := c.print(ordered[printed]); err != nil && writeErr == nil {
				writeErr = err
			}
			kept = append(kept, ordered[printed])
			printed++
		}
	}
	if bar != nil {
		_ = bar.Finish()
	}
	// Results after a gap left by an interrupted episode are still shown.
	for i := printed; i < n; i++ {
		if ordered[i] != nil {
			if err := c.print(ordered[i]); err != nil && writeErr == nil {
				writeErr = err
			}
			kept = append(kept, ordered[i])
		}
	}
	if c.results != nil {
		if err := c.results.sync(); err != nil && writeErr == nil {
			writeErr = err
		}
	}
	if writeErr != nil {
		return kept, fmt.Errorf("writing results: %w", writeErr)
	}
	return kept, nil
}

func (c *checkRun) progress(n int) *progressbar.ProgressBar {
	f, ok := c.opts.err.(*os.File)
	if c.opts.noProgress || n < 2 || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return progressbar.NewOptions(n,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription("checking"),
		progressbar.OptionShowCount(),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100*time.Millisecond),
	)
}

// checkOne reads and checks one episode; every failure becomes an error
// result.
func (c *checkRun) checkOne(ctx context.Context, path string) *episode.Result {
	fail := func(activity string, err error) *episode.Result {
		return &episode.Result{Activity: activity, Episode: path, Reason: err.Error(), Error: err.Error(),
			Hold: c.opts.hold, Negation: c.opts.negation}
	}
	if ctx.Err() != nil {
		return &episode.Result{Interrupted: true}
	}
	r, err := episode.Open(path)
	if err != nil {
		return fail(c.opts.activity, err)
	}
	defer r.Close()
	ref := c.opts.activity
	if ref == "" {
		ref = r.Header().Activity
	}
	act, err := c.acts.find(ref, path)
	if err != nil {
		return fail(ref, err)
	}
	prog, err := c.acts.program(act, episode.Wildcards(act.problem, r.Header()))
	if err != nil {
		return fail(act.name, fmt.Errorf("activity %s: %v", act.name, err))
	}
	plot := c.opts.plot != ""
	res := episode.Check(ctx, prog, r, episode.CheckOptions{
		Hold: c.opts.hold, AtEnd: c.opts.atEnd, PerStep: c.opts.perStep || plot,
		Lenient: c.opts.lenient, Timing: c.opts.stats,
	})
	res.Activity = act.name
	if c.opts.activity != "" && !sameActivity(r.Header().Activity, act) {
		res.Warnings = append(res.Warnings, fmt.Sprintf("the episode names activity %q; checked against %s as --activity asks", r.Header().Activity, act.name))
	}
	if plot && res.Error == "" && !res.Interrupted {
		if err := res.PlotTimeline(c.plotPath(path)); err != nil {
			res.Warnings = append(res.Warnings, "plot: "+err.Error())
		}
	}
	if !c.opts.perStep {
		res.PerStep, res.Conjuncts = nil, nil
	}
	return res
}

// plotPath is --plot for one episode; for several, each episode's name
// goes before the extension.
func (c *checkRun) plotPath(episodePath string) string {
	if c.single {
		return c.opts.plot
	}
	ext := filepath.Ext(c.opts.plot)
	name := filepath.Base(episodePath)
	name = strings.TrimSuffix(strings.TrimSuffix(name, ".gz"), ".jsonl")
	return strings.TrimSuffix(c.opts.plot, ext) + "-" + name + ext
}

// print writes one result to stdout.
func (c *checkRun) print(r *episode.Result) error {
	w := c.opts.stdout()
	if c.opts.format == "json" {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, err = w.Write(append(line, '\n'))
		return err
	}
	if c.single || c.opts.details || c.opts.perStep {
		if err := r.WriteText(w); err != nil {
			return err
		}
		if c.opts.stats && r.Stats != nil {
			s := r.Stats
			fmt.Fprintf(w, "  stats        decoding %.3f s, evaluating %.3f s: %.0f steps/s, %.1f MB/s\n",
				s.DecodeSeconds, s.EvalSeconds, s.StepsPerSecond, s.MBPerSecond)
		}
		if !c.single {
			fmt.Fprintln(w)
		}
		return nil
	}
	mark := "ok   "
	switch {
	case r.Error != "":
		mark = "ERROR"
	case !r.Success:
		mark = "FAIL "
	}
	_, err := fmt.Fprintf(w, "%s %s: %s\n", mark, r.Episode, r.Reason)
	return err
}

// writeCheckSummary prints the success rate and mean scores per activity.
func writeCheckSummary(w io.Writer, results []*episode.Result, previous int) {
	type agg struct {
		n, ok, errors    int
		score, challenge float64
	}
	byAct := map[string]*agg{}
	var names []string
	var total agg
	for _, r := range results {
		a := byAct[r.Activity]
		if a == nil {
			a = &agg{}
			byAct[r.Activity] = a
			names = append(names, r.Activity)
		}
		for _, x := range []*agg{a, &total} {
			x.n++
			if r.Success {
				x.ok++
			}
			if r.Error != "" {
				x.errors++
			}
			x.score += r.Score
			x.challenge += r.ChallengeScore
		}
	}
	sort.Strings(names)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ACTIVITY\tEPISODES\tSUCCESS\tRATE\tMEAN SCORE\tMEAN CHALLENGE\tERRORS")
	row := func(name string, a *agg) {
		if a.n == 0 {
			return
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%.1f%%\t%.3f\t%.3f\t%d\n", name, a.n, a.ok,
			100*float64(a.ok)/float64(a.n), a.score/float64(a.n), a.challenge/float64(a.n), a.errors)
	}
	for _, n := range names {
		row(n, byAct[n])
	}
	if len(names) > 1 {
		row("all", &total)
	}
	tw.Flush()
	if previous > 0 {
		fmt.Fprintf(w, "(%d of the %d episodes from earlier runs)\n", previous, total.n)
	}
}

// writeCheckStats prints the throughput of the episodes checked now.
func writeCheckStats(w io.Writer, results []*episode.Result, wall time.Duration) {
	var steps int
	var bytes int64
	var dec, eval float64
	for _, r := range results {
		if r.Stats != nil {
			steps += r.Stats.Steps
			bytes += r.Stats.Bytes
			dec += r.Stats.DecodeSeconds
			eval += r.Stats.EvalSeconds
		}
	}
	per := 0.0
	if dec+eval > 0 {
		per = float64(steps) / (dec + eval)
	}
	fmt.Fprintf(w, "stats: %d episodes, %d steps, %.1f MB; decoding %.3f s, evaluating %.3f s (one core: %.0f steps/s); wall %.3f s (%.0f steps/s)\n",
		len(results), steps, float64(bytes)/1e6, dec, eval, per, wall.Seconds(), float64(steps)/max(wall.Seconds(), 1e-9))
}

// activityFinder resolves activity references and compiles them once.
type activityFinder struct {
	base    *kb.Base
	opts    predicates.Options
	library *activities.Library

	mu       sync.Mutex
	found    map[string]*foundActivity
	programs map[string]*compiled
}

type foundActivity struct {
	name    string // the activity's name for reports
	key     string // identity for the program cache
	problem *bddl.Problem
}

type compiled struct {
	once sync.Once
	prog *predicates.Program
	err  error
}

// find resolves an activity: a problem file (relative paths also from
// the episode's directory), an activity directory, then a name in the
// --activities library and the embedded examples.
func (a *activityFinder) find(ref, episodePath string) (*foundActivity, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.found == nil {
		a.found = map[string]*foundActivity{}
	}
	cacheKey := ref + "\x00" + filepath.Dir(episodePath)
	if f, ok := a.found[cacheKey]; ok {
		return f, nil
	}
	f, err := a.lookup(ref, episodePath)
	if err != nil {
		return nil, err
	}
	a.found[cacheKey] = f
	return f, nil
}

func (a *activityFinder) lookup(ref, episodePath string) (*foundActivity, error) {
	candidates := []string{ref}
	if episodePath != "" && !filepath.IsAbs(ref) {
		candidates = append(candidates, filepath.Join(filepath.Dir(episodePath), ref))
	}
	for _, path := range candidates {
		info, err := os.Stat(path)
		if err != nil {
			continue
		}
		if info.IsDir() {
			lib, err := activities.LoadDir(path)
			if err != nil || len(lib.Activities) == 0 {
				continue
			}
			return fromActivity(lib.Activities[0])
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		prob, diags := bddl.ParseProblem(path, src)
		if diags.HasErrors() {
			return nil, diags
		}
		name := prob.Name.Name
		if act, _, ok := activities.ActivityPath(path); ok {
			name = act
		}
		abs, _ := filepath.Abs(path)
		return &foundActivity{name: name, key: "file:" + abs, problem: prob}, nil
	}
	for _, lib := range []*activities.Library{a.library, activities.Examples()} {
		if lib == nil {
			continue
		}
		if act, ok := lib.Find(ref); ok {
			return fromActivity(act)
		}
		// A recording may name the definition by its problem name, or by
		// a path on the machine that recorded it.
		if act, ok := lib.Find(strings.TrimSuffix(filepath.Base(ref), ".bddl")); ok {
			return fromActivity(act)
		}
		if name, n, ok := activities.ActivityPath(ref); ok {
			if act, ok := lib.Find(fmt.Sprintf("%s-%d", name, n)); ok {
				return fromActivity(act)
			}
		}
	}
	where := "the embedded examples"
	if a.library != nil {
		where = "the --activities library or " + where
	}
	return nil, fmt.Errorf("activity %q not found: not a problem file, and not in %s", ref, where)
}

func fromActivity(act *activities.Activity) (*foundActivity, error) {
	if act.Problem == nil || act.Diagnostics.HasErrors() {
		return nil, act.Diagnostics
	}
	return &foundActivity{name: act.Name, key: "lib:" + act.Path, problem: act.Problem}, nil
}

// sameActivity reports whether an episode's activity reference names act.
func sameActivity(ref string, act *foundActivity) bool {
	r := bddl.Fold(strings.TrimSuffix(filepath.Base(ref), ".bddl"))
	if r == "problem0" || strings.HasPrefix(r, "problem") {
		r = bddl.Fold(filepath.Base(filepath.Dir(ref)))
	}
	name := bddl.Fold(act.name)
	return r == name || strings.HasPrefix(r, name+"-") || r == bddl.Fold(act.problem.Name.Name)
}

// program compiles an activity with a wildcard expansion, once.
func (a *activityFinder) program(act *foundActivity, wildcards map[string][]string) (*predicates.Program, error) {
	key := act.key
	if len(wildcards) > 0 {
		var ks []string
		for k, v := range wildcards {
			ks = append(ks, k+"="+strings.Join(v, ","))
		}
		sort.Strings(ks)
		key += "\x00" + strings.Join(ks, ";")
	}
	a.mu.Lock()
	if a.programs == nil {
		a.programs = map[string]*compiled{}
	}
	c := a.programs[key]
	if c == nil {
		c = &compiled{}
		a.programs[key] = c
	}
	a.mu.Unlock()
	c.once.Do(func() {
		opts := a.opts
		opts.Wildcards = wildcards
		c.prog, c.err = predicates.Compile(act.problem, a.base, opts)
	})
	return c.prog, c.err
}

// resultsFile is a JSON Lines file of results, appended a whole line at
// a time. On opening, a partial last line (left by a run killed while
// writing) is cut off so the file stays valid JSON Lines.
type resultsFile struct {
	f *os.File
}

func openResults(path string, warn io.Writer) (*resultsFile, []*episode.Result, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if end := bytes.LastIndexByte(data, '\n') + 1; end < len(data) {
		if err := f.Truncate(int64(end)); err != nil {
			f.Close()
			return nil, nil, err
		}
		fmt.Fprintf(warn, "%s: dropped a partial last line left by an interrupted run\n", path)
		data = data[:end]
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, nil, err
	}
	var prev []*episode.Result
	for i, line := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		// Only what resuming and the summary need is read back.
		var r struct {
			Activity       string  `json:"activity"`
			Episode        string  `json:"episode"`
			Success        bool    `json:"success"`
			Score          float64 `json:"score"`
			ChallengeScore float64 `json:"challenge_score"`
			Error          string  `json:"error"`
		}
		if err := json.Unmarshal(line, &r); err != nil || r.Episode == "" {
			fmt.Fprintf(warn, "%s:%d: not a result line; kept as is\n", path, i+1)
			continue
		}
		prev = append(prev, &episode.Result{Activity: r.Activity, Episode: r.Episode, Success: r.Success,
			Score: r.Score, ChallengeScore: r.ChallengeScore, Error: r.Error})
	}
	return &resultsFile{f: f}, prev, nil
}

// append writes one result as one line with a single write.
func (r *resultsFile) append(res *episode.Result) error {
	line, err := json.Marshal(res)
	if err != nil {
		return err
	}
	_, err = r.f.Write(append(line, '\n'))
	return err
}

func (r *resultsFile) sync() error { return r.f.Sync() }

func (r *resultsFile) close() {
	if r.f != nil {
		r.f.Close()
	}
}
