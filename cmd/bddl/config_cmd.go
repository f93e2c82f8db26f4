package main

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/b1klayout"
	"github.com/openbddl/bddl/internal/config"
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
	Record  string `json:"record"` // "setting" (bddl schema setting)
	Type    string `json:"type"`   // "setting", as before record was added
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
	bad := opts.projectProblems(root)
	var recs []configRecord
	add := func(name string, s setting) {
		recs = append(recs, configRecord{Record: "setting", Type: "setting", Setting: name, Value: s.value, Source: s.source})
	}
	if opts.project != nil {
		add("project", setting{opts.project.Path, "found from " + workDir(opts.dir)})
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
		tables := make([]string, 0, len(opts.project.Tables))
		for t := range opts.project.Tables {
			tables = append(tables, t)
		}
		sort.Strings(tables)
		for _, t := range tables {
			keys := make([]string, 0, len(opts.project.Tables[t]))
			for key := range opts.project.Tables[t] {
				keys = append(keys, key)
			}
			sort.Strings(keys)
			for _, key := range keys {
				if bad[t+"\x00"+key] == "" {
					add(config.TableName(t)+"."+key, setting{fmt.Sprint(opts.project.Tables[t][key]), opts.project.Path})
				}
			}
		}
	}
	if os.Getenv(kb.EnvVar) != "" && k.source != "$"+kb.EnvVar {
		add("$"+kb.EnvVar, setting{os.Getenv(kb.EnvVar), "environment (overridden)"})
	}
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
		if len(bad) > 0 {
			return &exitError{code: exitMisuse}
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
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(bad) > 0 {
		return &exitError{code: exitMisuse}
	}
	return nil
}

// projectProblems checks every key of bddl.toml's [defaults] tables as
// the commands would apply it: a table must name a command, a key of a
// command's table one of its flags and a key of [defaults] a flag of some
// command, and the value must be one the flag takes. It returns the
// message of each bad key, by table and key.
func (g *globalOptions) projectProblems(root *cobra.Command) map[string]string {
	bad := map[string]string{}
	p := g.project
	if p == nil {
		return bad
	}
	var all []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		all = append(all, c)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	for table, keys := range p.Tables {
		var cmds []*cobra.Command
		if table == "" {
			cmds = all
		} else {
			c, rest, err := root.Find(strings.Fields(table))
			if err != nil || len(rest) > 0 || c == root || strings.TrimPrefix(c.CommandPath(), root.Name()+" ") != table {
				for k := range keys {
					bad[table+"\x00"+k] = fmt.Sprintf("%s: [%s]: there is no command bddl %s%s", p.Path, config.TableName(table), table,
						didYouMean(table, commandPaths(all, root)))
				}
				continue
			}
			cmds = []*cobra.Command{c}
		}
		for k, v := range keys {
			found := false
			for _, c := range cmds {
				f := c.Flags().Lookup(k)
				if f == nil {
					continue
				}
				found = true
				// The flags of this process's other commands are never
				// used: setting one is a dry run of the value.
				if err := setFlagValue(f, v); err != nil {
					bad[table+"\x00"+k] = fmt.Sprintf("%s: [%s] %s: %v", p.Path, config.TableName(table), k, err)
				}
				break
			}
			if !found {
				if table == "" {
					var names []string
					for _, c := range cmds {
						names = append(names, flagNames(c)...)
					}
					bad[table+"\x00"+k] = fmt.Sprintf("%s: [defaults] %s: no command has a flag --%s%s", p.Path, k, k, didYouMean(k, names))
				} else {
					bad[table+"\x00"+k] = fmt.Sprintf("%s: [%s] %s: bddl %s has no flag --%s%s", p.Path, config.TableName(table), k, table, k,
						didYouMean(k, flagNames(cmds[0])))
				}
			}
		}
	}
	return bad
}

// commandPaths are the command paths below root ("check", "episode convert").
func commandPaths(cmds []*cobra.Command, root *cobra.Command) []string {
	var out []string
	for _, c := range cmds {
		if c != root {
			out = append(out, strings.TrimPrefix(c.CommandPath(), root.Name()+" "))
		}
	}
	return out
}

func workDir(dir string) string {
	if dir != "" {
		return dir
	}
	wd, _ := os.Getwd()
	return wd
}
