package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"github.com/openbddl/bddl/internal/fsutil"
)

// lockOutput takes the lock 'bddl check -o' holds on a results file
// (an exclusive advisory lock on the file), so that a merge never
// replaces a file a running check is appending to. A file that does not
// exist yet needs none; anything but a regular file is refused. The
// returned function releases the lock.
func lockOutput(path string) (func(), error) {
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fsutil.NotRegular(path, info.Mode())
	}
	f, err := os.OpenFile(path, os.O_RDWR|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = fsutil.NotRegular(path, info.Mode())
		}
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
