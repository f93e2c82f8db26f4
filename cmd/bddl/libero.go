package main

// The LIBERO dialect in the existing commands: parse and fmt read it
// through bddl's dialect detection; validate, explain, sample and check
// hand LIBERO definitions and episodes to the libero package through the
// small hooks below, so their BEHAVIOR-1K paths are unchanged.

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/libero"
)

// dialectOption reads --dialect.
func (g *globalOptions) dialectOption() (bddl.Dialect, error) {
	d, err := bddl.ParseDialect(g.dialect)
	if err != nil {
		return d, misuse("--dialect: %v", err)
	}
	return d, nil
}

// isLibero reports whether the definition is read as LIBERO under --dialect.
func (g *globalOptions) isLibero(src []byte) bool {
	d, _ := bddl.ParseDialect(g.dialect)
	return d == bddl.DialectLibero || d == bddl.DialectAuto && bddl.IsLibero(src)
}

// validateLibero validates the LIBERO definitions among ins (strict, as
// every authoring command reads) and returns the others. Findings are
// printed as validate prints BEHAVIOR-1K's: text on stderr with a summary
// on stdout, or one finding record per line (bddl schema finding).
func validateLibero(opts *validateOptions, ins []batch.Input) (rest []batch.Input, failed bool, err error) {
	enc := jsonLines(opts.out)
	files, errs, warns := 0, 0, 0
	d, _ := bddl.ParseDialect(opts.dialect)
	for _, in := range ins {
		// Standard input can be read once: it is LIBERO's only when
		// --dialect libero says so; --dialect behavior1k reads nothing here.
		if d == bddl.DialectBehavior || in.Path == batch.Stdin && d != bddl.DialectLibero {
			rest = append(rest, in)
			continue
		}
		src, rerr := readDefinition(in, opts.in)
		if rerr != nil || !opts.isLibero(src) {
			rest = append(rest, in)
			continue
		}
		files++
		_, found := activities.ValidateLibero(in.Path, src)
		var kept bddl.Diagnostics
		for _, f := range found {
			d := f.Diagnostic
			if d.Severity > opts.minimum || len(opts.selectC) > 0 && !codeMatches(d.Code, opts.selectC) || codeMatches(d.Code, opts.ignoreC) {
				continue
			}
			switch d.Severity {
			case bddl.Error:
				errs++
			case bddl.Warning:
				warns++
			}
			kept = append(kept, &d)
			if opts.format == "json" {
				if err := enc.Encode(f); err != nil {
					return nil, true, err
				}
			}
		}
		if opts.format == "text" {
			kept.WriteText(opts.err)
		}
	}
	if files > 0 && opts.format == "text" && !opts.quiet {
		fmt.Fprintf(opts.out, "validated %d LIBERO %s: %d %s, %d %s\n", files, plural(files, "problem", "problems"),
			errs, plural(errs, "error", "errors"), warns, plural(warns, "warning", "warnings"))
	}
	return rest, errs > 0, nil
}

// explainLibero prints a LIBERO problem in plain English.
func explainLibero(opts *explainOptions, p *bddl.Problem) error {
	if opts.format == "json" {
		return jsonLines(opts.out).Encode(libero.ExplainJSON(p))
	}
	fmt.Fprint(opts.out, libero.Explain(p))
	return nil
}

