package robolab

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

const activityFile = "testdata/putting_the_apple_in_the_bowl.bddl"

// program compiles the fixtures' activity against the embedded default
// knowledge base.
func program(t testing.TB) *predicates.Program {
	t.Helper()
	src, err := os.ReadFile(activityFile)
	if err != nil {
		t.Fatal(err)
	}
	prob, diags := bddl.ParseProblem(activityFile, src)
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog, err := predicates.Compile(prob, kb.Default(), predicates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return prog
}

func testMap(t testing.TB) *Map {
	t.Helper()
	m, err := LoadMap("testdata/names.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func options(t testing.TB, prog *predicates.Program, m *Map) Options {
	return Options{Activity: "putting_the_apple_in_the_bowl", Instances: InstancesOf(prog), Map: m}
}

// checkFile checks every demo of a run file with the fixtures' map.
func checkFile(t testing.TB, path string, copts episode.CheckOptions) []*Result {
	t.Helper()
	prog := program(t)
	var rs *Results
	if p := FindResults(path); p != "" {
		var err error
		if rs, err = LoadResults(p); err != nil {
			t.Fatal(err)
		}
	}
	return CheckRun(context.Background(), prog, path, options(t, prog, testMap(t)), copts, rs)
}

// copyFile copies a fixture into dir, cut to n bytes (n < 0: whole).
func copyFile(t testing.TB, src, dir string, n int) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if n >= 0 {
		data = data[:n]
	}
	dst := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

// runtimeStats reads the bytes allocated so far.
type runtimeStats struct{ total uint64 }

func (s *runtimeStats) read() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	s.total = m.TotalAlloc
}
