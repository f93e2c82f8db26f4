package main

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/parserun"
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
  bddl parse BEHAVIOR-1K/bddl3/bddl/activity_definitions
  bddl parse --format json problem0.bddl | jq .problem.goal`,
		Args: minArgs(1, "definition files or directories (- for standard input)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			return runParse(opts)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	return cmd
}

func runParse(opts *parseOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	dialect, err := opts.dialectOption()
	if err != nil {
		return err
	}
	failed, err := parserun.Run(parserun.Options{
		Expand: func(yield func(batch.Input)) error { return opts.expandDefinitionsEach(opts.paths, yield) },
		Stdin:  opts.in, Dialect: dialect, JSON: opts.format == "json", Out: opts.out, Err: opts.err,
	})
	if err != nil {
		return err
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