// sampleLibero samples LIBERO definitions when every argument is one; it
// reports whether it handled the command.
func sampleLibero(cmd *cobra.Command, opts *sampleOptions, args []string) (bool, error) {
	if len(args) == 0 || opts.after != "" {
		return false, nil
	}
	type def struct {
		path, rel string
		src       []byte
	}
	var defs []def
	for _, a := range args {
		if _, err := os.Stat(a); err != nil {
			return false, nil // an example's name
		}
	}
	ins, err := opts.expandDefinitions(args)
	if err != nil || len(ins) == 0 {
		return false, nil
	}
	for _, in := range ins {
		src, err := readDefinition(in, opts.in)
		if err != nil || !opts.isLibero(src) {
			return false, nil
		}
		defs = append(defs, def{in.Path, in.Rel, bytes.Clone(src)})
	}
	// The flags a LIBERO sample cannot honour are refused, not ignored:
	// its sampler places bodies in the regions the definition gives, on
	// LIBERO's own table, and records poses without extents to draw.
	for _, name := range []string{"svg", "scene", "scene-file", "goal", "sampling-lists", "no-shrink", "shard"} {
		if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
			return true, misuse("--%s: not supported for LIBERO definitions (they are sampled in the regions they name, on LIBERO's table, as body poses without extents)", name)
		}
	}
	if opts.out == "" {
		return true, misuse("sample needs -o OUT, the directory to write configurations to")
	}
	if err := os.MkdirAll(opts.out, 0o755); err != nil {
		return true, misuse("-o %s: %v", opts.out, err)
	}
	failed := false
	done, sampled := 0, 0
	enc := jsonLines(opts.globalOptions.out)
	for _, d := range defs {
		p, diags := bddl.Options{Mode: bddl.Reference, Dialect: bddl.DialectLibero}.ParseProblem(d.path, d.src)
		diags.WriteText(opts.err)
		if diags.HasErrors() {
			failed = true
			continue
		}
		task := libero.Resolve(p)
		abs, _ := filepath.Abs(d.path)
		name := strings.TrimSuffix(filepath.Base(d.path), filepath.Ext(d.path))
		// A definition found under a directory keeps its place under -o,
		// so tasks of one name in two suites do not collide.
		sub := ""
		if d.rel != "" && !filepath.IsAbs(d.rel) && !strings.HasPrefix(d.rel, "..") {
			sub = filepath.Dir(d.rel)
		}
		for k := range opts.count {
			seed := opts.seed + uint64(k)
			start := time.Now()
			step, err := libero.Sample(task, seed)
			// The record of sample --format json (bddl schema sample); the
			// scene is the problem class.
			rec := liberoSampleRecord{Activity: name, Scene: p.Name.Name, Seed: seed, Index: k, Status: "ok"}
			if err != nil {
				failed = true
				rec.Status, rec.Scene = "failed", ""
				rec.Reason = &liberoFailure{Kind: "internal", Message: err.Error()}
				if u, ok := err.(*libero.Unplaceable); ok {
					rec.Reason.Kind, rec.Reason.Literal = "no-space", u.Literal
					rec.Reason.Objects = append([]string{u.Object}, u.Blockers...)
				}
				if opts.format == "text" {
					// sample's lines for BEHAVIOR-1K configurations.
					fmt.Fprintf(opts.globalOptions.out, "FAIL  %s  #%d  %v\n", name, k, err)
				}
			} else {
				out := filepath.Join(opts.out, sub, fmt.Sprintf("%s-%d.jsonl", name, seed))
				if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
					return true, err
				}
				s := int64(seed)
				h := libero.Header{Format: libero.EpisodeFormat, Version: 1, Definition: abs, Problem: p.Name.Name,
					Language: p.Libero.Language, Seed: &s, Source: "bddl sample"}
				var buf bytes.Buffer
				if err := libero.WriteEpisode(&buf, h, []libero.Step{step}); err != nil {
					return true, err
				}
				if err := fsutil.WriteFileAtomic(out, buf.Bytes()); err != nil {
					return true, err
				}
				rec.File = out
			}
			rec.Ms = float64(time.Since(start).Microseconds()) / 1000
			done++
			if rec.Status == "ok" {
				sampled++
				if opts.format == "text" {
					fmt.Fprintf(opts.globalOptions.out, "ok    %s  %s  %.1f ms\n", name, rec.File, rec.Ms)
				}
			}
			if opts.format == "json" {
				if err := enc.Encode(rec); err != nil {
					return true, err
				}
			}
		}
	}
	if opts.format == "text" {
		fmt.Fprintf(opts.globalOptions.out, "%d of %d configurations sampled\n", sampled, done)
	}
	if failed {
		return true, findings()
	}
	return true, nil
}

