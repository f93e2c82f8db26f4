package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/schemas"
	"github.com/openbddl/bddl/libero"
)

func init() { subcommands = append(subcommands, newSchemaCmd) }

// schemaNames lists the record types, and which commands print each.
var schemaNames = schemas.Descriptions

func schemaFor(name string) ([]byte, error) {
	switch name {
	case "episode":
		return episode.Schema, nil
	case "libero-episode":
		return []byte(libero.Schema), nil
	}
	return schemas.File(name)
}

func newSchemaCmd(g *globalOptions) *cobra.Command {
	names := schemas.Names()
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
