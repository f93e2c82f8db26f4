package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/activities/report"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/validaterun"
	"github.com/openbddl/bddl/kb"
)

func init() { subcommands = append(subcommands, newValidateCmd) }

type validateOptions struct {
	*globalOptions
	batchFlags
	format     string
	scenes     bool   // print the scene feasibility table
	kbRules    bool   // check the knowledge base's transition rules too
	domainPath string // --domain: a domain file instead of the embedded ones
	severity   string
	quiet      bool
	library    string // --activities: where names are looked up
	paths      []string

	rules  []activities.Option // derived from the flags
	filter report.Filter       // --severity, --select, --ignore
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

PATH is a file ("-" for standard input), an activity directory in the
BEHAVIOR-1K layout (<activity>/problem<N>.bddl), a tree of them, a glob, or
the name of an activity in --activities or the embedded examples;
directories are walked for *.bddl files (symbolic links followed, special
files skipped with a note; domain files are only parsed). With no PATH, the
embedded example activities are validated. A PATH holding no definition is
an error (exit 2).

Findings are printed on stderr, grouped by file, with the source line; a
summary per rule is printed on stdout. --format json prints one flat JSON
record per finding on stdout instead (file, line, col, end_line, end_col,
offset, severity, code, rule, message, fix). --select and --ignore keep or
drop findings by code (comma-separated; a trailing * matches a prefix),
--severity drops those below a severity, --quiet prints no summary.
--scenes runs the scene-feasibility rule (no-scene: an error when no scene
can host the activity) and adds, per definition, which scenes of the
knowledge base can host it and in which rooms, or what each scene lacks.
--kb-rules also checks the knowledge base's transition rules (names,
synsets, predicates, clashes); its findings are counted apart from the
files'. --shard I/N validates a deterministic 1/N of the files. The exit
status is 1 when any error is reported.`,
		Example: `  bddl validate                                        # the embedded examples
  bddl validate --kb BEHAVIOR-1K/bddl3/bddl BEHAVIOR-1K/bddl3/bddl/activity_definitions
  bddl validate --scenes baking_cookies/problem0.bddl
  bddl validate --select unknown-synset,unknown-predicate --quiet defs/
  bddl validate --format json defs/ | jq 'select(.severity == "error")'`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			return runValidate(opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.format, "format", "text", "output format: text or json")
	f.BoolVar(&opts.scenes, "scenes", false, "check scene feasibility and print which scenes can host each activity")
	f.BoolVar(&opts.kbRules, "kb-rules", false, "also check the knowledge base's transition rules")
	f.StringVar(&opts.domainPath, "domain", "", "check predicates against this domain file instead of the embedded domain the problem names")
	f.StringSliceVar(&opts.filter.Select, "select", nil, "report only these codes (comma-separated; prefix* matches a prefix)")
	f.StringSliceVar(&opts.filter.Ignore, "ignore", nil, "do not report these codes (comma-separated; prefix* matches a prefix)")
	f.StringVar(&opts.severity, "severity", "info", "lowest severity reported: "+bddl.SeverityNames)
	f.BoolVarP(&opts.quiet, "quiet", "q", false, "print the findings only, no summary")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find NAME arguments in")
	opts.batchFlags.add(f, "files")
	return cmd
}

// validateMemoryLimit is the soft heap limit of a validate run (unless
// GOMEMLIMIT is set): main's GOGC=400 lets the heap grow to five times
// what is live while a thousand definitions are parsed; near this limit
// the collector runs sooner instead, which keeps a corpus run under 60 MB
// of resident memory at little cost in time.
const validateMemoryLimit = 32 << 20

func runValidate(opts *validateOptions) error {
	if err := opts.validateFlags(); err != nil {
		return err
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		defer debug.SetMemoryLimit(debug.SetMemoryLimit(validateMemoryLimit))
	}
	in := validaterun.Inputs{Named: &activities.Library{}, Examples: len(opts.paths) == 0}
	paths := opts.paths[:0:0]
	for _, p := range opts.paths {
		if isPathLike(p) {
			paths = append(paths, p)
			continue
		}
		n, err := resolveName(p, opts.library)
		if err != nil {
			return misuse("%v", err)
		}
		if n.path != "" {
			paths = append(paths, n.path)
			opts.hints = append(opts.hints, n.path)
		} else {
			in.Named.Activities = append(in.Named.Activities, n.example)
		}
	}
	var base *kb.Base
	in.KB = func() (*kb.Base, error) {
		if base != nil {
			return base, nil
		}
		b, err := opts.loadKB()
		if err != nil {
			return nil, misuse("%v", err)
		}
		base = b
		return base, nil
	}
	if len(paths) > 0 {
		in.Expand = func() ([]batch.Input, bool, error) {
			ins, err := opts.expandDefinitions(paths)
			if err != nil {
				return nil, true, err
			}
			ins = batch.Select(opts.shard, ins, func(in batch.Input) string { return in.Rel })
			if len(ins) == 0 {
				fmt.Fprintf(opts.err, "bddl: shard %s holds none of the files: nothing to validate\n", opts.shard)
				return nil, true, nil
			}
			return ins, false, nil
		}
	}
	if opts.domainPath != "" {
		d, err := loadDomain(opts.domainPath, opts.in, opts.err)
		if err != nil {
			return err
		}
		opts.rules = append(opts.rules, activities.WithDomain(d))
	}
	if !opts.scenes {
		// Scene feasibility reads the scene data; it runs when asked for.
		opts.rules = append(opts.rules, activities.SkipRules("no-scene"))
	}
	run := opts.run()
	results, liberoFailed, done, err := run.Collect(in)
	if err != nil || done {
		if err == nil && liberoFailed {
			return findings()
		}
		return err
	}
	var kbFindings []kb.Finding
	if opts.kbRules {
		if _, err := in.KB(); err != nil {
			return err
		}
		kbFindings = activities.CheckKB(base)
	}
	pal := paletteFor(opts.out)
	failed, err := run.Write(results, kbFindings, opts.scenes, report.Colours{Error: pal.red, Warning: pal.yellow})
	if err == nil && (failed || liberoFailed) {
		return findings()
	}
	return err
}

func (o *validateOptions) validateFlags() error {
	if err := checkFormat(o.format); err != nil {
		return err
	}
	if err := o.batchFlags.parse(); err != nil {
		return err
	}
	var err error
	if o.filter.Minimum, err = parseSeverity(o.severity); err != nil {
		return err
	}
	if err := o.filter.CheckPatterns(); err != nil {
		return misuse("%v", err)
	}
	return nil
}

// run is the validate run the flags ask for (internal/jobs/validaterun).
func (o *validateOptions) run() validaterun.Options {
	d, _ := bddl.ParseDialect(o.dialect)
	return validaterun.Options{Rules: o.rules, Filter: o.filter, Dialect: d, JSON: o.format == "json", Quiet: o.quiet,
		Pool: func(n int) batch.Pool { return o.pool(o.progress(o.err, n, 50, "validating")) },
		Read: func(in batch.Input) ([]byte, error) { return readDefinition(in, o.in) },
		Out:  o.out, Err: o.err}
}

// loadDomain reads a domain file for --domain; a file that does not parse
// as a domain is a usage error, reported with its diagnostics.
func loadDomain(path string, stdin io.Reader, errw io.Writer) (*bddl.Domain, error) {
	src, err := readDefinition(batch.Input{Path: path, Arg: path}, stdin)
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
