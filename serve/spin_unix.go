//go:build unix

package serve

import (
	"io"
	"os"
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// spinReader reads standard input after polling it for a short while
// (without blocking) when the client has been sending its requests
// quickly: a client in a tight loop (a rollout, an episode checked step by
// step) sends its next request a few microseconds after reading a
// response, and a reader already awake takes it without the wake-up of a
// thread blocked in read(2), which on a loaded or virtual machine is most
// of a round trip (measured in docs/python.md). The spin is adaptive: it
// happens only when the previous request came within the window, so a
// client that steps at simulator speed (milliseconds apart) costs no
// spinning beyond one window after a fast burst.
//
// Nor does it happen where the other processes leave no processor to
// poll on (contention; where that cannot be read, machineBusy: the load
// average; looked at at most once a second): there the polling thread
// takes the processor the client needs, and a group step of 16 cost up
// to twice as much with both sides polling as with neither
// (docs/python.md).
type spinReader struct {
	f       *os.File
	window  time.Duration
	fast    bool // the previous read found data within the window
	busy    bool // no processor to poll on when last asked
	checked time.Time
	every   time.Duration // between looks (a tenth of a second while the first is not decided)
	others  *contention
	fds     [1]unix.PollFd
}

// newSpinReader returns in itself unless it is a file that can be polled
// and window is positive.
func newSpinReader(in io.Reader, window time.Duration) io.Reader {
	f, ok := in.(*os.File)
	if !ok || window <= 0 {
		return in
	}
	r := &spinReader{f: f, window: window, fast: true, every: time.Second, others: newContention(os.Getppid(), runtime.NumCPU(), readProc)}
	r.fds[0] = unix.PollFd{Fd: int32(f.Fd()), Events: unix.POLLIN}
	return r
}

func (r *spinReader) Read(p []byte) (int, error) {
	start := time.Now()
	if start.Sub(r.checked) > r.every {
		r.checked, r.busy = start, r.look()
	}
	if r.fast && !r.busy {
		for {
			if n, err := unix.Poll(r.fds[:], 0); n > 0 || (err != nil && err != unix.EINTR) {
				break
			}
			if time.Since(start) > r.window {
				break
			}
		}
	}
	n, err := r.f.Read(p)
	r.fast = time.Since(start) <= r.window
	return n, err
}

// look is whether the other processes leave no processor to poll on
// (contention); an undecided look keeps the last answer and is taken
// again a tenth of a second later; where /proc cannot be read, the load
// average decides (machineBusy).
func (r *spinReader) look() bool {
	busy, known := r.others.busy()
	switch {
	case known:
		r.every = time.Second
		return busy
	case r.others.available():
		r.every = time.Second / 10
		return r.busy
	}
	r.every = time.Second
	return machineBusy()
}
