package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/bddl"
)

func init() { subcommands = append(subcommands, newParseCmd) }

type parseOptions struct {
	*globalOptions
	format string
	paths  []string
}

func newParseCmd(g *globalOptions) *cobra.Command {
	opts := &parseOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "parse [--format text|json] PATH...",
		Short: "Parse BDDL files and report syntax errors",
		Long: `Parse problem and domain files. Directories are walked for *.bddl files
(symbolic links followed; FIFOs and devices skipped with a note); globs may
use ** to cross directories; "-" reads standard input. Finding no file is
an error (exit 2).
Syntax errors are printed on stderr with their file:line:col, the source line
and a fix; every independent error of a file is reported, up to a cap.
With --format json, each file's AST (with source ranges) and diagnostics are
printed on stdout, one JSON object per line.`,
		Example: `  bddl parse problem0.bddl
  bddl parse ../shared/behavior1k/activity_definitions
  bddl parse --format json problem0.bddl | jq .problem.goal`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			return runParse(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

// parseRecord is the JSON output for one file.
type parseRecord struct {
	File        string           `json:"file"`
	Problem     *bddl.Problem    `json:"problem,omitempty"`
	Domain      *bddl.Domain     `json:"domain,omitempty"`
	Diagnostics bddl.Diagnostics `json:"diagnostics"`
}

func runParse(opts *parseOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	ins, err := opts.expandDefinitions(opts.paths)
	if err != nil {
		return err
	}
	results := parseInputs(ins, opts.in)
	failed := 0
	enc := jsonLines(opts.out)
	for _, r := range results {
		if r.err != nil {
			fmt.Fprintln(opts.err, r.err)
			failed++
			continue
		}
		if r.diags.HasErrors() {
			failed++
		}
		r.diags.WriteText(opts.err)
		if opts.format == "json" {
			rec := parseRecord{File: r.path, Problem: r.file.Problem, Domain: r.file.Domain, Diagnostics: r.diags}
			if rec.Diagnostics == nil {
				rec.Diagnostics = bddl.Diagnostics{}
			}
			if err := enc.Encode(rec); err != nil {
				return err
			}
		}
	}
	if opts.format == "text" {
		fmt.Fprintf(opts.out, "%d %s parsed, %d with errors\n", len(results), plural(len(results), "file", "files"), failed)
	}
	if failed > 0 {
		return findings()
	}
	return nil
}

// checkFormat validates a --format flag value.
func checkFormat(format string) error {
	if format != "text" && format != "json" {
		return misuse("--format must be text or json, not %q", format)
	}
	return nil
}
