package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openbddl/bddl/internal/b1klayout"
	"github.com/openbddl/bddl/internal/config"
	"github.com/openbddl/bddl/kb"
)

// projectFileName and configEnvVar are the project file's name and the
// variable naming one (internal/config).
const (
	projectFileName = config.FileName
	configEnvVar    = config.EnvVar
)

// setting is one resolved setting and where it came from.
type setting struct {
	value  string
	source string // "--kb", "$BDDL_KB", "bddl.toml (/abs/path)", "the BEHAVIOR-1K tree of X", "embedded default"
}

// applyProject sets the flags of cmd that the command line left unset
// from the project file: kb and activities, then [defaults], then the
// command's own table. A key of the command's table that names no flag
// is an error; [defaults] keys apply to the commands that have the flag.
func (g *globalOptions) applyProject(cmd *cobra.Command) error {
	p := g.project
	if p == nil {
		return nil
	}
	name := strings.TrimPrefix(cmd.CommandPath(), cmd.Root().Name()+" ")
	for table, strict := range map[string]bool{"": false, name: true} {
		keys := make([]string, 0, len(p.Tables[table]))
		for k := range p.Tables[table] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			f := cmd.Flags().Lookup(k)
			if f == nil {
				if strict {
					return misuse("%s: [%s] %s: bddl %s has no flag --%s%s", p.Path, config.TableName(table), k, name, k, didYouMean(k, flagNames(cmd)))
				}
				continue
			}
			if f.Changed {
				continue
			}
			if err := setFlagValue(f, p.Tables[table][k]); err != nil {
				return misuse("%s: [%s] %s: %v", p.Path, config.TableName(table), k, err)
			}
			g.fromProject = append(g.fromProject, f.Name)
		}
	}
	if f := cmd.Flags().Lookup("activities"); f != nil && !f.Changed && p.Activities != "" && f.Value.String() == "" {
		_ = f.Value.Set(p.Activities)
		g.fromProject = append(g.fromProject, "activities")
	}
	return nil
}

// setFlagValue sets a flag from a TOML value: a string, number or
// boolean as its text, an array as repeated values.
func setFlagValue(f *pflag.Flag, v any) error {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if err := f.Value.Set(fmt.Sprint(e)); err != nil {
				return err
			}
		}
		return nil
	default:
		return f.Value.Set(fmt.Sprint(x))
	}
}

// flagNames lists cmd's flags, for did-you-mean.
func flagNames(cmd *cobra.Command) []string {
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	return names
}

// behaviorTree finds the BEHAVIOR-1K tree around path
// (b1klayout.Around): the bddl package it lies in, or the package of the
// monorepo checkout it lies in (joylo/sampled_task/<task> ↔ bddl3/bddl).
func behaviorTree(path string) (b1klayout.Layout, bool) { return b1klayout.Around(path) }

// kbFallbackEnvVar names the knowledge base of an installed bddl package,
// used when nothing else names one: the Python client sets it from the
// bddl package it can import. Users set $BDDL_KB instead.
const kbFallbackEnvVar = "BDDL_KB_INSTALLED"

// sourceNone is resolveKB's source when nothing named a knowledge base.
const sourceNone = "nothing else given"

// resolveKB decides which knowledge base the run uses and why: --kb,
// $BDDL_KB, the project file, the BEHAVIOR-1K tree around an input, the
// installed bddl package the Python client found, the embedded default.
func (g *globalOptions) resolveKB() setting {
	switch {
	case g.kbPath != "":
		return setting{g.kbPath, "--kb"}
	case os.Getenv(kb.EnvVar) != "":
		return setting{os.Getenv(kb.EnvVar), "$" + kb.EnvVar}
	case g.project != nil && g.project.KB != "":
		return setting{g.project.KB, g.project.Path}
	}
	for _, h := range g.hints {
		if l, ok := behaviorTree(h); ok {
			return setting{l.Data, "the BEHAVIOR-1K tree of " + h}
		}
	}
	if v := os.Getenv(kbFallbackEnvVar); v != "" {
		return setting{v, "the installed bddl package ($" + kbFallbackEnvVar + ")"}
	}
	return setting{"", sourceNone}
}

// resolveActivities is the activity library the run uses and why: the
// --activities flag (or the project file's, applied to it), else the
// activity_definitions of the BEHAVIOR-1K tree around an input.
func (g *globalOptions) resolveActivities(flag string) setting {
	if flag != "" && flag == g.inferred.value {
		return g.inferred
	}
	if flag != "" {
		src := "--activities"
		for _, n := range g.fromProject {
			if n == "activities" && g.project != nil {
				src = g.project.Path
			}
		}
		return setting{flag, src}
	}
	for _, h := range g.hints {
		if l, ok := behaviorTree(h); ok && l.Activities != "" {
			return setting{l.Activities, "the BEHAVIOR-1K tree of " + h}
		}
	}
	// The activity_definitions of the package a knowledge base given by
	// --kb, $BDDL_KB or bddl.toml belongs to: names resolve in its tree.
	if k := g.resolveKB(); k.value != "" && k.source != sourceNone {
		if l := b1klayout.Recognise(k.value); l.Activities != "" {
			return setting{l.Activities, "beside the knowledge base " + k.value}
		}
	}
	return setting{"", "none (embedded examples only)"}
}

// hintInputs records the command's input paths, from which the
// knowledge base and activity library are inferred: positional
// arguments and the values of path flags.
func (g *globalOptions) hintInputs(cmd *cobra.Command, args []string) {
	add := func(p string) {
		if p == "" || p == "-" {
			return
		}
		if _, err := os.Stat(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return
		}
		g.hints = append(g.hints, p)
	}
	for _, name := range []string{"activity", "activities", "episode", "scene-file", "template"} {
		f := cmd.Flags().Lookup(name)
		if f == nil {
			continue
		}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			for _, v := range sv.GetSlice() {
				add(v)
			}
		} else {
			add(f.Value.String())
		}
	}
	for _, a := range args {
		add(a)
	}
}
