package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/activities/report"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/kb/show"
)

func init() { subcommands = append(subcommands, newKBCmd) }

func newKBCmd(g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kb",
		Short: "Inspect and check the knowledge base",
		Long: `Inspect the knowledge base: synsets, their properties and parameters, the
hierarchy, the scenes and object models, and the transition rules.

The knowledge base is the one --kb names (a BEHAVIOR-1K data folder,
generated_data, the bddl package folder or the checkout holding it, or a
YAML file), else $BDDL_KB, else bddl.toml's kb, else the one of the
BEHAVIOR-1K tree around the inputs, else the embedded default; bddl config
shows which and where from.`,
		Example: `  bddl kb show apple.n.01
  bddl kb tree --depth 2 food.n.02
  bddl kb search --property heatSource
  bddl --kb BEHAVIOR-1K/bddl3/bddl kb check`,
	}
	cmd.AddCommand(newKBShowCmd(g), newKBTreeCmd(g), newKBSearchCmd(g), newKBCheckCmd(g))
	return asGroup(cmd)
}

// kbLookupSynsets resolves names, printing a did-you-mean on stderr for each
// unknown one; unknown reports whether any was.
func kbLookupSynsets(g *globalOptions, b *kb.Base, names []string) (ids []kb.SynsetID, unknown bool) {
	ids, msgs := show.Lookup(b, names)
	for _, m := range msgs {
		fmt.Fprintf(g.err, "bddl: %s\n", m)
	}
	return ids, len(msgs) > 0
}

// ---------------------------------------------------------------------
// kb search

type kbSearchOptions struct {
	*globalOptions
	format     string
	properties []string
}

func newKBSearchCmd(g *globalOptions) *cobra.Command {
	opts := &kbSearchOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "search [TEXT] [--property P]...",
		Short: "Find synsets by name and properties",
		Long: `List the synsets whose names contain TEXT (case-insensitive) and that have
every --property given, one per line. Exits 1 when nothing matches.`,
		Example: `  bddl kb search apple
  bddl kb search --property heatSource --property toggleable
  bddl kb search bottle --property fillable --format json`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			text := ""
			if len(args) == 1 {
				text = args[0]
			}
			return runKBSearch(opts, text)
		},
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	cmd.Flags().StringArrayVarP(&opts.properties, "property", "p", nil, "required property (repeatable), e.g. cookable")
	return cmd
}

func runKBSearch(opts *kbSearchOptions, text string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	if text == "" && len(opts.properties) == 0 {
		return misuse("kb search needs TEXT or at least one --property")
	}
	b, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	found, err := show.Search(b, text, opts.properties)
	if err != nil {
		return misuse("%v", err)
	}
	if err := show.WriteSearch(opts.out, b, found, opts.format == "json"); err != nil {
		return err
	}
	if len(found) == 0 {
		fmt.Fprintln(opts.err, "bddl: no synset matches")
		return findings()
	}
	return nil
}

// ---------------------------------------------------------------------
// kb check

type kbCheckOptions struct {
	*globalOptions
	format   string
	severity string
}

func newKBCheckCmd(g *globalOptions) *cobra.Command {
	opts := &kbCheckOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "check [--format text|json] [--severity error|warning|info]",
		Short: "Validate the knowledge-base data",
		Long: `Load the knowledge base and validate it: unknown parents, hypernym cycles,
wrongly typed parameters, rules naming unknown synsets, non-leaf synsets whose
properties differ from the intersection of their leaves', disagreements between
the BEHAVIOR-1K files, scene and model data. Findings are printed on stderr
with their file and line or key, and a summary on stdout, as validate does;
--format json prints one flat record per finding on stdout (file, line, key,
severity, code, rule, message).

Exit status: 0 when there is no error finding (warnings and info allowed),
1 when there is one, 2 when the knowledge base cannot be read at all.`,
		Example: `  bddl kb check
  bddl --kb BEHAVIOR-1K/bddl3/bddl kb check --severity warning
  BDDL_KB=my_kb.yaml bddl kb check --format json`,
		Args: cobra.NoArgs,
		RunE: func(_ *cobra.Command, _ []string) error { return runKBCheck(opts) },
	}
	cmd.Flags().StringVar(&opts.format, "format", "text", "output format: text or json")
	cmd.Flags().StringVar(&opts.severity, "severity", "info", "least severity to print: "+bddl.SeverityNames)
	return cmd
}

func runKBCheck(opts *kbCheckOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	sev, err := parseSeverity(opts.severity)
	if err != nil {
		return err
	}
	least := kb.Severity(sev + 1) // kb's severities count from 1, bddl's from 0
	// Data errors are what this command reports, so a base that loaded
	// with them is checked rather than refused.
	b, err := opts.loadKBData()
	opts.kbLoader().Note(opts.kbLoader().KB())
	if b == nil {
		return misuse("%v", err)
	}
	errs, err2 := report.KBCheck{Least: least, JSON: opts.format == "json", Source: opts.kbSource(),
		Stdout: opts.out, Stderr: opts.err}.Write(b)
	if err2 != nil {
		return err2
	}
	var des kb.DataErrors
	if errs > 0 || errors.As(err, &des) {
		return findings()
	}
	return nil
}
