package batch

import (
	"runtime"
	"sync"
)

// StreamWindow bounds how far workers run ahead of the oldest result not
// yet emitted: results waiting for an earlier, slower item (or for the
// producer to finish) are held in memory, at most this many.
const StreamWindow = 4096

// Stream runs work on the items produce yields while produce is still
// yielding, and hands each result to emit in item order as soon as it and
// every earlier one are done, so a command's memory holds a window of
// results, not all of them.
//
// produce runs on the calling goroutine; jobs workers (GOMAXPROCS when
// jobs <= 0; one fewer while produce runs, which has a core of its own)
// claim items in order from a shared counter, without a goroutine or
// channel handoff per item. newWorker is called once per worker and
// returns its work function, so a worker can keep scratch state (a read
// buffer) across items. emit is called by one worker at a time, never
// concurrently, in item order.
//
// Results are held until produce returns: when it fails, nothing has been
// emitted, and its error is returned once the workers have stopped. The
// first error of emit stops the claiming of items and is returned.
func Stream[T, R any](jobs int, produce func(yield func(T)) error, newWorker func() func(T) R, emit func(R) error) error {
	if jobs <= 0 {
		jobs = runtime.GOMAXPROCS(0)
	}
	s := &stream[T, R]{emit: emit, results: make([]R, 64), done: make([]bool, 64)}
	s.cond.L = &s.mu
	var wg sync.WaitGroup
	for range max(1, jobs-1) {
		wg.Go(func() { s.work(newWorker()) })
	}
	err := produce(func(item T) {
		s.mu.Lock()
		s.queue = append(s.queue, item)
		if s.waiting > 0 {
			s.cond.Signal()
		}
		s.mu.Unlock()
	})
	s.mu.Lock()
	s.produced = true
	if err != nil {
		s.stop(err)
	}
	s.cond.Broadcast()
	s.mu.Unlock()
	if err == nil {
		// The held results can go out now; then this goroutine works too.
		s.mu.Lock()
		s.emitReady()
		s.mu.Unlock()
		if jobs > 1 {
			s.work(newWorker())
		}
	}
	wg.Wait()
	return s.err
}

type stream[T, R any] struct {
	emit func(R) error

	mu       sync.Mutex
	cond     sync.Cond // items added, producer finished, window moved, stopped
	queue    []T       // items yielded and not yet claimed
	results  []R       // item i's result at i%len(results), once done, until emitted
	done     []bool
	next     int  // next item to claim (items before it are claimed)
	emitted  int  // results handed to emit
	emitting bool // a worker is in emitReady
	produced bool // produce has returned
	stopped  bool
	waiting  int // workers waiting on cond
	err      error
}

// stop ends the claiming of items; s.mu is held.
func (s *stream[T, R]) stop(err error) {
	if !s.stopped {
		s.stopped, s.err = true, err
		s.cond.Broadcast()
	}
}

func (s *stream[T, R]) work(fn func(T) R) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for !s.stopped && (len(s.queue) == 0 || s.next >= s.emitted+StreamWindow) {
			if s.produced && len(s.queue) == 0 {
				return
			}
			s.waiting++
			s.cond.Wait()
			s.waiting--
		}
		if s.stopped {
			return
		}
		if s.next >= s.emitted+len(s.results) {
			s.grow()
		}
		i := s.next
		s.next++
		item := s.queue[0]
		var zero T
		s.queue[0] = zero // let it be collected
		s.queue = s.queue[1:]
		s.mu.Unlock()
		r := fn(item)
		s.mu.Lock()
		s.results[i%len(s.results)], s.done[i%len(s.done)] = r, true
		s.emitReady()
	}
}

// emitReady emits the results that are next in order, unless another
// worker is already doing so (it will find them) or produce has not
// returned. s.mu is held, and released during each emit, so that other
// workers keep claiming and finishing items meanwhile.
func (s *stream[T, R]) emitReady() {
	if s.emitting || !s.produced {
		return
	}
	s.emitting = true
	moved := false
	for !s.stopped && s.done[s.emitted%len(s.done)] {
		i := s.emitted % len(s.done)
		r := s.results[i]
		var zero R
		s.results[i], s.done[i] = zero, false
		s.emitted++
		moved = true
		s.mu.Unlock()
		err := s.emit(r)
		s.mu.Lock()
		if err != nil {
			s.stop(err)
		}
	}
	s.emitting = false
	if moved && s.waiting > 0 {
		s.cond.Broadcast() // the window moved
	}
}

// grow doubles the ring of results, up to StreamWindow; s.mu is held.
func (s *stream[T, R]) grow() {
	n := min(2*len(s.results), StreamWindow)
	results, done := make([]R, n), make([]bool, n)
	for i := s.emitted; i < s.next; i++ {
		results[i%n], done[i%n] = s.results[i%len(s.results)], s.done[i%len(s.done)]
	}
	s.results, s.done = results, done
}
