package main

import (
	"github.com/spf13/cobra"
)

// minArgs is cobra.MinimumNArgs with a message saying what to give.
func minArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) < n {
			return misuse("%s needs %s (see '%s --help')", cmd.CommandPath(), what, cmd.CommandPath())
		}
		return nil
	}
}

// exactArgs is cobra.ExactArgs with a message saying what to give.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) < n:
			return misuse("%s needs %s (see '%s --help')", cmd.CommandPath(), what, cmd.CommandPath())
		case len(args) > n:
			return misuse("%s takes %s, not %d arguments", cmd.CommandPath(), what, len(args))
		}
		return nil
	}
}
