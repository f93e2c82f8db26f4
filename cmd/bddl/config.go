package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openbddl/bddl/internal/b1klayout"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/kb"
)

// projectFileName is the project file found, as ruff and uv find theirs,
// in the working directory or the nearest parent that has one.
const projectFileName = "bddl.toml"

// configEnvVar names a project file to use instead of searching for one;
// "none" uses none.
const configEnvVar = "BDDL_CONFIG"

// projectFileLimit bounds the read of a project file.
const projectFileLimit = 1 << 20

// setting is one resolved setting and where it came from.
type setting struct {
	value  string
	source string // "--kb", "$BDDL_KB", "bddl.toml (/abs/path)", "the BEHAVIOR-1K tree of X", "embedded default"
}

// project is a parsed bddl.toml: the knowledge base, the activity
// library, and flag defaults, for every command ([defaults]) or one
// ([defaults.check], [defaults.episode.convert], ...). Paths are
// relative to the file.
type project struct {
	path       string
	kb         string
	activities string
	// tables maps a command path ("" for [defaults], "check" for
	// [defaults.check], "episode convert") to flag defaults.
	tables map[string]map[string]any
}

// findProject returns the project file for dir: $BDDL_CONFIG, else the
// first bddl.toml in dir or a parent; nil when there is none.
func findProject(dir string) (*project, error) {
	if env, ok := os.LookupEnv(configEnvVar); ok && env != "" {
		if env == "none" {
			return nil, nil
		}
		return readProject(env)
	}
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, nil
		}
		dir = wd
	}
	dir, _ = filepath.Abs(dir)
	for {
		p := filepath.Join(dir, projectFileName)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return readProject(p)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil, nil
		}
		dir = parent
	}
}

// readProject parses a project file; an unknown key is an error naming
// the file and key.
func readProject(path string) (*project, error) {
	src, err := fsutil.ReadFile(path, projectFileLimit)
	if err != nil {
		return nil, err
	}
	return parseProject(path, src)
}

// parseProject parses the text of a project file read from path.
func parseProject(path string, src []byte) (*project, error) {
	var err error
	var raw map[string]any
	if _, err := toml.Decode(string(src), &raw); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	abs, _ := filepath.Abs(path)
	p := &project{path: abs, tables: map[string]map[string]any{}}
	rel := func(key string, v any) (string, error) {
		s, ok := v.(string)
		if !ok || s == "" {
			return "", fmt.Errorf("%s: %s must be a path (a string)", path, key)
		}
		if !filepath.IsAbs(s) {
			s = filepath.Join(filepath.Dir(abs), s)
		}
		return s, nil
	}
	for key, v := range raw {
		switch key {
		case "kb":
			if p.kb, err = rel(key, v); err != nil {
				return nil, err
			}
		case "activities":
			if p.activities, err = rel(key, v); err != nil {
				return nil, err
			}
		case "defaults":
			t, ok := v.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("%s: [defaults] must be a table of flag = value", path)
			}
			p.addTables("", t)
		default:
			return nil, fmt.Errorf("%s: unknown key %q%s (kb, activities or [defaults])", path, key,
				didYouMean(key, []string{"kb", "activities", "defaults"}))
		}
	}
	return p, nil
}

// addTables files [defaults] and its nested command tables
// ([defaults.check], [defaults.episode.convert]) under their command
// paths ("" for [defaults] itself).
func (p *project) addTables(name string, t map[string]any) {
	flags := map[string]any{}
	for k, v := range t {
		if sub, ok := v.(map[string]any); ok {
			p.addTables(strings.TrimSpace(name+" "+k), sub)
			continue
		}
		flags[k] = v
	}
	if len(flags) > 0 {
		p.tables[name] = flags
	}
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
		keys := make([]string, 0, len(p.tables[table]))
		for k := range p.tables[table] {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			f := cmd.Flags().Lookup(k)
			if f == nil {
				if strict {
					return misuse("%s: [%s] %s: bddl %s has no flag --%s%s", p.path, tableName(table), k, name, k, didYouMean(k, flagNames(cmd)))
				}
				continue
			}
			if f.Changed {
				continue
			}
			if err := setFlagValue(f, p.tables[table][k]); err != nil {
				return misuse("%s: [%s] %s: %v", p.path, tableName(table), k, err)
			}
			g.fromProject = append(g.fromProject, f.Name)
		}
	}
	if f := cmd.Flags().Lookup("activities"); f != nil && !f.Changed && p.activities != "" && f.Value.String() == "" {
		_ = f.Value.Set(p.activities)
		g.fromProject = append(g.fromProject, "activities")
	}
	return nil
}

// tableName is the TOML name of a command path's table.
func tableName(t string) string {
	if t == "" {
		return "defaults"
	}
	return "defaults." + strings.ReplaceAll(t, " ", ".")
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
	case g.project != nil && g.project.kb != "":
		return setting{g.project.kb, g.project.path}
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
				src = g.project.path
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
