package serve

import (
	"fmt"
	"os"
	"os/signal"
	"time"
)

// CheckLimits reports the first limit out of its range, in the words of
// bddl serve's flags.
func (o *Options) CheckLimits() error {
	switch {
	case o.MaxLine < 1<<10:
		return fmt.Errorf("--max-line %d: at least 1024 bytes", o.MaxLine)
	case o.MaxSessions < 1:
		return fmt.Errorf("--max-sessions %d: at least 1", o.MaxSessions)
	case o.MaxQueued < int64(o.MaxLine):
		return fmt.Errorf("--max-queued %d: at least --max-line (%d)", o.MaxQueued, o.MaxLine)
	case o.MaxResponse < 1<<10:
		return fmt.Errorf("--max-response %d: at least 1024 bytes", o.MaxResponse)
	case o.Spin < 0 || o.Spin > time.Second:
		return fmt.Errorf("--spin %v: between 0 and 1s", o.Spin)
	}
	return nil
}

// Detach makes the process a server of its parent: Ctrl-C in the
// parent's terminal reaches the server too, but the parent decides when
// the server ends (by closing its input), so SIGINT is ignored; and the
// process exits when its parent dies. stop ends the watch.
func Detach() (stop func()) {
	signal.Ignore(os.Interrupt)
	return watchParent(os.Getppid(), time.Second)
}

// watchParent exits the process when its parent dies (it is re-parented):
// standard input does not end when a forked sibling still holds the
// pipe's other end. PR_SET_PDEATHSIG is not used: it fires when the
// parent *thread* that started the server ends, which in Python is any
// thread that happened to start the engine.
func watchParent(parent int, every time.Duration) (stop func()) {
	done := make(chan struct{})
	if parent <= 1 {
		return func() {}
	}
	go func() {
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				if os.Getppid() != parent {
					os.Exit(0)
				}
			}
		}
	}()
	return func() { close(done) }
}
