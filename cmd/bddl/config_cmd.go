package main

import (
	"fmt"
	"os"
	"sort"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/b1klayout"
	"github.com/openbddl/bddl/kb"
)

func init() { subcommands = append(subcommands, newConfigCmd) }

type configOptions struct {
	*globalOptions
	format     string
	activities string
}

// configRecord is one resolved setting: its name, value and where the
// value came from.
type configRecord struct {
	Type    string `json:"type"` // "setting"
	Setting string `json:"setting"`
	Value   string `json:"value"`
	Source  string `json:"source"`
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
		RunE: func(cmd *cobra.Command, args []string) error { return runConfig(opts) },
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per setting)")
	cmd.Flags().StringVar(&opts.activities, "activities", "", "a BEHAVIOR-1K activity_definitions directory (as other commands take it)")
	return cmd
}

func runConfig(opts *configOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	var recs []configRecord
	add := func(name string, s setting) {
		recs = append(recs, configRecord{Type: "setting", Setting: name, Value: s.value, Source: s.source})
	}
	if opts.project != nil {
		add("project", setting{opts.project.path, "found from " + workDir(opts.dir)})
	} else {
		add("project", setting{"", "none: no " + projectFileName + " here or in a parent"})
	}
	k := opts.resolveKB()
	switch l := b1klayout.Recognise(k.value); {
	case k.value == "":
		k.value = embeddedKB
	case l.Kind == b1klayout.PythonCode && l.Data == "":
		k.source += "; not a knowledge base: the bddl package's Python code, with no generated_data/ beside it"
	case l.Data != "" && l.Data != l.Path:
		// A package, checkout or Python knowledge_base/: say which
		// folder is read.
		k.source += "; reads its data, " + l.Data
	}
	add("kb", k)
	add("activities", opts.resolveActivities(opts.activities))
	if opts.project != nil {
		tables := make([]string, 0, len(opts.project.tables))
		for t := range opts.project.tables {
			tables = append(tables, t)
		}
		sort.Strings(tables)
		for _, t := range tables {
			keys := make([]string, 0, len(opts.project.tables[t]))
			for key := range opts.project.tables[t] {
				keys = append(keys, key)
			}
			sort.Strings(keys)
			for _, key := range keys {
				add(tableName(t)+"."+key, setting{fmt.Sprint(opts.project.tables[t][key]), opts.project.path})
			}
		}
	}
	if os.Getenv(kb.EnvVar) != "" && k.source != "$"+kb.EnvVar {
		add("$"+kb.EnvVar, setting{os.Getenv(kb.EnvVar), "environment (overridden)"})
	}
	if opts.format == "json" {
		enc := jsonLines(opts.out)
		for _, r := range recs {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(opts.out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SETTING\tVALUE\tFROM")
	for _, r := range recs {
		v := r.Value
		if v == "" {
			v = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.Setting, v, r.Source)
	}
	return tw.Flush()
}

func workDir(dir string) string {
	if dir != "" {
		return dir
	}
	wd, _ := os.Getwd()
	return wd
}
