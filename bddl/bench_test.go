package bddl

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
)

// corpusSource is one corpus file read into memory.
type corpusSource struct {
	name string
	src  []byte
}

// loadCorpus reads every corpus definition before the timer starts and
// returns the files with their total size.
func loadCorpus(b *testing.B) ([]corpusSource, int64) {
	b.Helper()
	var files []corpusSource
	var total int64
	for _, path := range corpus.ActivityFiles(b) {
		src := readT(b, path)
		files = append(files, corpusSource{corpus.Rel(b, path), src})
		total += int64(len(src))
	}
	return files, total
}

// checkCorpusResult checks, after the timed loop, that the last pass
// parsed what TestCorpus expects: only the known-bad files have errors.
func checkCorpusResult(b *testing.B, files []corpusSource, bad int) {
	b.Helper()
	if bad != len(corpusKnownBad) {
		b.Fatalf("%d corpus files with errors, want %d", bad, len(corpusKnownBad))
	}
	b.ReportMetric(float64(len(files)), "files/op")
}

// BenchmarkParseCorpus parses every corpus definition into the typed AST,
// one after another on one goroutine; MB/s is over the corpus's bytes.
//
// Besides MB/s it reports allocations and bytes per file, and CPU time per
// pass (user and system time of the whole process, garbage collector
// included): on a loaded machine CPU time is the fairer figure to set
// against another parser's, e.g. the Python reference's parse_problem
// timed with time.process_time over the same texts.
func BenchmarkParseCorpus(b *testing.B) {
	files, total := loadCorpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	var bad int
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime()
	for b.Loop() {
		bad = 0
		for _, f := range files {
			if _, diags := ParseFile(f.name, f.src); diags.HasErrors() {
				bad++
			}
		}
	}
	cpu := cpuTime() - cpu0
	runtime.ReadMemStats(&after)
	checkCorpusResult(b, files, bad)
	passes := float64(b.N) * float64(len(files))
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/passes, "allocs/file")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/passes, "B/file")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(total)/1e6/cpu.Seconds()*float64(b.N), "MB/cpu-s")
}

// BenchmarkParseCorpusRelease is BenchmarkParseCorpus with each tree
// released after its parse, as bddl parse does: later parses reuse the
// memory.
func BenchmarkParseCorpusRelease(b *testing.B) {
	files, total := loadCorpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	bad := 0
	for b.Loop() {
		bad = 0
		for _, f := range files {
			file, diags := ParseFile(f.name, f.src)
			if diags.HasErrors() {
				bad++
			}
			file.Release()
		}
	}
	checkCorpusResult(b, files, bad)
}

// BenchmarkParseCorpusParallel parses the corpus on GOMAXPROCS goroutines,
// each op being one pass over every file, to show how parsing scales with
// cores (the CLI parses files in parallel).
func BenchmarkParseCorpusParallel(b *testing.B) {
	files, total := loadCorpus(b)
	b.SetBytes(total)
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			bad := 0
			for _, f := range files {
				if _, diags := ParseFile(f.name, f.src); diags.HasErrors() {
					bad++
				}
			}
			if bad != len(corpusKnownBad) {
				b.Errorf("%d corpus files with errors, want %d", bad, len(corpusKnownBad))
				return
			}
		}
	})
}

// BenchmarkFormatCorpus formats every (already parsed) corpus definition.
func BenchmarkFormatCorpus(b *testing.B) {
	files, total := loadCorpus(b)
	parsed := make([]*File, 0, len(files))
	for _, f := range files {
		file, diags := ParseFile(f.name, f.src)
		if !diags.HasErrors() {
			parsed = append(parsed, file)
		}
	}
	b.SetBytes(total)
	b.ReportAllocs()
	var out int
	for b.Loop() {
		out = 0
		for _, f := range parsed {
			out += len(Format(f))
		}
	}
	if out == 0 {
		b.Fatal("Format produced nothing")
	}
}

// BenchmarkParseActivity parses single definitions: the largest and the
// smallest problem of the corpus.
func BenchmarkParseActivity(b *testing.B) {
	files, _ := loadCorpus(b)
	var problems []corpusSource
	for _, f := range files {
		if strings.HasSuffix(f.name, "/problem0.bddl") {
			problems = append(problems, f)
		}
	}
	slices.SortFunc(problems, func(x, y corpusSource) int { return len(x.src) - len(y.src) })
	for _, f := range []corpusSource{problems[len(problems)-1], problems[0]} {
		b.Run("activity="+filepath.Dir(f.name), func(b *testing.B) {
			b.SetBytes(int64(len(f.src)))
			b.ReportAllocs()
			var p *File
			for b.Loop() {
				p, _ = ParseFile(f.name, f.src)
			}
			if p.Problem == nil {
				b.Fatal("no problem parsed")
			}
			b.ReportMetric(float64(p.Problem.NumNodes), "nodes/op")
		})
	}
}

// BenchmarkParseErrors parses goals made of n broken formulas, each one
// error. The time per op should grow linearly with n.
func BenchmarkParseErrors(b *testing.B) {
	for _, n := range []int{1000, 4000, 16000} {
		src := []byte("(define (problem p) (:domain d) (:objects) (:init)\n(:goal (and\n" + strings.Repeat("(not)\n", n) + ")))")
		b.Run(fmt.Sprintf("errors=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			var diags Diagnostics
			for b.Loop() {
				_, diags = ParseFile("errors.bddl", src)
			}
			if len(diags) != maxErrors+1 {
				b.Fatalf("%d diagnostics, want %d", len(diags), maxErrors+1)
			}
		})
	}
}

// BenchmarkParsePathological parses each input of TestPathologicalInputsBounded
// at 256 KiB and reports the bytes allocated per input byte, which that
// test bounds.
func BenchmarkParsePathological(b *testing.B) {
	names := make([]string, 0, len(pathological))
	for name := range pathological {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		src := pathological[name](1 << 18)
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			for b.Loop() {
				ParseFile("hostile.bddl", src)
			}
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N)/float64(len(src)), "B/input-byte")
		})
	}
}
