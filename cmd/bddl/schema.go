package main

import (
	"embed"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/libero"
)

func init() { subcommands = append(subcommands, newSchemaCmd) }

// schemas are the JSON Schemas of the records the commands print with
// --format json, one file per record type.
//
//go:embed schemas/*.schema.json
var schemas embed.FS

// schemaNames lists the record types, and which commands print each.
var schemaNames = map[string]string{
	"result":         "check --format json, check -o, results merge",
	"init":           "check --init --format json, check --init -o (lines with \"record\": \"init\")",
	"finding":        "validate --format json, kb check --format json",
	"scenes":         "validate --scenes --format json (lines with \"record\": \"scenes\")",
	"converted":      "episode convert, from-omnigibson, from-oopsie and from-dora with --format json",
	"parse":          "parse --format json",
	"explain":        "explain --format json",
	"synset":         "kb show, kb search, kb tree with --format json",
	"episode":        "the episode files check reads (also: bddl episode schema)",
	"sample":         "sample --format json",
	"transition":     "transition list --format json",
	"rule-explain":   "transition explain --format json",
	"libero-episode": "the LIBERO episode files check reads (bddl sample writes them for LIBERO tasks)",
	"serve":          "the lines of bddl serve: handshake, requests, responses",
	"setting":        "config --format json",
	"version":        "version --format json",
}

func schemaFor(name string) ([]byte, error) {
	if name == "episode" {
		return episode.Schema, nil
	}
	if name == "libero-episode" {
		return []byte(libero.Schema), nil
	}
	return fs.ReadFile(schemas, "schemas/"+name+".schema.json")
}

func newSchemaCmd(g *globalOptions) *cobra.Command {
	var names []string
	for n := range schemaNames {
		names = append(names, n)
	}
	sort.Strings(names)
	var list strings.Builder
	tw := tabwriter.NewWriter(&list, 0, 4, 2, ' ', 0)
	for _, n := range names {
		fmt.Fprintf(tw, "  %s\t%s\n", n, schemaNames[n])
	}
	tw.Flush()
	return &cobra.Command{
		Use:   "schema [RECORD]",
		Short: "Print the JSON Schema of a record type of --format json",
		Long: `Print the JSON Schema (draft 2020-12) of one record type that the commands
print as JSON Lines with --format json; with no RECORD, list the types:

` + list.String(),
		Example: `  bddl schema                     # list the record types
  bddl schema result > result.schema.json`,
		Args:      cobra.MaximumNArgs(1),
		ValidArgs: names,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				_, err := fmt.Fprint(g.out, list.String())
				return err
			}
			if _, ok := schemaNames[args[0]]; !ok {
				if dym := didYouMean(args[0], names); dym != "" {
					return misuse("no record type %q%s", args[0], dym)
				}
				return misuse("no record type %q; one of %s", args[0], strings.Join(names, ", "))
			}
			data, err := schemaFor(args[0])
			if err != nil {
				return err
			}
			_, err = g.out.Write(data)
			return err
		},
	}
}
