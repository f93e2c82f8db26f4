package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/openbddl/bddl/internal/fsutil"
)

// lockOutput takes the lock 'bddl check -o' holds on a results file
// (an exclusive advisory lock on the file), so that a merge never
// replaces a file a running check is appending to. A file that does not
// exist yet needs none; anything but a regular file is refused. The
// returned function releases the lock.
func lockOutput(path string) (func(), error) {
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
