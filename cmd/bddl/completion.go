package main

import (
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/internal/config"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
)

// completeActivities completes activity names from the --activities
// library the command line gives (flag library) and the embedded
// examples; files complete too, since a definition file is accepted.
func completeActivities(g *globalOptions, library *string) cobra.CompletionFunc {
	return func(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		libs := []*activities.Library{activities.Examples()}
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
		if dir != "" {
			if lib, err := batch.LoadLibrary(dir, nil); err == nil {
				libs = append(libs, lib)
			}
		}
		seen := map[string]bool{}
		var out []string
		for _, lib := range libs {
			for _, a := range lib.Activities {
				if !seen[a.Name] && strings.HasPrefix(a.Name, toComplete) {
					seen[a.Name] = true
					out = append(out, a.Name)
				}
			}
		}
		sort.Strings(out)
		return out, cobra.ShellCompDirectiveDefault
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
		var out []string
		for id := range b.NumSynsets() {
			if name := b.Name(kb.SynsetID(id)); strings.HasPrefix(name, toComplete) {
				out = append(out, name)
			}
		}
		sort.Strings(out)
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}