// liberoSampleRecord is sample's JSON record for a LIBERO task.
type liberoSampleRecord struct {
	Activity string         `json:"activity"`
	Scene    string         `json:"scene"`
	Seed     uint64         `json:"seed"`
	Index    int            `json:"index"`
	File     string         `json:"file,omitempty"`
	Status   string         `json:"status"`
	Reason   *liberoFailure `json:"reason,omitempty"`
	Ms       float64        `json:"ms"`
}

type liberoFailure struct {
	Kind    string   `json:"kind"`
	Literal string   `json:"literal,omitempty"`
	Objects []string `json:"objects,omitempty"`
	Message string   `json:"message"`
}

// isLiberoEpisode reports whether the file's first line is a LIBERO
// header (gzip-compressed when it ends in .gz).
func isLiberoEpisode(path string) bool {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return false
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return false
		}
		defer zr.Close()
		in = zr
	}
	line, _ := bufio.NewReader(io.LimitReader(in, 4096)).ReadString('\n')
	return strings.Contains(line, `"`+libero.EpisodeFormat+`"`)
}

func init() {
	checkExtensions = append(checkExtensions, func(cmd *cobra.Command, o *checkOptions) {
		// --init: engineer 19 adds it for BEHAVIOR-1K instances too; add
		// it here only when check does not define it yet.
		if cmd.Flags().Lookup("init") == nil {
			cmd.Flags().Bool("init", false, "check only whether :init holds at the first step")
		}
	})
}

// checkLibero checks LIBERO episodes when every episode argument is one;
// it reports whether it handled the command.
func checkLibero(cmd *cobra.Command, opts *checkOptions) (bool, error) {
	if len(opts.episodes) == 0 {
		return false, nil
	}
	// Directories and globs expand as check expands them; stdin ("-")
	// stays with the BEHAVIOR-1K path.
	ins, err := batch.Expand(opts.episodes, batch.ExpandOptions{What: "episodes", Match: batch.IsEpisodeFile,
		Describe: batch.EpisodeSuffixes()})
	if err != nil || len(ins) == 0 {
		return false, nil
	}
	var paths []string
	other := ""
	for _, in := range ins {
		if !isLiberoEpisode(in.Path) {
			other = in.Path
			continue
		}
		paths = append(paths, in.Path)
	}
	switch {
	case len(paths) == 0:
		return false, nil
	case other != "":
		// The BEHAVIOR-1K path would stop at the LIBERO header with
		// "not a bddl episode header".
		return true, misuse("LIBERO episodes (%s) and BEHAVIOR-1K ones (%s) cannot be checked in one run: check them separately", paths[0], other)
	}
	if err := checkFormat(opts.format); err != nil {
		return true, err
	}
	initOnly, _ := cmd.Flags().GetBool("init")
	if initOnly {
		// check --init's records, table, -o and --shard, as for
		// BEHAVIOR-1K states.
		for _, name := range initIgnores {
			if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
				return true, misuse("--%s does not apply to --init, which evaluates :init on the first step only", name)
			}
		}
		var jobs []*initJob
		for _, in := range ins {
			path := in.Path
			jobs = append(jobs, &initJob{path: path, rel: in.Rel, own: func() initResult { return liberoInitResult(opts, path) }})
		}
		return true, runInitJobs(opts, jobs)
	}
	switch {
	case opts.hold < 1:
		return true, misuse("--hold must be at least 1, not %d", opts.hold)
	case opts.perStep, opts.plot != "", opts.lenient:
		// As typed: -o/--output and --shard are supported.
		for _, name := range []string{"per-step", "plot", "lenient"} {
			if f := cmd.Flags().Lookup(name); f != nil && f.Changed {
				return true, misuse("--%s is not supported for LIBERO episodes", name)
			}
		}
		return true, misuse("--per-step, --plot and --lenient are not supported for LIBERO episodes")
	}
	shard, err := batch.ParseShard(opts.shardSpec)
	if err != nil {
		return true, misuse("%v", err)
	}
	// --shard keeps the episodes whose path relative to its argument
	// hashes to it, as for BEHAVIOR-1K episodes.
	var kept []batch.Input
	for _, in := range ins {
		if isLiberoEpisode(in.Path) && shard.Keep(in.Rel) {
			kept = append(kept, in)
		}
	}
	// -o: a results file, resumed as check resumes one: episodes with a
	// verdict in it are not checked again, those that errored are.
	var results *batch.ResultsFile
	var previous []batch.Record
	todo := kept
	if opts.out != "" {
		results, err = batch.OpenResults(opts.out, noter(opts.err))
		if err != nil {
			return true, misuse("-o %v", err)
		}
		defer results.Close()
		keys := make([]string, len(kept))
		for i, in := range kept {
			keys[i] = batch.PathKey(in.Path)
		}
		plan := batch.PlanResume(results.Records(), keys)
		previous = plan.Done
		todo = nil
		for _, i := range plan.Todo {
			todo = append(todo, kept[i])
		}
		if len(previous) > 0 {
			fmt.Fprintf(opts.err, "bddl: note: %s: %d of %d episodes already checked; checking %d\n", opts.out, len(previous), len(kept), len(todo))
		}
	}
	failed := false
	w := opts.globalOptions.out
	enc := jsonLines(w)
	// Several episodes: one line each and a table per task, as check
	// prints BEHAVIOR-1K batches; --details prints every full report.
	brief := len(kept) > 1 && !opts.details
	all := append([]batch.Record(nil), previous...)
	for _, in := range todo {
		path := in.Path
		r, err := checkLiberoEpisode(opts, path)
		if err != nil {
			fmt.Fprintln(opts.err, "bddl:", err)
			failed = true
			continue
		}
		ok := r.Success
		failed = failed || !ok
		all = append(all, batch.Record{Episode: r.Episode, Activity: r.Activity, Success: r.Success, Score: r.Score, ChallengeScore: r.ChallengeScore})
		if results != nil {
			line := liberoResultLine{Report: r, Shard: shardName(shard), ShardInputs: len(kept), Key: batch.PathKey(path), Rel: in.Rel}
			if err := results.Append(line); err != nil {
				return true, fmt.Errorf("-o %s: %w", opts.out, err)
			}
		}
		switch {
		case opts.format == "json":
			if err := enc.Encode(r); err != nil {
				return true, err
			}
		case brief:
			writeLiberoLine(w, r, ok)
		default:
			writeLiberoReport(w, r)
		}
	}
	for _, r := range previous {
		failed = failed || !r.Success
	}
	if brief && opts.format == "text" {
		// The table of BEHAVIOR-1K batches, so one script reads both.
		if err := batch.WriteSummary(w, all, len(previous)); err != nil {
			return true, err
		}
	}
	if failed {
		return true, findings()
	}
	return true, nil
}

