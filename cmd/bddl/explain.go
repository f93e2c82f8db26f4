package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/batch"
)

func init() { subcommands = append(subcommands, newExplainCmd) }

type explainOptions struct {
	*globalOptions
	readFlags
	format string
	path   string
}

func newExplainCmd(g *globalOptions) *cobra.Command {
	opts := &explainOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "explain [--format text|json] FILE",
		Short: "Describe a problem's :init and :goal in plain words",
		Long: `Render a problem's initial literals and its goal as English sentences,
one :init literal and one top-level goal conjunct per line. FILE may be "-"
for standard input.`,
		Example: `  bddl explain baking_sugar_cookies/problem0.bddl
  bddl explain --format json problem0.bddl`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.path = args[0]
			return runExplain(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	opts.readFlags.add(cmd.Flags())
	return cmd
}

type explanation struct {
	Problem string   `json:"problem"`
	Domain  string   `json:"domain"`
	Init    []string `json:"init"`
	Goal    []string `json:"goal"`
}

func runExplain(opts *explainOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	parse, err := opts.readFlags.options()
	if err != nil {
		return err
	}
	r := parseOneWith(batch.Input{Path: opts.path, Arg: opts.path}, opts.in, parse)
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
	if opts.format == "text" {
		fmt.Fprint(opts.out, bddl.ExplainProblem(p))
		return nil
	}
	e := explain(p)
	return jsonLines(opts.out).Encode(e)
}
