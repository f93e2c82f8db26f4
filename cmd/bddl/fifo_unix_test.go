//go:build unix

package main

import "syscall"

func mkfifoForTest(path string) error { return syscall.Mkfifo(path, 0o644) }

// signalSelf sends sig to this process (the interrupt tests).
func signalSelf(sig syscall.Signal) error { return syscall.Kill(syscall.Getpid(), sig) }
