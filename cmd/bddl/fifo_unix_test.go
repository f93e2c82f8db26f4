//go:build unix

package main

import "syscall"

func mkfifoForTest(path string) error { return syscall.Mkfifo(path, 0o644) }
