package batch

import (
	"errors"
	"fmt"
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestStreamOrder: results are emitted in item order whatever order the
// workers finish them in, with any number of workers, for items yielded
// before and while workers run, more items than the window included.
func TestStreamOrder(t *testing.T) {
	for _, tt := range []struct{ jobs, n int }{{1, 0}, {1, 5}, {2, 100}, {8, 1000}, {3, StreamWindow*2 + 7}} {
		t.Run(fmt.Sprintf("jobs=%d,n=%d", tt.jobs, tt.n), func(t *testing.T) {
			var got []int
			err := Stream(tt.jobs, func(yield func(int)) error {
				for i := range tt.n {
					yield(i)
					if i%64 == 0 {
						runtime.Gosched() // let workers catch up and wait
					}
				}
				return nil
			}, func() func(int) int {
				return func(i int) int {
					if i%5 == 0 {
						time.Sleep(10 * time.Microsecond) // finish out of order
					}
					return i * 10
				}
			}, func(r int) error {
				got = append(got, r)
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.n {
				t.Fatalf("%d results, want %d", len(got), tt.n)
			}
			for i, r := range got {
				if r != i*10 {
					t.Fatalf("result %d = %d, want %d", i, r, i*10)
				}
			}
		})
	}
}

// TestStreamHoldsUntilProduced: nothing is emitted while produce runs, and
// nothing at all when it fails; its error is returned.
func TestStreamHoldsUntilProduced(t *testing.T) {
	var producing atomic.Bool
	emitted := 0
	emit := func(int) error {
		if producing.Load() {
			t.Error("emitted while producing")
		}
		emitted++
		return nil
	}
	worker := func() func(int) int { return func(i int) int { return i } }
	err := Stream(2, func(yield func(int)) error {
		producing.Store(true)
		defer producing.Store(false)
		for i := range 50 {
			yield(i)
		}
		time.Sleep(5 * time.Millisecond) // the workers finish meanwhile
		return nil
	}, worker, emit)
	if err != nil || emitted != 50 {
		t.Fatalf("err %v, %d emitted, want 50", err, emitted)
	}
	emitted = 0
	walkErr := errors.New("permission denied")
	err = Stream(2, func(yield func(int)) error {
		for i := range StreamWindow + 50 { // workers stop at the window
			yield(i)
		}
		return walkErr
	}, worker, emit)
	if err != walkErr || emitted != 0 {
		t.Fatalf("err %v, %d emitted, want %v and none", err, emitted, walkErr)
	}
}

// TestStreamStopsOnEmitError: the first error of emit is returned and
// no result is emitted after it.
func TestStreamStopsOnEmitError(t *testing.T) {
	boom := errors.New("broken pipe")
	emitted := 0
	err := Stream(2, func(yield func(int)) error {
		for i := range 1000 {
			yield(i)
		}
		return nil
	}, func() func(int) int { return func(i int) int { return i } }, func(int) error {
		if emitted++; emitted == 10 {
			return boom
		}
		return nil
	})
	if err != boom || emitted != 10 {
		t.Fatalf("err %v after %d emits, want %v after 10", err, emitted, boom)
	}
}

// TestStreamWindow: workers never run more than StreamWindow items ahead
// of the oldest result not emitted, however slow that one is.
func TestStreamWindow(t *testing.T) {
	var started, maxAhead atomic.Int64
	release := make(chan struct{})
	emitted := atomic.Int64{}
	go func() {
		// Let the other workers run as far as they may, then free item 0.
		for started.Load() < StreamWindow {
			time.Sleep(time.Millisecond)
		}
		time.Sleep(20 * time.Millisecond)
		close(release)
	}()
	err := Stream(4, func(yield func(int)) error {
		for i := range 3 * StreamWindow {
			yield(i)
		}
		return nil
	}, func() func(int) int {
		return func(i int) int {
			started.Add(1)
			ahead := int64(i) - emitted.Load()
			for m := maxAhead.Load(); ahead > m && !maxAhead.CompareAndSwap(m, ahead); m = maxAhead.Load() {
			}
			if i == 0 {
				<-release
			}
			return i
		}
	}, func(int) error {
		emitted.Add(1)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// The window moves when a result is handed to emit, just before the
	// emit callback counts it: a worker may claim the item W past the one
	// being emitted, so W ahead of the callback's count, never more.
	if m := maxAhead.Load(); m > StreamWindow {
		t.Errorf("a worker ran %d items ahead, window %d", m, StreamWindow)
	}
}
