package batch

import (
	"context"
	"runtime"
	"sync"
)

// Pool configures Run.
type Pool struct {
	// Jobs is the number of workers (default: GOMAXPROCS).
	Jobs int
	// Progress, when not nil, counts finished items and is cleared
	// before each Ordered call, so lines printed there never mix with
	// the bar.
	Progress *Progress
}

// Handlers receive a Run's results on the goroutine that called Run.
type Handlers[R any] struct {
	// Completed is called for each kept result as soon as it is done, in
	// completion order: record it where an interrupted run must find it
	// (a results file).
	Completed func(i int, r R) error
	// Ordered is called for each kept result in item order: print it.
	Ordered func(i int, r R) error
}

// Run calls work for each item on p.Jobs workers and hands the results
// to h. work returns keep=false for a result that is not one (an item
// cut short by cancellation): it is dropped, and later items are not
// held back by it. Cancelling ctx stops handing out items; work is
// expected to return soon after. The first error of a handler cancels
// the rest and is returned.
func Run[T, R any](ctx context.Context, p Pool, items []T, work func(ctx context.Context, item T) (r R, keep bool), h Handlers[R]) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := len(items)
	jobs := max(1, min(p.Jobs, n))
	if p.Jobs <= 0 {
		jobs = max(1, min(runtime.GOMAXPROCS(0), n))
	}
	type done struct {
		i    int
		r    R
		keep bool
	}
	next := make(chan int)
	out := make(chan done)
	var wg sync.WaitGroup
	for range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				r, keep := work(ctx, items[i])
				out <- done{i, r, keep}
			}
		}()
	}
	go func() {
		defer close(next)
		for i := range n {
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() {
		wg.Wait()
		close(out)
	}()

	var firstErr error
	fail := func(err error) {
		if err != nil && firstErr == nil {
			firstErr = err
			cancel()
		}
	}
	results := make([]R, n)
	state := make([]uint8, n) // 0 pending, 1 kept, 2 dropped
	printed := 0
	flush := func() {
		for printed < n && state[printed] != 0 {
			if state[printed] == 1 && h.Ordered != nil && firstErr == nil {
				p.Progress.Clear()
				fail(h.Ordered(printed, results[printed]))
				p.Progress.Redraw()
			}
			var zero R
			results[printed] = zero // let it be collected
			printed++
		}
	}
	for d := range out {
		p.Progress.Add(1)
		if !d.keep {
			state[d.i] = 2
			flush()
			continue
		}
		if h.Completed != nil && firstErr == nil {
			fail(h.Completed(d.i, d.r))
		}
		results[d.i], state[d.i] = d.r, 1
		flush()
	}
	// Items never handed out (cancelled) leave gaps: print what is after.
	for i := printed; i < n; i++ {
		if state[i] == 1 && h.Ordered != nil && firstErr == nil {
			p.Progress.Clear()
			fail(h.Ordered(i, results[i]))
		}
	}
	p.Progress.Finish()
	return firstErr
}
