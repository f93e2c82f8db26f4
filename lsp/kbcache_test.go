package lsp

import (
	"errors"
	"testing"

	"github.com/openbddl/bddl/kb"
)

func TestCachedKB(t *testing.T) {
	t.Parallel()
	loads := map[string]int{}
	bad := errors.New("no such knowledge base")
	get := CachedKB(func(path string) string { return path[:1] }, func(path string) (*kb.Base, error) {
		loads[path[:1]]++
		if path[0] == 'x' {
			return nil, bad
		}
		return kb.Default(), nil
	})
	for _, p := range []string{"a1", "a2", "b1", "x1", "x2", "a3"} {
		b, err := get(p)
		if p[0] == 'x' {
			if err != bad || b != nil {
				t.Errorf("get(%s) = %v, %v; want the load's error", p, b, err)
			}
		} else if err != nil || b == nil {
			t.Errorf("get(%s) = %v, %v", p, b, err)
		}
	}
	for k, n := range loads {
		if n != 1 {
			t.Errorf("key %s loaded %d times, want once", k, n)
		}
	}
}
