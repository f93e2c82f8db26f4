package libero

import (
	"os"
	"slices"
	"testing"
	"time"

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
	b.SetBytes(int64(bytes))
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		readAll(b, files)
		t1 := time.Now()
		readParseValidateAll(b, files)
		t2 := time.Now()
		ratios = append(ratios, float64(t2.Sub(t1))/float64(t1.Sub(t0)))
	}
	slices.Sort(ratios)
	b.ReportMetric(ratios[0], "ratio-min")
	b.ReportMetric(ratios[len(ratios)/2], "ratio-median")
	b.ReportMetric(float64(len(files)), "files/op")
}

// BenchmarkEvalGoal is the per-step cost of LIBERO's success check.
func BenchmarkEvalGoal(b *testing.B) {
	task := testTask(b)
	step, err := Sample(task, 7)
	if err != nil {
		b.Fatal(err)
	}
	ev := NewEvaluator(task)
	goal := task.GoalAtoms()
	b.ReportAllocs()
	for b.Loop() {
		ev.EvalAtoms(goal, &step)
	}
	b.ReportMetric(float64(len(goal)), "atoms/op")
}
