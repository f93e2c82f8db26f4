//go:build !unix

package batch

import (
	"errors"
	"syscall"
)

// mkfifo: no named pipes here; the tests that need one skip.
func mkfifoForTest(string) error { return errors.ErrUnsupported }

// signalSelf: no signals to itself here; the interrupt tests fail.
func signalSelf(syscall.Signal) error { return errors.ErrUnsupported }
