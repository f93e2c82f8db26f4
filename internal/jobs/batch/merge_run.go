package batch

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/openbddl/bddl/internal/fsutil"
)

// LockResults takes the lock 'bddl check -o' holds on a results file
// (an exclusive advisory lock on the file), so that a merge never
// replaces a file a running check is appending to. A file that does not
// exist yet needs none; anything but a regular file is refused. The
// returned function releases the lock.
func LockResults(path string) (func(), error) {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil
	}
	f, err := fsutil.OpenRegularFile(path, os.O_RDWR, 0)
	if err != nil {
		return nil, err
	}
	switch err := fsutil.Lock(f); {
	case errors.Is(err, fsutil.ErrLocked):
		f.Close()
		return nil, fmt.Errorf("%s: another run is writing to this file (bddl check -o); wait for it to finish or choose another -o", path)
	case err != nil && !errors.Is(err, fsutil.ErrLockUnsupported):
		f.Close()
		return nil, fmt.Errorf("%s: locking: %w", path, err)
	}
	return func() { f.Close() }, nil
}

// MergeReport says where bddl results merge puts the merged lines and
// the summary: the lines to Output (already written there when it is
// set) or Stdout, the summary table to Stdout, or Stderr when the lines
// took Stdout; with JSON the lines go to Stdout instead of the summary.
type MergeReport struct {
	Files          int  // input files, for the closing note
	Output         bool // the lines were written to the -o file
	JSON           bool
	Stdout, Stderr io.Writer
}

// Report writes the merge as r says, then the closing note and what
// makes it incomplete on Stderr. failed is true when the merge is
// incomplete or an episode did not succeed.
func (m Merged) Report(r MergeReport) (failed bool, err error) {
	summary := r.Stdout
	if !r.Output && !r.JSON {
		if _, err := r.Stdout.Write(m.Lines()); err != nil {
			return false, err
		}
		summary = r.Stderr
	}
	if r.JSON {
		if _, err := r.Stdout.Write(m.Lines()); err != nil {
			return false, err
		}
	} else if err := WriteSummary(summary, m.Records, 0); err != nil {
		return false, err
	}
	fmt.Fprintf(r.Stderr, "merged %d %s into %d %s (%d %s dropped)\n", r.Files, plural(r.Files, "file", "files"),
		len(m.Records), plural(len(m.Records), "episode", "episodes"), m.Duplicates, plural(m.Duplicates, "duplicate", "duplicates"))
	if !m.Complete() {
		for _, p := range m.Problems {
			fmt.Fprintf(r.Stderr, "bddl: incomplete: %s\n", p)
		}
		return true, nil
	}
	for _, rec := range m.Records {
		if !rec.Success {
			return true, nil
		}
	}
	return false, nil
}
