package main

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

func init() { subcommands = append(subcommands, newResultsCmd) }

func newResultsCmd(g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:     "results",
		Short:   "Work with results files of bddl check",
		Long:    `Commands on the JSON Lines results files that 'bddl check -o' writes.`,
		Example: `  bddl results merge results-*.jsonl -o results.jsonl`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			return misuse("results: give a subcommand (merge)")
		},
	}
	cmd.AddCommand(newResultsMergeCmd(g))
	return asGroup(cmd)
}

type resultsMergeOptions struct {
	*globalOptions
	output string
	format string
	files  []string
}

func newResultsMergeCmd(g *globalOptions) *cobra.Command {
	opts := &resultsMergeOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "merge FILE... [-o ALL]",
		Short: "Merge results files, dropping duplicates, and print the summary",
		Long: `Merge the results files of a sharded or repeated 'bddl check -o' run
into one line per episode, and print the summary table (success rate and
mean scores per activity; errors apart).

Episodes are matched by their path relative to their --episode argument
(recorded in each line), else by their "episode" field as written
(cleaned). Of several lines for one episode, a verdict wins over an
error, and a later line over an earlier one. Lines that are not results,
cut short or holding a field out of its range (a score outside [0, 1])
are reported and left out. Each line records its shard (I/N) and the
number of episodes of that shard: shards missing, shards with episodes
missing and lines left out are reported, and make the exit status 1.
The -o file is locked as 'bddl check -o' locks it: merging onto a
file a check is still writing is refused.

With -o ALL the merged lines are written to ALL (atomically; ALL may be
one of the inputs) and the summary goes to stdout; without it the merged
lines go to stdout and the summary to stderr. --format json prints the
merged lines on stdout instead of the summary. The exit status is 0 when
every episode succeeded, 1 when one failed or had an error or the merge
is incomplete, 2 on misuse.`,
		Example: `  bddl results merge results-*.jsonl -o results.jsonl
  bddl results merge shard0.jsonl shard1.jsonl > all.jsonl`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.files = args
			return runResultsMerge(opts)
		},
	}
	cmd.Flags().StringVarP(&opts.output, "output", "o", "", "write the merged results to this file (default: stdout)")
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text (the summary) or json (the merged lines)")
	return cmd
}

func runResultsMerge(opts *resultsMergeOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	toFile := opts.output != "" && opts.output != "-"
	if toFile {
		unlock, err := batch.LockResults(opts.output)
		if err != nil {
			return misuse("-o %v", err)
		}
		defer unlock()
	}
	m, err := batch.MergeResults(opts.files, noter(opts.err))
	if err != nil {
		return misuse("%v", err)
	}
	if len(m.Records) == 0 {
		return misuse("no results in %d %s", len(opts.files), plural(len(opts.files), "file", "files"))
	}
	if toFile {
		if err := fsutil.WriteFileAtomic(opts.output, m.Lines()); err != nil {
			return misuse("-o %v", err)
		}
	}
	failed, err := m.Report(batch.MergeReport{Files: len(opts.files), Output: toFile, JSON: opts.format == "json",
		Stdout: opts.out, Stderr: opts.err})
	if err == nil && failed {
		return findings()
	}
	return err
}
