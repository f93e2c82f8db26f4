//go:build !unix

package main

import (
	"errors"
	"syscall"
)

func mkfifoForTest(string) error { return errors.New("no FIFOs") }

// signalSelf: no signals to itself here; the interrupt tests fail.
func signalSelf(syscall.Signal) error { return errors.ErrUnsupported }
