package format

import (
	"bytes"
	"fmt"
	"io"

	"github.com/aymanbagabas/go-udiff"

	"github.com/openbddl/bddl/internal/fsutil"
)

// Mode is what is done with a file's canonical layout.
type Mode int

const (
	Print Mode = iota // the formatted text on Out
	List              // only the names of the files that would change
	Check             // as List; the run fails when one would change
	Diff              // a unified diff of each file that would change
	Write             // rewrite the files that would change
)

// Formatter handles one file after another and sums the run up.
type Formatter struct {
	Mode Mode
	// ListToo lists the files that change in Write mode (-l -w).
	ListToo  bool
	Out, Err io.Writer

	Changed bool // a file's layout differs from its canonical one
	Failed  bool // a file could not be rewritten
}

// File handles a file whose text is src and canonical layout out.
func (f *Formatter) File(path string, src, out []byte) {
	differs := !bytes.Equal(src, out)
	f.Changed = f.Changed || differs
	if differs && (f.Mode == List || f.Mode == Check || f.ListToo) {
		fmt.Fprintln(f.Out, path)
	}
	switch f.Mode {
	case Diff:
		if differs {
			fmt.Fprint(f.Out, udiff.Unified(path, path+" (formatted)", string(src), string(out)))
		}
	case Write:
		if differs {
			if err := fsutil.WriteFileAtomic(path, out); err != nil {
				fmt.Fprintln(f.Err, "bddl:", err)
				f.Failed = true
			}
		}
	case Print:
		f.Out.Write(out)
	}
}

// Findings reports whether the run found something to exit 1 for: a
// failure, or with Diff and Check a file that would change.
func (f *Formatter) Findings() bool {
	return f.Failed || f.Changed && (f.Mode == Diff || f.Mode == Check)
}