// liberoResultLine is a LIBERO result as a results file (-o) holds it:
// the record with what resuming and merging need (bddl schema result).
type liberoResultLine struct {
	libero.Report
	Shard       string `json:"shard"`
	ShardInputs int    `json:"shard_inputs"`
	Key         string `json:"key"`
	Rel         string `json:"rel,omitempty"`
}

// shardName is a results file's name of a shard: "0/1" unsharded.
func shardName(s batch.Shard) string {
	if s.All() {
		return "0/1"
	}
	return s.String()
}

// writeLiberoLine is one episode's line in a batch, marked as check
// marks BEHAVIOR-1K episodes.
func writeLiberoLine(w io.Writer, r libero.Report, ok bool) {
	verdict := liberoVerdict(r)
	reason, lits := r.Reason, r.Unsatisfied
	if !ok && len(lits) > 0 {
		reason += fmt.Sprintf(": %s (line %d: %s)", lits[0].Literal, lits[0].Line, lits[0].Detail)
	}
	fmt.Fprintf(w, "%-7s %s: %s\n", verdict, r.Episode, reason)
}

func checkLiberoEpisode(opts *checkOptions, path string) (libero.Report, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return libero.Report{}, err
	}
	defer f.Close()
	var in io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			return libero.Report{}, fmt.Errorf("%s: %v", path, err)
		}
		defer zr.Close()
		in = zr
	}
	er, err := libero.NewEpisodeReader(in, path)
	if err != nil {
		return libero.Report{}, err
	}
	def := opts.activity
	if def == "" {
		def = er.Header.Definition
		if !filepath.IsAbs(def) {
			def = filepath.Join(filepath.Dir(path), def)
		}
	}
	src, err := fsutil.ReadArg(def, opts.in, fsutil.DefinitionLimit)
	if err != nil {
		return libero.Report{}, fmt.Errorf("%s: definition: %v", path, err)
	}
	p, diags := bddl.Options{Mode: bddl.Reference, Dialect: bddl.DialectLibero}.ParseProblem(def, src)
	diags.WriteText(opts.err)
	if diags.HasErrors() {
		return libero.Report{}, fmt.Errorf("%s: the definition %s has errors", path, def)
	}
	task := libero.Resolve(p)
	c := libero.NewCheckerOptions(task, libero.CheckOptions{Hold: opts.hold, AtEnd: opts.atEnd})
	var step libero.Step
	for {
		if err := er.Next(&step); err == io.EOF {
			break
		} else if err != nil {
			return libero.Report{}, err
		}
		c.Step(&step)
	}
	r := c.Report()
	r.InitLiterals = len(task.InitAtoms())
	// The activity is named as every record names one: the task (the
	// definition's file name without .bddl), not its path.
	r.Episode, r.Activity, r.Definition = path, liberoTaskName(def), def
	return r, nil
}

