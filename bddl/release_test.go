package bddl

import (
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
)

// parseJSON renders a parse result whole, to compare trees.
func parseJSON(t *testing.T, f *File, diags Diagnostics) string {
	t.Helper()
	var msgs []string
	for _, d := range diags {
		msgs = append(msgs, d.Error())
	}
	b, err := json.Marshal(struct {
		P     *Problem
		D     *Domain
		Diags []string
	}{f.Problem, f.Domain, msgs})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestReleaseReusesMemory parses files one after another, releasing each
// tree before the next parse reuses its memory, in a shuffled order so
// that slabs of every size meet files of every size: each tree must equal
// the tree of a fresh parse, so nothing of a released tree shows through.
func TestReleaseReusesMemory(t *testing.T) {
	var paths []string
	for _, dir := range []string{"parse", "errors", "format", "reference"} {
		more, _ := filepath.Glob(filepath.Join("testdata", dir, "*.bddl"))
		paths = append(paths, more...)
	}
	if len(paths) < 20 {
		t.Fatalf("only %d files to parse", len(paths))
	}
	checkReleaseRoundTrips(t, paths)
}

// TestReleaseReusesMemoryCorpus does the same over the corpus.
func TestReleaseReusesMemoryCorpus(t *testing.T) {
	checkReleaseRoundTrips(t, corpus.ActivityFiles(t))
}

func checkReleaseRoundTrips(t *testing.T, paths []string) {
	t.Helper()
	srcs := make([][]byte, len(paths))
	want := make([]string, len(paths))
	for i, p := range paths {
		srcs[i] = readT(t, p)
		f, diags := ParseFile(p, srcs[i])
		want[i] = parseJSON(t, f, diags)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := 0; round < 3; round++ {
		for _, i := range rng.Perm(len(paths)) {
			f, diags := ParseFile(paths[i], srcs[i])
			if got := parseJSON(t, f, diags); got != want[i] {
				t.Fatalf("%s parsed after a release differs from a fresh parse:\n got %.300s\nwant %.300s", paths[i], got, want[i])
			}
			f.Release()
		}
	}
}

// TestReleaseSavesAllocations checks that a parse after a release takes
// its slabs from the released tree.
func TestReleaseSavesAllocations(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector makes sync.Pool drop released memory at random")
	}
	src := readT(t, "testdata/parse/"+firstParseGolden(t))
	fresh := testing.AllocsPerRun(50, func() { ParseFile("f.bddl", src) })
	reused := testing.AllocsPerRun(50, func() {
		f, _ := ParseFile("f.bddl", src)
		f.Release()
	})
	if reused > fresh-5 {
		t.Errorf("%.1f allocations a parse with release, %.1f without: the slabs were not reused", reused, fresh)
	}
	var zero File
	zero.Release() // a file not from a parse: nothing to hand back
}

func firstParseGolden(t *testing.T) string {
	t.Helper()
	paths, _ := filepath.Glob("testdata/parse/*.bddl")
	for _, p := range paths {
		f, diags := ParseFile(p, readT(t, p))
		if !diags.HasErrors() && f.Problem != nil && len(f.Problem.Init) > 2 {
			return filepath.Base(p)
		}
	}
	t.Fatal("no problem file among testdata/parse")
	return ""
}
