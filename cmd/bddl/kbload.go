package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/openbddl/bddl/internal/b1klayout"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/kb"
)

// loadKB loads the knowledge base the run resolves to (resolveKB: --kb,
// $BDDL_KB, bddl.toml, the BEHAVIOR-1K tree around an input, the
// embedded default) and, unless --kb named it, prints one note saying
// which it is. Data errors are printed on stderr, each with its file and
// line; the returned error is for the caller to wrap as misuse (exit 2).
func (g *globalOptions) loadKB() (*kb.Base, error) {
	b, err := g.loadKBData()
	if err == nil {
		if err := g.guardEmbedded(b); err != nil {
			return nil, err
		}
		g.noteKB(g.resolveKB())
		return b, nil
	}
	var des kb.DataErrors
	if errors.As(err, &des) {
		for _, e := range des {
			fmt.Fprintln(g.err, e)
		}
		return nil, fmt.Errorf("knowledge base %s has %d data error%s", g.kbSource(), len(des), kbPlural(len(des)))
	}
	return nil, err
}

// loadKBData is loadKB returning data errors with the base, for kb check,
// which reports them rather than refusing the base.
func (g *globalOptions) loadKBData() (*kb.Base, error) {
	s := g.resolveKB()
	if s.value == "" {
		return kb.Default(), nil // noted by the caller, unless refused
	}
	g.noteKB(s)
	// Only a directory or a regular file is read: a FIFO or a device
	// would block or never end.
	if info, err := os.Stat(s.value); err == nil && !info.IsDir() && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("knowledge base %v", fsutil.NotRegular(s.value, info.Mode()))
	}
	if l := b1klayout.Recognise(s.value); l.Kind == b1klayout.PythonCode && l.Data != "" && g.started {
		fmt.Fprintf(g.err, "bddl: note: %s is the bddl package's Python code; reading its data, %s\n", s.value, l.Data)
	}
	b, err := kb.Load(s.value)
	if err != nil && s.source != "--kb" {
		err = fmt.Errorf("%s (from %s): %w", s.value, s.source, err)
	}
	return b, err
}

// noteKB prints, once a run (a process), which knowledge base is in use
// when nothing chose it explicitly: not for --kb, $BDDL_KB or bddl.toml's
// kb (bddl config shows those), only for one inferred from the inputs
// or the embedded default.
func (g *globalOptions) noteKB(s setting) {
	if g.kbNoted || !g.started || kbExplicit(g, s) {
		return
	}
	g.kbNoted = true
	if s.value == "" {
		fmt.Fprintf(g.err, "bddl: note: using the embedded example knowledge base (no --kb, $%s, %s or BEHAVIOR-1K tree around the inputs); "+
			"for BEHAVIOR-1K data give --kb <generated_data, the bddl package folder or the checkout>\n", kb.EnvVar, projectFileName)
		return
	}
	fmt.Fprintf(g.err, "bddl: note: using the knowledge base %s (from %s); --kb chooses another\n", s.value, s.source)
}

// kbExplicit reports whether the user chose the knowledge base: on the
// command line, in the environment or in the project file.
func kbExplicit(g *globalOptions, s setting) bool {
	return s.source == "--kb" || s.source == "$"+kb.EnvVar || (g.project != nil && s.source == g.project.Path)
}

// kbSource names the knowledge base in use, for messages.
func (g *globalOptions) kbSource() string {
	switch s := g.resolveKB(); {
	case s.value == "":
		return embeddedKB
	case s.source == "--kb":
		return s.value
	default:
		return s.value + " (" + s.source + ")"
	}
}

// embeddedKB is kbSource's name for the embedded example knowledge base.
const embeddedKB = "(embedded default)"

func kbPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
