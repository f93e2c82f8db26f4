package lsp

import (
	"sync"

	"github.com/openbddl/bddl/kb"
)

// CachedKB is an Options.KB that loads each knowledge base once: key
// names the knowledge base a document's path resolves to (as the
// command line resolves a run's), load loads it for that path; paths
// with the same key share one load, its error included. It is safe for
// concurrent use.
func CachedKB(key func(path string) string, load func(path string) (*kb.Base, error)) func(path string) (*kb.Base, error) {
	var mu sync.Mutex
	type loaded struct {
		base *kb.Base
		err  error
	}
	cache := map[string]loaded{}
	return func(path string) (*kb.Base, error) {
		k := key(path)
		mu.Lock()
		defer mu.Unlock()
		if l, ok := cache[k]; ok {
			return l.base, l.err
		}
		b, err := load(path)
		cache[k] = loaded{b, err}
		return b, err
	}
}