func writeLiberoReport(w io.Writer, r libero.Report) {
	lits := func(title string, ls []libero.Literal) {
		if len(ls) == 0 {
			return
		}
		fmt.Fprintf(w, "  %s (%d)\n", title, len(ls))
		for _, x := range ls {
			fmt.Fprintf(w, "    %s  (%s:%d:%d)\n        %s: %s\n", x.Literal, r.Definition, x.Line, x.Col, x.Value, x.Detail)
		}
	}
	verdict := liberoVerdict(r)
	first := "never"
	if r.FirstSuccessStep != nil {
		first = fmt.Sprintf("step %d", *r.FirstSuccessStep)
	}
	fmt.Fprintf(w, "%s  %s\n  activity     %s\n  reason       %s\n  steps        %d, last step %d\n", verdict, r.Episode, r.Activity, r.Reason, r.Steps, r.EpisodeStep)
	fmt.Fprintf(w, "  goal         first holds: %s; at the end: %s\n  init         %s at the first step\n  score        %.3f (challenge %.3f)\n", first, r.GoalAtEnd, r.Init, r.Score, r.ChallengeScore)
	lits(":init literals not true at the first step", r.InitFailures)
	lits("goal literals false at the end", r.Unsatisfied)
	lits("goal literals undetermined at the end", r.Undetermined)
}

// liberoTaskName is a LIBERO task's name: its definition's file name
// without .bddl (KITCHEN_SCENE3_turn_on_the_stove).
func liberoTaskName(def string) string {
	return strings.TrimSuffix(filepath.Base(def), filepath.Ext(def))
}

// liberoInitResult is check --init's record of a LIBERO episode.
func liberoInitResult(opts *checkOptions, path string) initResult {
	res := initResult{Record: "init", Episode: path}
	r, err := checkLiberoEpisode(opts, path)
	if err != nil {
		res.Init, res.Error = "unknown", err.Error()
		return res
	}
	res.Activity, res.Init, res.Literals = r.Activity, r.Init.String(), r.InitLiterals
	for _, l := range r.InitFailures {
		res.Failing = append(res.Failing, initFailure{Literal: l.Literal, Value: l.Value.String(), Detail: l.Detail})
		if l.Value == libero.False {
			res.False++
		} else {
			res.Unknown++
		}
	}
	res.NotTrue = len(res.Failing)
	return res
}

// liberoVerdict is a LIBERO result's word, as BEHAVIOR-1K reports say it
// (episode.Result.Verdict): SUCCESS, FAIL or UNDETERMINED.
func liberoVerdict(r libero.Report) string {
	switch {
	case r.Success:
		return "SUCCESS"
	case r.GoalAtEnd == libero.Unknown && len(r.Unsatisfied) == 0:
		return "UNDETERMINED"
	}
	return "FAIL"
}
