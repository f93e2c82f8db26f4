package kbresolve

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/openbddl/bddl/internal/b1klayout"
	"github.com/openbddl/bddl/internal/config"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/kb"
)

// Loader loads the knowledge base Inputs resolve to, with its notes on
// Err.
type Loader struct {
	Inputs
	Started bool      // the command's hooks ran: notes may be printed
	Noted   *bool     // the note was printed (once a process)
	Err     io.Writer // notes and data errors
}

// Load loads the knowledge base the run resolves to and, unless --kb
// named it, prints one note saying which it is. Data errors are printed
// on Err, each with its file and line; a definition the embedded default
// cannot serve is a *Refusal (Guard). The error is for the caller to
// report as misuse.
func (l Loader) Load() (*kb.Base, error) {
	b, err := l.LoadData()
	if err == nil {
		if err := Guard(l.Inputs, b); err != nil {
			return nil, err
		}
		l.Note(l.KB())
		return b, nil
	}
	var des kb.DataErrors
	if errors.As(err, &des) {
		for _, e := range des {
			fmt.Fprintln(l.Err, e)
		}
		s := "s"
		if len(des) == 1 {
			s = ""
		}
		return nil, fmt.Errorf("knowledge base %s has %d data error%s", l.Source(), len(des), s)
	}
	return nil, err
}

// LoadData is Load returning data errors with the base, for kb check,
// which reports them rather than refusing the base.
func (l Loader) LoadData() (*kb.Base, error) {
	s := l.KB()
	if s.Value == "" {
		return kb.Default(), nil // noted by the caller, unless refused
	}
	l.Note(s)
	// Only a directory or a regular file is read: a FIFO or a device
	// would block or never end.
	if info, err := os.Stat(s.Value); err == nil && !info.IsDir() && !info.Mode().IsRegular() {
		return nil, fmt.Errorf("knowledge base %v", fsutil.NotRegular(s.Value, info.Mode()))
	}
	if lay := b1klayout.Recognise(s.Value); lay.Kind == b1klayout.PythonCode && lay.Data != "" && l.Started {
		fmt.Fprintf(l.Err, "bddl: note: %s is the bddl package's Python code; reading its data, %s\n", s.Value, lay.Data)
	}
	b, err := kb.Load(s.Value)
	if err != nil && s.Source != "--kb" {
		err = fmt.Errorf("%s (from %s): %w", s.Value, s.Source, err)
	}
	return b, err
}

// Note prints, once a run (a process), which knowledge base is in use
// when nothing chose it explicitly: not for --kb, $BDDL_KB or bddl.toml's
// kb (bddl config shows those), only for one inferred from the inputs
// or the embedded default.
func (l Loader) Note(s Setting) {
	if l.Noted == nil || *l.Noted || !l.Started || l.Explicit(s) {
		return
	}
	*l.Noted = true
	if s.Value == "" {
		fmt.Fprintf(l.Err, "bddl: note: using the embedded example knowledge base (no --kb, $%s, %s or BEHAVIOR-1K tree around the inputs); "+
			"for BEHAVIOR-1K data give --kb <generated_data, the bddl package folder or the checkout>\n", kb.EnvVar, config.FileName)
		return
	}
	fmt.Fprintf(l.Err, "bddl: note: using the knowledge base %s (from %s); --kb chooses another\n", s.Value, s.Source)
}
