package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/kb"
)

// loadKB loads the knowledge base the command line selects: --kb, else
// $BDDL_KB, else the embedded default. Data errors are printed on stderr,
// each with its file and line; the returned error is for the caller to
// wrap as misuse (exit 2).
func (g *globalOptions) loadKB() (*kb.Base, error) {
	// Only a directory or a regular file is read: a FIFO or a device
	// would block or never end.
	path := g.kbPath
	if path == "" {
		path = os.Getenv(kb.EnvVar)
	}
	if path != "" {
		if info, err := os.Stat(path); err == nil && !info.IsDir() && !info.Mode().IsRegular() {
			return nil, fmt.Errorf("knowledge base %v", fsutil.NotRegular(path, info.Mode()))
		}
	}
	b, err := kb.FromEnv(g.kbPath)
	if err == nil {
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

// kbSource names the knowledge base the flags and environment select,
// for messages.
func (g *globalOptions) kbSource() string {
	switch {
	case g.kbPath != "":
		return g.kbPath
	case os.Getenv(kb.EnvVar) != "":
		return os.Getenv(kb.EnvVar) + " ($" + kb.EnvVar + ")"
	}
	return embeddedKB
}

// embeddedKB is kbSource's name for the embedded example knowledge base.
const embeddedKB = "(embedded default)"

// noteEmbeddedKBFor says, on stderr, that the embedded example knowledge
// base is in use when the activity library given looks like BEHAVIOR-1K
// data (an activity_definitions tree), whose synsets it mostly lacks.
func (g *globalOptions) noteEmbeddedKBFor(library string) {
	if library == "" || g.kbSource() != embeddedKB {
		return
	}
	abs, _ := filepath.Abs(library)
	for _, part := range strings.Split(filepath.ToSlash(abs), "/") {
		if part == "activity_definitions" {
			fmt.Fprintf(g.err, "bddl: note: checking %s against the embedded example knowledge base; "+
				"for BEHAVIOR-1K data give --kb <knowledge_base dir> or set %s\n", library, kb.EnvVar)
			return
		}
	}
}

func kbPlural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
