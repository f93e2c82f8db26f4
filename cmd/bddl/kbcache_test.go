package main

import (
	"testing"

	"github.com/openbddl/bddl/kb"
)

// TestKBShowCache: `kb show` prints the same, byte for byte, without the
// knowledge-base cache, filling it, and served from it.
func TestKBShowCache(t *testing.T) {
	dir := kbCorpus(t)
	args := []string{"kb", "show", "apple.n.01", "oven.n.01", "water.n.06", "--all", "--format", "json", "--kb", dir}
	t.Setenv(kb.CacheEnvVar, "off")
	code, want, stderr := runCLI(args...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	t.Setenv(kb.CacheEnvVar, t.TempDir())
	for _, pass := range []string{"filling the cache", "from the cache"} {
		code, got, stderr := runCLI(args...)
		if code != 0 || got != want {
			t.Errorf("%s: exit %d, output differs from the uncached one: %v\n%s", pass, code, got != want, stderr)
		}
	}
}
