package cliflag

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
)

// The errors here are cobra's own kind, a plain error, which bddl reports
// as misuse (exit 2) like cobra's unknown command.

// MinArgs is cobra.MinimumNArgs with a message saying what to give.
func MinArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return fmt.Errorf("%s needs %s (see '%s --help')", cmd.CommandPath(), what, cmd.CommandPath())
		}
		return nil
	}
}

// ExactArgs is cobra.ExactArgs with a message saying what to give.
func ExactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < n:
			return fmt.Errorf("%s needs %s (see '%s --help')", cmd.CommandPath(), what, cmd.CommandPath())
		case len(args) > n:
			return fmt.Errorf("%s takes %s, not %d arguments", cmd.CommandPath(), what, len(args))
		}
		return nil
	}
}

// Group makes cmd a command group: run alone it prints its help; an
// unknown subcommand is misuse with cobra's did-you-mean, as an unknown
// top-level command is.
func Group(cmd *cobra.Command) *cobra.Command {
	cmd.SuggestionsMinimumDistance = 2
	cmd.Args = func(c *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		msg := fmt.Sprintf("unknown command %q for %q", args[0], c.CommandPath())
		if s := c.SuggestionsFor(args[0]); len(s) > 0 {
			msg += "\n\nDid you mean this?\n\t" + strings.Join(s, "\n\t")
		}
		return fmt.Errorf("%s", msg)
	}
	cmd.RunE = func(c *cobra.Command, _ []string) error { return c.Help() }
	return cmd
}
