//go:build unix

package serve

import (
	"os"
	"syscall"
)

// pollable returns a pipe given as standard output re-opened on the
// runtime's poller (non-blocking), anything else unchanged, so that a
// response is written with one write(2) that never waits (writeNow) and
// a client that does not read never blocks the reader (see server.emit).
// Standard input is not made pollable: a blocking read(2) on the
// reader's own thread answers a session step without the poller's
// epoll and futex wake-ups (measured: median round trip 102-110 µs on
// the poller, 76-78 µs blocking). Only pipes: a terminal's file
// description is shared with the shell and must stay blocking. restore puts the pipe back in
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

// writeNow writes b to a non-blocking f with one write(2) from the
// calling thread, never waiting on the poller: what the pipe cannot take
// now is left (errWouldBlock) for the writer goroutine. ok is false when
// f has no raw descriptor (the caller then writes with a deadline).
func writeNow(f *os.File, b []byte) (n int, err error, ok bool) {
	rc, cerr := f.SyscallConn()
	if cerr != nil {
		return 0, nil, false
	}
	var werr error
	cerr = rc.Write(func(fd uintptr) bool {
		n, werr = syscall.Write(int(fd), b)
		return true
	})
	if n < 0 {
		n = 0
	}
	switch {
	case cerr != nil:
		return n, cerr, true
	case werr == syscall.EAGAIN || (werr == nil && n < len(b)):
		return n, errWouldBlock, true
	}
	return n, werr, true
}
