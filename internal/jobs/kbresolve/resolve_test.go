package kbresolve

import (
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/config"
	"github.com/openbddl/bddl/kb"
)

// TestKBOrder: --kb wins over $BDDL_KB, which wins over bddl.toml, which
// wins over the installed package; nothing is the embedded default.
func TestKBOrder(t *testing.T) {
	proj := &config.Project{Path: "/p/bddl.toml", KB: "/p/kb"}
	for _, c := range []struct {
		name, env, fallback string
		in                  Inputs
		want                Setting
	}{
		{"flag", "/env", "/inst", Inputs{Flag: "/flag", Project: proj}, Setting{"/flag", "--kb"}},
		{"env", "/env", "/inst", Inputs{Project: proj}, Setting{"/env", "$" + kb.EnvVar}},
		{"project", "", "/inst", Inputs{Project: proj}, Setting{"/p/kb", "/p/bddl.toml"}},
		{"installed", "", "/inst", Inputs{}, Setting{"/inst", "the installed bddl package ($" + FallbackEnvVar + ")"}},
		{"none", "", "", Inputs{}, Setting{"", SourceNone}},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv(kb.EnvVar, c.env)
			t.Setenv(FallbackEnvVar, c.fallback)
			if got := c.in.KB(); got != c.want {
				t.Errorf("KB() = %+v, want %+v", got, c.want)
			}
			if got, want := c.in.Explicit(c.in.KB()), c.name == "flag" || c.name == "env" || c.name == "project"; got != want {
				t.Errorf("Explicit = %v, want %v", got, want)
			}
		})
	}
}

// TestRefusal: the message names the file, at most four synsets with the
// count, and what to give instead.
func TestRefusal(t *testing.T) {
	t.Parallel()
	msg := (&Refusal{Path: "x.bddl", Unknown: []string{"a.n.01", "b.n.01", "c.n.01", "d.n.01", "e.n.01"}}).Error()
	for _, want := range []string{"x.bddl declares synsets", "a.n.01, b.n.01, c.n.01, d.n.01, … 5 in all", "give --kb", config.FileName} {
		if !strings.Contains(msg, want) {
			t.Errorf("Refusal = %q, want it to contain %q", msg, want)
		}
	}
	if strings.Contains(msg, "e.n.01") {
		t.Errorf("Refusal = %q: lists more than four synsets", msg)
	}
}
