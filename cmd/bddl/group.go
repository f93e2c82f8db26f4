package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// asGroup makes cmd a command group: run alone it prints its help; an
// unknown subcommand is misuse with cobra's did-you-mean, as an unknown
// top-level command is.
func asGroup(cmd *cobra.Command) *cobra.Command {
	cmd.SuggestionsMinimumDistance = 2
	cmd.Args = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
		if s := c.SuggestionsFor(args[0]); len(s) > 0 {
			msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
		}
		return misuse("%s", msg)
	}
	cmd.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	return cmd
}
