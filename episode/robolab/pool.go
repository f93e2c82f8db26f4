package robolab

import (
	"os"
	"slices"
	"sync"
	"time"
)

// The demos of one run file are episodes of their own, opened one by one
// (and several at once with --jobs). Opening the file reads its whole
// group tree, so opening it per demo made reading a file of n demos cost
// n² (150 demos: 8 s). OpenDemo shares one open Run per file instead,
// closed when its last demo is; the library's calls on it are serialized
// by the run's lock (it keeps state between calls). The batch opens a
// file's demos one after the other, so the last few runs released stay
// open (idle) for the next demo.
var pool = struct {
	sync.Mutex
	runs map[poolKey]*Run
	idle []*Run // oldest first
}{runs: map[poolKey]*Run{}}

// maxIdle is the number of released runs kept open.
const maxIdle = 4

// poolKey identifies a file's version: a file rewritten between two
// demos is opened anew.
type poolKey struct {
	path  string
	size  int64
	mtime time.Time
}

// acquire returns the shared open Run of path, opening it when none is.
func acquire(path string) (*Run, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	key := poolKey{path: path, size: info.Size(), mtime: info.ModTime()}
	pool.Lock()
	defer pool.Unlock()
	if r := pool.runs[key]; r != nil {
		if r.refs == 0 {
			pool.idle = slices.DeleteFunc(pool.idle, func(x *Run) bool { return x == r })
		}
		r.refs++
		return r, nil
	}
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	r.shared, r.refs, r.key = true, 1, key
	pool.runs[key] = r
	return r, nil
}

// release drops a reference to a shared run, closing it with the last.
func (r *Run) release() error {
	pool.Lock()
	defer pool.Unlock()
	if r.refs <= 0 {
		return nil // closed already
	}
	r.refs--
	if r.refs > 0 {
		return nil
	}
	pool.idle = append(pool.idle, r)
	if len(pool.idle) <= maxIdle {
		return nil
	}
	old := pool.idle[0]
	pool.idle = pool.idle[1:]
	if pool.runs[old.key] == old {
		delete(pool.runs, old.key)
	}
	return old.closeFile()
}

// CloseIdle closes the runs kept open after their last demo was closed.
func CloseIdle() {
	pool.Lock()
	defer pool.Unlock()
	for _, r := range pool.idle {
		if pool.runs[r.key] == r {
			delete(pool.runs, r.key)
		}
		r.closeFile()
	}
	pool.idle = nil
}
