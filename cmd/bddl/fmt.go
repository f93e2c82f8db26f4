package main

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/format"
)

func init() { subcommands = append(subcommands, newFmtCmd) }

type fmtOptions struct {
	*globalOptions
	write, diff, list, check bool
	paths                    []string
}

func newFmtCmd(g *globalOptions) *cobra.Command {
	opts := &fmtOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "fmt [-w|-d|-l|--check] PATH...",
		Short: "Rewrite BDDL files in the canonical layout",
		Long: `Print BDDL files in the canonical layout: 4-space indentation, one object
line and one :init literal per line, goal connectives spread over lines.
Comments are kept. Files with syntax errors are left alone and their errors
reported. Directories are walked for *.bddl files; "-" reads standard input.

  -w       rewrite files in place: atomically (a temporary file renamed over
           the original) keeping owner, group and mode, or in place when a
           rename could not keep them (hard links); a file without write
           permission is refused, as gofmt -w refuses it
  -d       print a unified diff; exit 1 when a file would change
  -l       list the files whose layout would change (with -w: that changed)
  --check  list the files that would change and exit 1 if any would, for CI

The exit status is 0 when nothing is wrong, 1 when a file has syntax errors
(or would change, with -d and --check), 2 on misuse.`,
		Example: `  bddl fmt problem0.bddl            # print the formatted file
  bddl fmt -d activities/           # show what would change
  bddl fmt --check activities/      # in CI: fail if a file is not formatted
  bddl fmt -l -w activities/        # rewrite in place, listing what changed`,
		Args: minArgs(1, "definition files or directories (- for standard input)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.paths = args
			return runFmt(opts)
		},
	}
	cmd.Flags().BoolVarP(&opts.write, "write", "w", false, "rewrite files in place")
	cmd.Flags().BoolVarP(&opts.diff, "diff", "d", false, "print a unified diff instead of the formatted text; exit 1 if any")
	cmd.Flags().BoolVarP(&opts.list, "list", "l", false, "list the files whose formatting differs")
	cmd.Flags().BoolVar(&opts.check, "check", false, "list the files that would change and exit 1 if any would")
	return cmd
}

func runFmt(opts *fmtOptions) error {
	switch {
	case opts.write && opts.diff:
		return misuse("-w and -d cannot be combined")
	case opts.check && (opts.write || opts.diff):
		return misuse("--check cannot be combined with -w or -d")
	}
	opts.noteProjectWrites("fmt")
	ins, err := opts.expandDefinitions(opts.paths)
	if err != nil {
		return err
	}
	f := &format.Formatter{ListToo: opts.list, Out: opts.out, Err: opts.err}
	switch {
	case opts.check:
		f.Mode = format.Check
	case opts.diff:
		f.Mode = format.Diff
	case opts.write:
		f.Mode = format.Write
	case opts.list:
		f.Mode = format.List
	}
	if err := f.CheckInputs(ins); err != nil {
		return exitFor(err)
	}
	dialect, err := opts.dialectOption()
	if err != nil {
		return err
	}
	if f.Files(ins, opts.in, bddl.Options{Dialect: dialect}) {
		return findings()
	}
	return nil
}
