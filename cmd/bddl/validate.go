package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

func init() { subcommands = append(subcommands, newValidateCmd) }

type validateOptions struct {
	*globalOptions
	format     string
	scenes     bool // print the scene feasibility table
	kbRules    bool // check the knowledge base's transition rules too
	noProgress bool
	domainPath string // --domain: a domain file instead of the embedded ones
	paths      []string

	rules []activities.Option // derived from the flags
}

func newValidateCmd(g *globalOptions) *cobra.Command {
	opts := &validateOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "validate [--format text|json] [--scenes] [--kb-rules] [PATH...]",
		Short: "Report every problem of activity definitions, with position, reason and fix",
		Long: `Validate activity definitions against the knowledge base: the language
checker (unknown predicates and synsets, instance names, variables) and every
activity rule (placement, :init sampling, future objects, synset-predicate
alignment, liquids, wildcards, names) and goal reachability through the
transition rules; with --scenes also scene feasibility. Every finding is
reported, each with file:line:col, a stable code, the reason and a fix.

PATH is a file, an activity directory in the BEHAVIOR-1K layout
(<activity>/problem<N>.bddl) or a tree of them; directories are walked for
*.bddl files (domain files are only parsed). With no PATH, the embedded
example activities are validated.

Findings are printed on stderr, grouped by file, with the source line; a
summary per rule is printed on stdout. --format json prints one JSON record
per finding on stdout instead (file, line, col, end_line, end_col, offset,
severity, code, rule, message, fix). --scenes runs the scene-feasibility
rule (no-scene: an error when no scene can host the activity) and adds, per
definition, which scenes of the knowledge base can host it and in which
rooms, or what each scene lacks. --kb-rules also checks the knowledge base's transition rules
(names, synsets, predicates, clashes). The exit status is 1 when any error
was found.`,
		Example: `  bddl validate                                        # the embedded examples
  bddl validate --kb ../shared/behavior1k/knowledge_base ../shared/behavior1k/activity_definitions
  bddl validate --scenes baking_cookies/problem0.bddl
  bddl validate --format json defs/ | jq 'select(.severity == "error")'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			return runValidate(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	cmd.Flags().BoolVar(&opts.scenes, "scenes", false, "check scene feasibility and print which scenes can host each activity")
	cmd.Flags().BoolVar(&opts.kbRules, "kb-rules", false, "also check the knowledge base's transition rules")
	cmd.Flags().BoolVar(&opts.noProgress, "no-progress", false, "do not show a progress bar on a terminal")
	cmd.Flags().StringVar(&opts.domainPath, "domain", "", "check predicates against this domain file instead of the embedded domain the problem names")
	return cmd
}

// validated is the outcome for one input file.
type validated struct {
	path    string
	problem bool // the file holds a problem (not a domain)
	report  activities.Report
	err     error // reading the file failed
}

// validateMemoryLimit is the soft heap limit of a validate run (unless
// GOMEMLIMIT is set): main's GOGC=400 lets the heap grow to five times
// what is live while a thousand definitions are parsed; near this limit
// the collector runs sooner instead, which keeps a corpus run under 60 MB
// of resident memory at little cost in time.
const validateMemoryLimit = 32 << 20

func runValidate(opts *validateOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(validateMemoryLimit))
	}
	base, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	if opts.domainPath != "" {
		d, err := loadDomain(opts.domainPath, opts.err)
		if err != nil {
			return err
		}
		opts.rules = append(opts.rules, activities.WithDomain(d))
	}
	if !opts.scenes {
		// Scene feasibility reads the scene data; it runs when asked for.
		opts.rules = append(opts.rules, activities.SkipRules("no-scene"))
	}
	var results []validated
	if len(opts.paths) == 0 {
		results = validateLibrary(opts, activities.Examples(), base)
	} else {
		files, err := collectFiles(opts.paths)
		if err != nil {
			return err
		}
		results = validateFiles(opts, files, base)
	}
	var kbFindings []kb.Finding
	if opts.kbRules {
		kbFindings = activities.CheckKB(base)
	}
	var failed bool
	if opts.format == "json" {
		failed, err = writeValidateJSON(opts, results, kbFindings)
	} else {
		failed, err = writeValidateText(opts, results, kbFindings)
	}
	if err != nil {
		return err
	}
	if failed {
		return findings()
	}
	return nil
}

// validateFiles reads and validates files on all cores, with a progress
// bar on a terminal; results are in the order of files.
func validateFiles(opts *validateOptions, files []string, base *kb.Base) []validated {
	out := make([]validated, len(files))
	each(opts, len(files), func(i int) {
		src, err := os.ReadFile(files[i])
		if err != nil {
			out[i] = validated{path: files[i], err: err}
			return
		}
		p, rep := activities.ValidateSource(files[i], src, base, opts.rules...)
		out[i] = validated{path: files[i], problem: p != nil, report: rep}
	})
	return out
}

func validateLibrary(opts *validateOptions, lib *activities.Library, base *kb.Base) []validated {
	out := make([]validated, len(lib.Activities))
	each(opts, len(out), func(i int) {
		a := lib.Activities[i]
		out[i] = validated{path: a.Path, problem: a.Problem != nil, report: a.Validate(base, opts.rules...)}
	})
	return out
}

// each runs fn(0..n-1) on a pool of one worker per core.
func each(opts *validateOptions, n int, fn func(i int)) {
	bar := progress(opts, n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), max(n, 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
				if bar != nil {
					_ = bar.Add(1)
				}
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if bar != nil {
		_ = bar.Finish()
	}
}

// progress returns a progress bar on stderr when it is a terminal and the
// run is long enough to need one, else nil.
func progress(opts *validateOptions, n int) *progressbar.ProgressBar {
	f, ok := opts.err.(*os.File)
	if opts.noProgress || n < 50 || !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return progressbar.NewOptions(n,
		progressbar.OptionSetWriter(f),
		progressbar.OptionSetDescription("validating"),
		progressbar.OptionShowCount(),
		progressbar.OptionClearOnFinish(),
		progressbar.OptionThrottle(100_000_000), // 100 ms
	)
}

// ruleStat tallies one code for the summary.
type ruleStat struct {
	code     string
	rule     string
	severity string
	findings int
	files    map[string]bool
}

type tally struct {
	stats    map[string]*ruleStat
	errors   int
	warnings int
	others   int
	problems int
	failed   map[string]bool // files with errors
}

func newTally() *tally { return &tally{stats: map[string]*ruleStat{}, failed: map[string]bool{}} }

func (t *tally) add(file, code, rule, severity string) {
	s := t.stats[code+"\x00"+severity]
	if s == nil {
		s = &ruleStat{code: code, rule: rule, severity: severity, files: map[string]bool{}}
		t.stats[code+"\x00"+severity] = s
	}
	s.findings++
	s.files[file] = true
	switch severity {
	case "error":
		t.errors++
		t.failed[file] = true
	case "warning":
		t.warnings++
	default:
		t.others++
	}
}

func (t *tally) addResults(results []validated, kbFindings []kb.Finding) {
	for _, r := range results {
		if r.problem {
			t.problems++
		}
		if r.err != nil {
			t.errors++
			t.failed[r.path] = true
			continue
		}
		for _, f := range r.report.Findings {
			t.add(r.path, f.Code, f.Rule, f.Severity.String())
		}
	}
	for _, f := range kbFindings {
		t.add(f.Location.File, f.Code, "kb", f.Severity.String())
	}
}

func writeValidateText(opts *validateOptions, results []validated, kbFindings []kb.Finding) (bool, error) {
	t := newTally()
	t.addResults(results, kbFindings)
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintln(opts.err, r.err)
			continue
		}
		if err := activities.Diagnostics(r.report.Findings).WriteText(opts.err); err != nil {
			return false, err
		}
	}
	for _, f := range kbFindings {
		fmt.Fprintln(opts.err, f)
	}
	if opts.scenes {
		for _, r := range results {
			writeScenes(opts.out, r)
		}
	}
	writeSummary(opts.out, t)
	return t.errors > 0, nil
}

// writeScenes prints the feasibility table of one definition.
func writeScenes(w io.Writer, r validated) {
	if !r.problem || r.err != nil {
		return
	}
	f := r.report.Scenes
	if f == nil {
		fmt.Fprintf(w, "%s: scene feasibility not computed (no scenes in the knowledge base, or errors in the definition)\n\n", r.path)
		return
	}
	if len(f.Needs) == 0 {
		fmt.Fprintf(w, "%s: no inroom objects; any of the %d scenes\n\n", r.path, len(f.Scenes))
		return
	}
	var needs []string
	for _, n := range f.Needs {
		needs = append(needs, fmt.Sprintf("%s (%s)", n.Type, strings.Join(n.Instances, " ")))
	}
	fmt.Fprintf(w, "%s: %d of %d scenes can host it; it needs %s\n", r.path, len(f.Compatible()), len(f.Scenes), strings.Join(needs, ", "))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, s := range f.Scenes {
		mark, rest := "--", s.Summary()
		if s.OK {
			mark = "ok"
		}
		rest = strings.TrimPrefix(rest, s.Scene+": ")
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", mark, s.Scene, rest)
	}
	tw.Flush()
	fmt.Fprintln(w)
}

func writeSummary(w io.Writer, t *tally) {
	stats := make([]*ruleStat, 0, len(t.stats))
	for _, s := range t.stats {
		stats = append(stats, s)
	}
	sevRank := map[string]int{"error": 0, "warning": 1}
	sort.Slice(stats, func(i, j int) bool {
		a, b := stats[i], stats[j]
		ra, okA := sevRank[a.severity]
		rb, okB := sevRank[b.severity]
		if !okA {
			ra = 2
		}
		if !okB {
			rb = 2
		}
		if ra != rb {
			return ra < rb
		}
		return a.code < b.code
	})
	if len(stats) > 0 {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "CODE\tRULE\tSEVERITY\tFINDINGS\tFILES")
		for _, s := range stats {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\n", s.code, s.rule, s.severity, s.findings, len(s.files))
		}
		tw.Flush()
	}
	what := fmt.Sprintf("%d %s", t.problems, plural(t.problems, "problem", "problems"))
	if t.errors+t.warnings+t.others == 0 {
		fmt.Fprintf(w, "validated %s: no findings\n", what)
		return
	}
	fmt.Fprintf(w, "validated %s: %d %s, %d %s", what,
		t.errors, plural(t.errors, "error", "errors"), t.warnings, plural(t.warnings, "warning", "warnings"))
	if t.others > 0 {
		fmt.Fprintf(w, ", %d %s", t.others, plural(t.others, "note", "notes"))
	}
	if n := len(t.failed); n > 0 {
		fmt.Fprintf(w, "; %d %s with errors", n, plural(n, "file", "files"))
	}
	fmt.Fprintln(w)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// kbRecord is the JSON record of a knowledge-base finding.
type kbRecord struct {
	File     string      `json:"file"`
	Line     int         `json:"line,omitempty"`
	Key      string      `json:"key,omitempty"`
	Severity kb.Severity `json:"severity"`
	Code     string      `json:"code"`
	Rule     string      `json:"rule"`
	Message  string      `json:"message"`
}

// scenesRecord is the JSON record of one definition's scene feasibility.
type scenesRecord struct {
	File   string                  `json:"file"`
	Scenes *activities.Feasibility `json:"scenes"`
}

// errorRecord is the JSON record of a file that could not be read.
type errorRecord struct {
	File     string        `json:"file"`
	Severity bddl.Severity `json:"severity"`
	Code     string        `json:"code"`
	Message  string        `json:"message"`
}

func writeValidateJSON(opts *validateOptions, results []validated, kbFindings []kb.Finding) (bool, error) {
	t := newTally()
	t.addResults(results, kbFindings)
	enc := json.NewEncoder(opts.out)
	for _, r := range results {
		if r.err != nil {
			if err := enc.Encode(errorRecord{File: r.path, Severity: bddl.Error, Code: "read-error", Message: r.err.Error()}); err != nil {
				return false, err
			}
			continue
		}
		for _, f := range r.report.Findings {
			if err := enc.Encode(f); err != nil {
				return false, err
			}
		}
		if opts.scenes && r.problem && r.report.Scenes != nil {
			if err := enc.Encode(scenesRecord{File: r.path, Scenes: r.report.Scenes}); err != nil {
				return false, err
			}
		}
	}
	for _, f := range kbFindings {
		rec := kbRecord{File: f.Location.File, Line: f.Location.Line, Key: f.Location.Key, Severity: f.Severity,
			Code: f.Code, Rule: "kb", Message: f.Message}
		if err := enc.Encode(rec); err != nil {
			return false, err
		}
	}
	return t.errors > 0, nil
}

// loadDomain reads a domain file for --domain; a file that does not parse
// as a domain is a usage error, reported with its diagnostics.
func loadDomain(path string, errw io.Writer) (*bddl.Domain, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, misuse("--domain: %v", err)
	}
	d, diags := bddl.ParseDomain(path, src)
	if diags.HasErrors() || d == nil {
		diags.WriteText(errw)
		return nil, misuse("--domain %s is not a valid domain file", path)
	}
	return d, nil
}
