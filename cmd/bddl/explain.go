package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/libero"
)

func init() { subcommands = append(subcommands, newExplainCmd) }

type explainOptions struct {
	*globalOptions
	readFlags
	format  string
	path    string
	library string
}

func newExplainCmd(g *globalOptions) *cobra.Command {
	opts := &explainOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "explain [--format text|json] FILE|NAME",
		Short: "Describe a problem's :init and :goal in plain words",
		Long: `Render a problem's initial literals and its goal as English sentences,
one :init literal and one top-level goal conjunct per line. FILE may be "-"
for standard input; NAME is an activity of the --activities library (or of
the BEHAVIOR-1K tree bddl.toml names) or an embedded example.`,
		Example: `  bddl explain baking_sugar_cookies/problem0.bddl
  bddl explain baking_a_tray_of_cookies          # an embedded example
  bddl explain --format json problem0.bddl`,
		Args: exactArgs(1, "a definition file or an activity name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.path = args[0]
			return runExplain(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	cmd.Flags().StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find NAME in")
	opts.readFlags.add(cmd.Flags())
	return cmd
}

// explain is the record of bddl explain --format json (the server's too).
func explain(p *bddl.Problem) bddl.Explanation { return bddl.ExplainRecord(p) }

func runExplain(opts *explainOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	parse, err := opts.readFlags.options()
	if err != nil {
		return err
	}
	if parse.Dialect, err = opts.dialectOption(); err != nil {
		return err
	}
	var r parsed
	if isPathLike(opts.path) {
		r = parseOneWith(batch.Input{Path: opts.path, Arg: opts.path}, opts.in, parse)
	} else {
		n, err := resolveName(opts.path, opts.library)
		switch {
		case err != nil:
			return misuse("%v", err)
		case n.path != "":
			r = parseOneWith(batch.Input{Path: n.path, Arg: n.path}, opts.in, parse)
		default:
			f, diags := parse.ParseFile(n.example.Path, n.example.Source)
			r = parsed{path: n.example.Path, file: f, diags: diags}
		}
	}
	if r.err != nil {
		return misuse("%v", r.err)
	}
	r.diags.WriteText(opts.err)
	if r.diags.HasErrors() {
		return findings()
	}
	p := r.file.Problem
	if p == nil {
		return misuse("%s is a domain file; explain takes a problem file", opts.path)
	}
	switch {
	case p.Libero != nil && opts.format == "json":
		return jsonLines(opts.out).Encode(libero.ExplainJSON(p))
	case p.Libero != nil:
		fmt.Fprint(opts.out, libero.Explain(p))
	case opts.format == "json":
		return jsonLines(opts.out).Encode(explain(p))
	default:
		fmt.Fprint(opts.out, bddl.ExplainProblem(p))
	}
	return nil
}
