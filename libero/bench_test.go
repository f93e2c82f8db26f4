package libero

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

func readAll(b *testing.B, files []string) int {
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		n += len(src)
	}
	return n
}

func readParseValidateAll(b *testing.B, files []string) int {
	findings := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		p, diags := bddl.ParseProblem(f, src)
		if diags.HasErrors() {
			b.Fatal(diags)
		}
		findings += len(Validate(p))
	}
	return findings
}

// BenchmarkCorpus reads, parses and validates every shared LIBERO file
// in one process, and reports the time as a ratio against only reading
// the same files, both measured in each iteration: ratio-min and
// ratio-median over the iterations.
func BenchmarkCorpus(b *testing.B) {
	files := corpusFiles(b)
	bytes := readAll(b, files)
	var ratios []float64
	b.SetBytes(int64(bytes) * 5) // parsed and validated per op
	b.ReportAllocs()
	// CPU time of the process, not wall time: the machines this runs on
	// are shared, and a pass of 100 small files is a few milliseconds, so
	// each phase runs several passes for the clock's resolution.
	const passes = 5
	for b.Loop() {
		t0 := cpuTime()
		for range passes {
			readAll(b, files)
		}
		t1 := cpuTime()
		for range passes {
			readParseValidateAll(b, files)
		}
		t2 := cpuTime()
		if t1 > t0 {
			ratios = append(ratios, float64(t2-t1)/float64(t1-t0))
		}
	}
	if len(ratios) == 0 {
		b.Skip("the CPU clock did not advance")
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[0], "ratio-min")
	b.ReportMetric(ratios[len(ratios)/2], "ratio-median")
	b.ReportMetric(float64(len(files)), "files/op")
}

// BenchmarkEvalGoal is the per-step cost of LIBERO's success check
// (Conjunction, the path a check takes at every step) and, apart, of
// explaining every atom (EvalAtoms, taken at the first and last steps).
func BenchmarkEvalGoal(b *testing.B) {
	task := testTask(b)
	step, err := Sample(task, 7)
	if err != nil {
		b.Fatal(err)
	}
	ev := NewEvaluator(task)
	goal := task.GoalAtoms()
	b.Run("mode=conjunction", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ev.Conjunction(goal, &step)
		}
		b.ReportMetric(float64(len(goal)), "atoms/op")
	})
	b.Run("mode=explained", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			ev.EvalAtoms(goal, &step)
		}
		b.ReportMetric(float64(len(goal)), "atoms/op")
	})
}

// benchEpisode writes an episode of n copies of a sampled step of
// testdata/in_placements.bddl, the file check reads.
func benchEpisode(b *testing.B, n int) string {
	b.Helper()
	def, err := filepath.Abs(filepath.Join("testdata", "in_placements.bddl"))
	if err != nil {
		b.Fatal(err)
	}
	src, err := os.ReadFile(def)
	if err != nil {
		b.Fatal(err)
	}
	p, diags := bddl.ParseProblem(def, src)
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	step, err := Sample(Resolve(p), 7)
	if err != nil {
		b.Fatal(err)
	}
	steps := make([]Step, n)
	for i := range steps {
		steps[i] = step
		steps[i].Step = i
	}
	var buf bytes.Buffer
	if err := WriteEpisode(&buf, Header{Format: EpisodeFormat, Version: 1, Definition: def}, steps); err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "episode.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// BenchmarkCheckFile is check's cost per LIBERO episode file: open, read
// the definition, parse it, evaluate every step (was the command's
// checkLiberoEpisode).
func BenchmarkCheckFile(b *testing.B) {
	const n = 500
	path := benchEpisode(b, n)
	info, _ := os.Stat(path)
	b.SetBytes(info.Size())
	b.ReportAllocs()
	for b.Loop() {
		r, err := CheckFile(path, FileCheck{CheckOptions: CheckOptions{Hold: 1}})
		if err != nil || r.Steps != n {
			b.Fatalf("CheckFile = %d steps, %v", r.Steps, err)
		}
	}
	b.ReportMetric(n, "steps/op")
}
