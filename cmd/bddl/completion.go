package main

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/config"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb/show"
)

// completeActivities completes activity names from the --activities
// library the command line gives (flag library) and the embedded
// examples; files complete too, since a definition file is accepted.
func completeActivities(g *globalOptions, library *string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		dir := ""
		if library != nil {
			dir = *library
		}
		if dir == "" {
			// The library a command would look names up in (bddl.toml's
			// activities, the tree of the knowledge base chosen): the
			// command's hooks, which find it, do not run for completion.
			if g.project == nil {
				if p, err := config.Find(g.dir); err == nil {
					g.project = p
				}
			}
			if g.project != nil && g.project.Activities != "" {
				dir = g.project.Activities
			} else {
				dir = g.resolveActivities("").value
			}
		}
		return batch.ActivityNames(dir, toComplete), cobra.ShellCompDirectiveDefault
	}
}

// completeSynsets completes synset names from the knowledge base in use
// (--kb, $BDDL_KB or the embedded default).
func completeSynsets(g *globalOptions) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		b, err := g.loadKB()
		if err != nil {
			return nil, cobra.ShellCompDirectiveError
		}
		return show.Names(b, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}
