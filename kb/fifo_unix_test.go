//go:build unix

package kb

import "syscall"

// mkfifo makes a named pipe, for the tests of special files.
func mkfifoForTest(path string) error { return syscall.Mkfifo(path, 0o644) }
