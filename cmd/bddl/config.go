package main

import (
	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/config"
	"github.com/openbddl/bddl/internal/jobs/kbresolve"
)

// projectFileName and configEnvVar are the project file's name and the
// variable naming one (internal/config).
const (
	projectFileName = config.FileName
	configEnvVar    = config.EnvVar
)

// setting is one resolved setting and where it came from
// (kbresolve.Setting).
type setting struct{ value, source string }

// applyProject sets the flags of cmd that the command line left unset
// from the project file (config.Project.Apply).
func (g *globalOptions) applyProject(cmd *cobra.Command) error {
	set, err := g.project.Apply(cmd)
	g.fromProject = append(g.fromProject, set...)
	if err != nil {
		return misuse("%v", err)
	}
	return nil
}

// flagNames lists cmd's flags, for did-you-mean.
func flagNames(cmd *cobra.Command) []string { return config.FlagNames(cmd) }

func (g *globalOptions) kbInputs() kbresolve.Inputs {
	return kbresolve.Inputs{Flag: g.kbPath, Project: g.project, Hints: g.hints}
}

// resolveKB decides which knowledge base the run uses and why.
func (g *globalOptions) resolveKB() setting {
	s := g.kbInputs().KB()
	return setting{s.Value, s.Source}
}

// resolveActivities is the activity library the run uses and why.
func (g *globalOptions) resolveActivities(flag string) setting {
	s := g.kbInputs().Activities(flag, kbresolve.Setting{Value: g.inferred.value, Source: g.inferred.source}, g.fromProject)
	return setting{s.Value, s.Source}
}

// hintInputs records the command's input paths, from which the
// knowledge base and activity library are inferred (config.InputPaths).
func (g *globalOptions) hintInputs(cmd *cobra.Command, args []string) {
	g.hints = append(g.hints, config.InputPaths(cmd, args)...)
}
