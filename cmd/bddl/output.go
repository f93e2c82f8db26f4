package main

import (
	"fmt"
	"os"

	"github.com/openbddl/bddl/internal/fsutil"
)

// Outputs are regular files (or directories of them): /dev/null, a FIFO
// or a device given as -o is refused before anything is written, and a
// directory that cannot be written is an output error at once, not a
// failure of every item written into it.

// createOutput creates (or truncates) the regular file path for writing;
// an existing path that is not a regular file is refused, and a FIFO put
// in its place is never opened for writing in a way that blocks.
func createOutput(path string) (*os.File, error) {
	return fsutil.OpenRegularFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
}

// checkOutputDir makes dir if needed and checks that files can be
// created in it.
func checkOutputDir(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if info, err := os.Stat(dir); err != nil {
		return err
	} else if !info.IsDir() {
		return fmt.Errorf("%s: not a directory", dir)
	}
	f, err := os.CreateTemp(dir, ".bddl-write-check-*")
	if err != nil {
		return fmt.Errorf("%s: cannot write there: %w", dir, err)
	}
	name := f.Name()
	f.Close()
	return os.Remove(name)
}
