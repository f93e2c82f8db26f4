package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/kb"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestCompletionFindsNamesAsCommandsDo: an activity name a command
// resolves (through bddl.toml's activities) completes too.
func TestCompletionFindsNamesAsCommandsDo(t *testing.T) {
	t.Setenv(configEnvVar, "")
	t.Setenv("BDDL_KB", "")
	dir := t.TempDir()
	def := filepath.Join(dir, "defs", "cook_bacon_at_home", "problem0.bddl")
	if err := os.MkdirAll(filepath.Dir(def), 0o755); err != nil {
		t.Fatal(err)
	}
	src := readFile(t, filepath.Join("..", "..", "activities", "examples", "cleaning_shoes", "problem0.bddl"))
	if err := os.WriteFile(def, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, projectFileName), []byte("activities = \"defs\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := runBDDLIn(t, dir, "explain", "cook_bacon_at_home"); r.code != exitOK {
		t.Fatalf("explain cook_bacon_at_home: exit %d\n%s", r.code, r.stderr)
	}
	r := runBDDLIn(t, dir, "__complete", "check", "--activity", "cook_ba")
	if !strings.Contains(r.stdout, "cook_bacon_at_home\n") {
		t.Errorf("check --activity cook_ba<TAB> offers:\n%s", r.stdout)
	}
}

// TestHelpAndHints: the completion command has examples, kb --help says
// where the knowledge base comes from (bddl.toml included), and a name
// not found by a command without --activity is not told to use it.
func TestHelpAndHints(t *testing.T) {
	t.Parallel()
	if r := runBDDL(t, "completion", "--help"); !strings.Contains(r.stdout, "Examples:") || !strings.Contains(r.stdout, "bddl completion bash") {
		t.Errorf("completion --help has no examples:\n%s", r.stdout)
	}
	if r := runBDDL(t, "kb", "--help"); !strings.Contains(r.stdout, "bddl.toml") || !strings.Contains(r.stdout, "$BDDL_KB") {
		t.Errorf("kb --help does not say where the knowledge base comes from:\n%s", r.stdout)
	}
	r := runBDDL(t, "episode", "from-init", "no_such_activity", "-o", filepath.Join(t.TempDir(), "x.jsonl"))
	if r.code != exitMisuse || strings.Contains(r.stderr, "--activity ") || !strings.Contains(r.stderr, "a problem file's path") {
		t.Errorf("episode from-init no_such_activity: exit %d, stderr %q", r.code, r.stderr)
	}
}

// TestSamplerDocsFirstCommands: docs/sampler.md's first commands do what
// the page says: the sample writes the file it names and the drawing it
// shows, and the check it suggests, check --init, passes on it.
func TestSamplerDocsFirstCommands(t *testing.T) {
	t.Parallel()
	doc := string(readFile(t, filepath.Join("..", "..", "docs", "sampler.md")))
	const named = "samples/tidying_the_living_room/Small_house_0-0-0.jsonl"
	if !strings.Contains(doc, "bddl sample tidying_the_living_room -o samples/ --svg\n") ||
		!strings.Contains(doc, "bddl check --init samples/") || !strings.Contains(doc, named) {
		t.Fatal("docs/sampler.md's first commands changed: update this test")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "samples")
	args := []string{"sample", "tidying_the_living_room", "-o", out, "--svg"}
	runBDDL(t, args...).wantCode(t, args, exitOK)
	ep := filepath.Join(dir, filepath.FromSlash(named))
	if _, err := os.Stat(ep); err != nil {
		t.Fatalf("the page names %s, which the command did not write: %v", named, err)
	}
	svg := readFile(t, strings.TrimSuffix(ep, ".jsonl")+".svg")
	if string(svg) != string(readFile(t, filepath.Join("..", "..", "docs", "sample-tidying_the_living_room.svg"))) {
		t.Error("the drawing the page shows is not the one the command writes")
	}
	args = []string{"check", "--init", out}
	runBDDL(t, args...).wantCode(t, args, exitOK)
}

// TestDocsFacts: figures and references the docs state hold: the
// embedded knowledge base's synset count, and no page sends the reader
// to a README section by name (the README keeps no reference sections).
func TestDocsFacts(t *testing.T) {
	t.Parallel()
	kbDoc := string(readFile(t, filepath.Join("..", "..", "docs", "kb.md")))
	want := fmt.Sprintf("has %d synsets", kb.Default().NumSynsets())
	if !strings.Contains(kbDoc, want) {
		t.Errorf("docs/kb.md does not say the embedded default %s", want)
	}
	pages, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	for _, p := range pages {
		text := string(readFile(t, p))
		for _, bad := range []string{"README, *", "in the README)", "README.md#"} {
			if strings.Contains(text, bad) {
				t.Errorf("%s refers to a README section (%q): link the docs page instead", filepath.Base(p), bad)
			}
		}
	}
}

// TestHelpNamesUsersPaths: no command's help or examples name
// ../shared, a folder only this repository's developers have.
func TestHelpNamesUsersPaths(t *testing.T) {
	t.Parallel()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, text := range []string{c.Short, c.Long, c.Example} {
			if strings.Contains(text, "../shared") {
				t.Errorf("bddl %s's help names ../shared", strings.TrimPrefix(c.CommandPath(), "bddl "))
			}
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if strings.Contains(f.Usage, "../shared") {
				t.Errorf("bddl %s --%s names ../shared", strings.TrimPrefix(c.CommandPath(), "bddl "), f.Name)
			}
		})
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(newRootCmd(streams{}))
}
