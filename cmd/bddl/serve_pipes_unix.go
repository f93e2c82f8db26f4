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
// parks at once and the response writer runs without that wait, which is
// most of a session step's round trip. Only pipes: a terminal's file
// description is shared with the shell and must stay blocking.
func pollable(v any) (*os.File, bool) {
	f, ok := v.(*os.File)
	// Only the process's own: another *os.File's finalizer would close
	// the descriptor the new one uses.
	if !ok || (f != os.Stdin && f != os.Stdout) {
		return nil, false
	}
	info, err := f.Stat()
	if err != nil || info.Mode()&os.ModeNamedPipe == 0 {
		return nil, false
	}
	fd := int(f.Fd()) // Fd puts f in blocking mode: set non-blocking after
	if syscall.SetNonblock(fd, true) != nil {
		return nil, false
	}
	return os.NewFile(uintptr(fd), f.Name()), true
}
