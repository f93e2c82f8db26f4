package cliflag

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

func newCmd() *cobra.Command {
	root := &cobra.Command{Use: "bddl"}
	root.PersistentFlags().String("kb", "", "")
	c := &cobra.Command{Use: "sample", RunE: func(*cobra.Command, []string) error { return nil }}
	var out string
	AddOutput(c.Flags(), &out, "", "output", "out")
	c.Flags().String("format", "text", "")
	root.AddCommand(c)
	return c
}

func TestAddOutputDeprecatesOldSpelling(t *testing.T) {
	t.Parallel()
	c := newCmd()
	if f := c.Flags().Lookup("output"); f == nil || f.Shorthand != "o" {
		t.Fatalf("--output = %v, want shorthand o", f)
	}
	old := c.Flags().Lookup("out")
	if old == nil || !old.Hidden || len(old.Annotations[DeprecatedAnnotation]) == 0 {
		t.Fatalf("--out = %+v, want a hidden deprecated alias", old)
	}
	if err := c.Flags().Parse([]string{"--out", "x"}); err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	DeprecationNotes(c, &w)
	if want := "bddl: note: --out is deprecated and will be removed in the next release: use -o/--output\n"; w.String() != want {
		t.Errorf("DeprecationNotes = %q, want %q", w.String(), want)
	}
}

func TestUnknown(t *testing.T) {
	t.Parallel()
	c := newCmd()
	for _, tc := range []struct {
		name, err, want string
	}{
		{"close local flag", "unknown flag: --formt", "unknown flag: --formt; did you mean --format?"},
		{"inherited flag", "unknown flag: --kbb", "unknown flag: --kbb; did you mean --kb?"},
		{"nothing close", "unknown flag: --zzzzzzzz", "unknown flag: --zzzzzzzz (see 'bddl sample --help')"},
		{"not an unknown flag", "bad value", "bad value"},
	} {
		got := Unknown(c, errors.New(tc.err), []string{"output", "format"}).Error()
		if got != tc.want {
			t.Errorf("%s: Unknown(%q) = %q, want %q", tc.name, tc.err, got, tc.want)
		}
	}
}

func TestArgs(t *testing.T) {
	t.Parallel()
	c := newCmd()
	for _, tc := range []struct {
		name string
		args cobra.PositionalArgs
		n    int
		want string // "" for no error
	}{
		{"min met", MinArgs(1, "a path"), 1, ""},
		{"min missing", MinArgs(1, "a path"), 0, "bddl sample needs a path (see 'bddl sample --help')"},
		{"exact met", ExactArgs(1, "a rule"), 1, ""},
		{"exact missing", ExactArgs(1, "a rule"), 0, "bddl sample needs a rule (see 'bddl sample --help')"},
		{"exact too many", ExactArgs(1, "a rule"), 3, "bddl sample takes a rule, not 3 arguments"},
	} {
		err := tc.args(c, make([]string, tc.n))
		if got := errString(err); got != tc.want {
			t.Errorf("%s: error %q, want %q", tc.name, got, tc.want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

func TestGroup(t *testing.T) {
	t.Parallel()
	g := Group(&cobra.Command{Use: "episode"})
	g.AddCommand(&cobra.Command{Use: "synth", Run: func(*cobra.Command, []string) {}})
	if err := g.Args(g, nil); err != nil {
		t.Errorf("no argument: %v", err)
	}
	err := g.Args(g, []string{"synt"})
	if err == nil || !strings.Contains(err.Error(), `unknown command "synt" for "episode"`) || !strings.Contains(err.Error(), "Did you mean this?\n\tsynth") {
		t.Errorf("unknown subcommand: %v", err)
	}
}

func TestInsertParagraph(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text, at, want string
	}{
		{"before", "a\n\n--out FILE b", "--out FILE", "a\n\nP\n\n--out FILE b"},
		{"at the end", "a\n\nb", "--out FILE", "a\n\nb\n\nP"},
	} {
		if got := InsertParagraph(tc.text, tc.at, "P"); got != tc.want {
			t.Errorf("%s: InsertParagraph = %q, want %q", tc.name, got, tc.want)
		}
	}
}
