package main

import (
	"fmt"
	"sort"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/jobs/kbresolve"
)

func init() { subcommands = append(subcommands, newConfigCmd) }

type configOptions struct {
	*globalOptions
	format     string
	activities string
}

func newConfigCmd(g *globalOptions) *cobra.Command {
	opts := &configOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "config [--format text|json] [PATH...]",
		Short: "Show the resolved settings and where each came from",
		Long: `Show the settings a command run here would use, and where each came from:
the project file (bddl.toml in the working directory or the nearest parent
that has one; $BDDL_CONFIG names another, or none), the knowledge base
(--kb, else $BDDL_KB, else bddl.toml's kb, else the knowledge_base beside the
activity_definitions tree an input lies in, else the embedded default), the
activity library and the flag defaults bddl.toml sets.

PATH are inputs as another command would take them (definitions, episodes):
the knowledge base and library are inferred from them as that command would.

A bddl.toml:

  kb = "behavior1k/knowledge_base"            # relative to this file
  activities = "behavior1k/activity_definitions"
  [defaults]                                  # every command with the flag
  jobs = 2
  [defaults.check]                            # one command
  hold = 10
  [defaults.episode.convert]                  # a subcommand
  format = "json"

The command line wins over bddl.toml, bddl.toml over the built-in defaults.`,
		Example: `  bddl config
  bddl config BEHAVIOR-1K/bddl3/bddl/activity_definitions/cook_bacon/problem0.bddl
  bddl config --format json | jq -r 'select(.setting == "kb") | .source'`,
		RunE: func(cmd *cobra.Command, args []string) error { return runConfig(opts, cmd.Root()) },
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per setting)")
	cmd.Flags().StringVar(&opts.activities, "activities", "", "a BEHAVIOR-1K activity_definitions directory (as other commands take it)")
	return cmd
}

func runConfig(opts *configOptions, root *cobra.Command) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	bad := opts.project.Problems(root)
	a := opts.resolveActivities(opts.activities)
	recs := kbresolve.Report(opts.kbInputs(), kbresolve.Setting{Value: a.value, Source: a.source}, opts.dir, bad)
	// A key no command would accept is reported as the command would
	// report it, not listed as in force.
	defer func() {
		msgs := make([]string, 0, len(bad))
		for _, m := range bad {
			msgs = append(msgs, m)
		}
		sort.Strings(msgs)
		for _, m := range msgs {
			fmt.Fprintf(opts.err, "bddl: %s\n", m)
		}
	}()
	if opts.format == "json" {
		enc := jsonLines(opts.out)
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	} else if err := kbresolve.WriteText(opts.out, recs); err != nil {
		return err
	}
	if len(bad) > 0 {
		return &exitError{code: exitMisuse}
	}
	return nil
}
