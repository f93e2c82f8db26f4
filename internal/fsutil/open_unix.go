//go:build unix

package fsutil

import "syscall"

// nonBlock opens a FIFO without blocking; the caller then refuses
// anything but a regular file, on which O_NONBLOCK has no effect.
const nonBlock = syscall.O_NONBLOCK
