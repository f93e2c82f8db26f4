package batch

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/openbddl/bddl/internal/fsutil"
)

// ExitInterrupted is the exit status of a run stopped by a signal, as a
// shell reports a process killed by SIGINT.
const ExitInterrupted = 130

// exit is os.Exit; tests replace it.
var exit = os.Exit

// WithSignals returns a context cancelled by the first SIGINT or
// SIGTERM, so a batch finishes the line it is writing and stops. A
// second signal exits at once with status 130, whatever is blocked.
// stop releases the signals.
func WithSignals(parent context.Context, errw io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(parent)
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-ch:
			cancel()
		case <-done:
			return
		}
		select {
		case <-ch:
			fmt.Fprintln(errw, "bddl: interrupted again: exiting now")
			exit(ExitInterrupted)
		case <-done:
		}
	}()
	var once sync.Once
	return ctx, func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
			cancel()
		})
	}
}

// ReadArg is fsutil.ReadArg that returns as soon as ctx is done, even
// while the read is blocked (a pipe nobody writes to).
func ReadArg(ctx context.Context, path string, stdin io.Reader, limit int64) ([]byte, error) {
	type result struct {
		data []byte
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		b, err := fsutil.ReadArg(path, stdin, limit)
		ch <- result{b, err}
	}()
	select {
	case r := <-ch:
		return r.data, r.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
