//go:build unix

package main

import (
	"os"
	"syscall"
)

// pollable returns a pipe given as standard input or output re-opened on
// the runtime's poller (non-blocking), anything else unchanged. A read
// blocked on a blocking pipe holds its thread and processor until the
// scheduler's monitor takes the processor back; on the poller the reader
// parks at once, and responses can be written with a deadline (see
// server.emit). Only pipes: a terminal's file description is shared with
// the shell and must stay blocking. restore puts the pipe back in
// blocking mode (its description may be shared with the processes of a
// shell pipeline that go on after the server).
func pollable(v any) (f *os.File, restore func(), ok bool) {
	f, ok = v.(*os.File)
	// Only the process's own: another *os.File's finalizer would close
	// the descriptor the new one uses.
	if !ok || (f != os.Stdin && f != os.Stdout) {
		return nil, nil, false
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		return nil, nil, false
	}
	fd := int(f.Fd()) // Fd puts f in blocking mode: set non-blocking after
	if syscall.SetNonblock(fd, true) != nil {
		return nil, nil, false
	}
	return os.NewFile(uintptr(fd), f.Name()), func() { _ = syscall.SetNonblock(fd, false) }, true
}
