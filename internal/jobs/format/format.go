package format

import (
	"bytes"
	"fmt"
	"io"

	"github.com/aymanbagabas/go-udiff"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
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

// Files formats the inputs one after another (each parsed in parallel
// and let go of before the next, so memory does not grow with the number
// of files: -l over 100,000 files took 1.4 GB). A file that cannot be
// read or has syntax errors is reported on Err and left alone. It
// reports whether the run has findings: such a file, or one that would
// change under Check and Diff.
func (f *Formatter) Files(ins []batch.Input, stdin io.Reader, opts bddl.Options) (findings bool) {
	failed := false
	batch.EachParsed(ins, stdin, opts, func(r batch.Parsed) {
		if r.Err != nil {
			fmt.Fprintln(f.Err, r.Err)
			failed = true
			return
		}
		if r.Diags.HasErrors() {
			r.Diags.WriteText(f.Err)
			failed = true
			return
		}
		defer r.File.Release()
		f.File(r.Path, r.File.Source.Text, bddl.Format(r.File))
	})
	return failed || f.Findings()
}

// CheckInputs refuses inputs the mode cannot take: standard input to
// rewrite.
func (f *Formatter) CheckInputs(ins []batch.Input) error {
	for _, in := range ins {
		if f.Mode == Write && in.Path == batch.Stdin {
			return batch.Usage("-w cannot rewrite standard input")
		}
	}
	return nil
}
