//go:build unix

package batch

import "syscall"

// mkfifo makes a named pipe, for the tests of special files.
func mkfifoForTest(path string) error { return syscall.Mkfifo(path, 0o644) }

// signalSelf sends sig to this process (the interrupt tests).
func signalSelf(sig syscall.Signal) error { return syscall.Kill(syscall.Getpid(), sig) }
