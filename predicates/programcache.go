package predicates

import (
	"sort"
	"strings"
	"sync"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// ProgramCache compiles each problem once per wildcard expansion and
// shares the program read-only; it is safe for concurrent use. Batch
// checks and the sampler meet the same definition on many workers, and
// compiling it once per worker would repeat the name resolution.
type ProgramCache struct {
	base *kb.Base
	opts Options

	mu       sync.Mutex
	programs map[string]*cachedProgram
}

type cachedProgram struct {
	once sync.Once
	prog *Program
	err  error
}

// NewProgramCache returns a cache compiling against base with opts.
func NewProgramCache(base *kb.Base, opts Options) *ProgramCache {
	return &ProgramCache{base: base, opts: opts, programs: map[string]*cachedProgram{}}
}

// Compile returns the program of p under the wildcard expansion wild
// (opts.Wildcards), compiling it on first use. key names the problem:
// two calls with the same key and expansion share one program.
func (c *ProgramCache) Compile(key string, p *bddl.Problem, wild map[string][]string) (*Program, error) {
	if len(wild) > 0 {
		ks := make([]string, 0, len(wild))
		for k, v := range wild {
			ks = append(ks, k+"="+strings.Join(v, ","))
		}
		sort.Strings(ks)
		key += "\x00" + strings.Join(ks, ";")
	}
	c.mu.Lock()
	e := c.programs[key]
	if e == nil {
		e = &cachedProgram{}
		c.programs[key] = e
	}
	c.mu.Unlock()
	e.once.Do(func() {
		opts := c.opts
		opts.Wildcards = wild
		e.prog, e.err = Compile(p, c.base, opts)
	})
	return e.prog, e.err
}
