package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/openbddl/bddl/internal/suggest"
)

// Apply sets the flags of cmd that the command line left unset from the
// project file: [defaults], then the command's own table, then
// activities. A key of the command's table that names no flag is an
// error; [defaults] keys apply to the commands that have the flag. It
// returns the names of the flags it set.
func (p *Project) Apply(cmd *cobra.Command) (set []string, err error) {
	if p == nil {
		return nil, nil
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
					return set, fmt.Errorf("%s: [%s] %s: bddl %s has no flag --%s%s", p.Path, TableName(table), k, name, k, suggest.DidYouMean(k, FlagNames(cmd)))
				}
				continue
			}
			if f.Changed {
				continue
			}
			if err := SetFlag(f, p.Tables[table][k]); err != nil {
				return set, fmt.Errorf("%s: [%s] %s: %v", p.Path, TableName(table), k, err)
			}
			set = append(set, f.Name)
		}
	}
	if f := cmd.Flags().Lookup("activities"); f != nil && !f.Changed && p.Activities != "" && f.Value.String() == "" {
		_ = f.Value.Set(p.Activities)
		set = append(set, "activities")
	}
	return set, nil
}

// SetFlag sets a flag from a TOML value: a string, number or boolean as
// its text, an array as repeated values.
func SetFlag(f *pflag.Flag, v any) error {
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

// FlagNames lists cmd's visible flags, for did-you-mean.
func FlagNames(cmd *cobra.Command) []string {
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	return names
}

// Problems checks every key of the [defaults] tables as the commands
// below root would apply it: a table must name a command, a key of a
// command's table one of its flags and a key of [defaults] a flag of
// some command, and the value must be one the flag takes. It returns the
// message of each bad key, by table and key ("table\x00key").
func (p *Project) Problems(root *cobra.Command) map[string]string {
	bad := map[string]string{}
	if p == nil {
		return bad
	}
	var all []*cobra.Command
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		all = append(all, c)
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
	for table, keys := range p.Tables {
		var cmds []*cobra.Command
		if table == "" {
			cmds = all
		} else {
			c, rest, err := root.Find(strings.Fields(table))
			if err != nil || len(rest) > 0 || c == root || strings.TrimPrefix(c.CommandPath(), root.Name()+" ") != table {
				for k := range keys {
					bad[table+"\x00"+k] = fmt.Sprintf("%s: [%s]: there is no command bddl %s%s", p.Path, TableName(table), table,
						suggest.DidYouMean(table, commandPaths(all, root)))
				}
				continue
			}
			cmds = []*cobra.Command{c}
		}
		for k, v := range keys {
			found := false
			for _, c := range cmds {
				f := c.Flags().Lookup(k)
				if f == nil {
					continue
				}
				found = true
				// The flags of this process's other commands are never
				// used: setting one is a dry run of the value.
				if err := SetFlag(f, v); err != nil {
					bad[table+"\x00"+k] = fmt.Sprintf("%s: [%s] %s: %v", p.Path, TableName(table), k, err)
				}
				break
			}
			if !found {
				if table == "" {
					var names []string
					for _, c := range cmds {
						names = append(names, FlagNames(c)...)
					}
					bad[table+"\x00"+k] = fmt.Sprintf("%s: [defaults] %s: no command has a flag --%s%s", p.Path, k, k, suggest.DidYouMean(k, names))
				} else {
					bad[table+"\x00"+k] = fmt.Sprintf("%s: [%s] %s: bddl %s has no flag --%s%s", p.Path, TableName(table), k, table, k,
						suggest.DidYouMean(k, FlagNames(cmds[0])))
				}
			}
		}
	}
	return bad
}

// commandPaths are the command paths below root ("check", "episode convert").
func commandPaths(cmds []*cobra.Command, root *cobra.Command) []string {
	var out []string
	for _, c := range cmds {
		if c != root {
			out = append(out, strings.TrimPrefix(c.CommandPath(), root.Name()+" "))
		}
	}
	return out
}

// pathFlags are the flags whose values are input paths.
var pathFlags = []string{"activity", "activities", "episode", "scene-file", "template"}

// InputPaths are the command's input paths, from which the knowledge
// base and activity library are inferred: the values of its path flags,
// then the positional arguments; "-" and paths that cannot be looked at
// (other than missing ones) are left out.
func InputPaths(cmd *cobra.Command, args []string) []string {
	var out []string
	add := func(p string) {
		if p == "" || p == "-" {
			return
		}
		if _, err := os.Stat(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return
		}
		out = append(out, p)
	}
	for _, name := range pathFlags {
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
	return out
}
