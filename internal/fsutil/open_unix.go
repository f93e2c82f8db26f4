//go:build unix

package fsutil

import (
	"os"
	"syscall"
)

// openNonBlocking opens path read-only without blocking on a FIFO; the
// caller then refuses anything but a regular file, on which O_NONBLOCK
// has no effect.
func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
