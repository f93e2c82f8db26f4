package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// walkCommands calls fn for every command of the tree.
func walkCommands(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, sub := range c.Commands() {
		walkCommands(sub, fn)
	}
}

// TestOutputFlagSpelling checks that every written file or directory is
// -o/--output, and that the older spellings are hidden deprecated aliases.
func TestOutputFlagSpelling(t *testing.T) {
	t.Parallel()
	walkCommands(newRootCmd(streams{}), func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			switch f.Name {
			case "output":
				if f.Shorthand != "o" {
					t.Errorf("%s --output has shorthand %q, want o", c.CommandPath(), f.Shorthand)
				}
			case "out", "outdir", "out-dir":
				if !f.Hidden || len(f.Annotations[deprecatedAnnotation]) == 0 {
					t.Errorf("%s --%s is not a hidden deprecated alias of -o/--output", c.CommandPath(), f.Name)
				}
			}
			if f.Shorthand == "o" && f.Name != "output" {
				t.Errorf("%s -o is --%s, want --output", c.CommandPath(), f.Name)
			}
		})
	})
}

// TestOutputFlagAliases runs check and sample with the new and the old
// spelling: both write the file, the old one with a deprecation note.
func TestOutputFlagAliases(t *testing.T) {
	t.Parallel()
	ep := filepath.Join("..", "..", "activities", "examples", "tidying_the_living_room", "episodes", "poses.jsonl")
	for _, flag := range []string{"-o", "--output", "--out"} {
		t.Run("check "+flag, func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "r.jsonl")
			args := []string{"check", "--episode", ep, flag, out}
			r := runBDDL(t, args...)
			if r.code == exitMisuse {
				t.Fatalf("bddl %v: exit 2: %s", args, r.stderr)
			}
			if _, err := os.Stat(out); err != nil {
				t.Errorf("bddl %v wrote no results file: %v", args, err)
			}
			if dep := strings.Contains(r.stderr, "deprecated"); dep != (flag == "--out") {
				t.Errorf("bddl %v: deprecation note = %v, want %v\nstderr: %s", args, dep, flag == "--out", r.stderr)
			}
		})
	}
	t.Run("sample --out", func(t *testing.T) {
		t.Parallel()
		dir := t.TempDir()
		args := []string{"sample", "cleaning_shoes", "--out", dir}
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitOK)
		if !strings.Contains(r.stderr, "--out is deprecated and will be removed in the next release: use -o/--output") {
			t.Errorf("no deprecation note: %s", r.stderr)
		}
	})
}

// TestHelpTeachesCurrentSpellings: no command's help (long text, examples
// or flag usage) names a deprecated spelling, which would teach it.
func TestHelpTeachesCurrentSpellings(t *testing.T) {
	t.Parallel()
	old := regexp.MustCompile(`(^|[\s'"(\x60])--(out|outdir|out-dir)\b([^-]|$)`)
	walkCommands(newRootCmd(streams{}), func(c *cobra.Command) {
		texts := []string{c.Long, c.Example}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden {
				texts = append(texts, f.Usage)
			}
		})
		for _, text := range texts {
			if m := old.FindString(text); m != "" {
				t.Errorf("%s --help names the deprecated %q", c.CommandPath(), strings.TrimSpace(m))
			}
		}
	})
}
