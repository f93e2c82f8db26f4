package omnigibson

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
)

// replicateTask copies a shared task folder into dir, as written (both
// templates and the definition), with its instances repeated to n files.
func replicateTask(b *testing.B, src, dir string, n int) {
	b.Helper()
	task, err := FindTask(src)
	if err != nil {
		b.Fatal(err)
	}
	cp := func(from, to string) {
		data, err := os.ReadFile(from)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(to, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for _, t := range []string{task.Template, task.Partial} {
		if t != "" {
			cp(t, filepath.Join(dir, filepath.Base(t)))
		}
	}
	cp(task.Definition, filepath.Join(dir, "problem0.bddl"))
	inst := filepath.Join(dir, "task_instances")
	if err := os.Mkdir(inst, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < n; i++ {
		from := task.Instances[i%len(task.Instances)]
		cp(from, filepath.Join(inst, fmt.Sprintf("task_0_%d_template-tro_state.json", i)))
	}
}

// BenchmarkConvertTaskFolder converts and checks a task folder of 301
// instances (a shared task's 100, replicated; both templates) on one
// goroutine: read the templates and the definition, then read, convert,
// encode and evaluate :init on each instance, as bddl check --init does.
// read is the baseline: a plain read of every file the conversion reads.
// Run with -cpu 1 -count N; docs/omnigibson.md gives the ratio's min and
// median (tools/ogbench.sh).
func BenchmarkConvertTaskFolder(b *testing.B) {
	const n = 301
	base := corpusKB(b)
	src := filepath.Join(taskDirs(b)[0], "..", "cook_bacon")
	dir := b.TempDir()
	replicateTask(b, src, dir, n)
	b.Run("read", func(b *testing.B) {
		task, err := FindTask(dir)
		if err != nil {
			b.Fatal(err)
		}
		files := append([]string{task.Template, task.Partial, task.Definition}, task.Instances...)
		var size int64
		for b.Loop() {
			size = 0
			for _, p := range files {
				data, err := os.ReadFile(p)
				if err != nil {
					b.Fatal(err)
				}
				size += int64(len(data))
			}
		}
		b.SetBytes(size)
		b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "instances/s")
	})
	b.Run("convert", func(b *testing.B) { benchConvert(b, dir, base, OffsetsSupport, n, false) })
	b.Run("convert+check", func(b *testing.B) { benchConvert(b, dir, base, OffsetsSupport, n, true) })
	b.Run("convert,offsets=none", func(b *testing.B) { benchConvert(b, dir, base, OffsetsNone, n, false) })
}

func benchConvert(b *testing.B, dir string, base *kb.Base, mode OffsetMode, n int, check bool) {
	b.ReportAllocs()
	for b.Loop() {
		task, err := FindTask(dir)
		if err != nil {
			b.Fatal(err)
		}
		tmpl, err := ReadTask(task)
		if err != nil {
			b.Fatal(err)
		}
		prob := readProblem(b, task.Definition)
		c, err := NewConverter(tmpl, prob, task.Definition, base, Options{Offsets: mode})
		if err != nil {
			b.Fatal(err)
		}
		eval := NewInitEvaluator(prob, base)
		for _, p := range task.Instances {
			in, err := ReadInstance(p)
			if err != nil {
				b.Fatal(err)
			}
			h, _, err := c.Convert(in)
			if err != nil {
				b.Fatal(err)
			}
			if check {
				if _, err := eval.Eval(h); err != nil {
					b.Fatal(err)
				}
				continue
			}
			w, err := episode.NewWriter(io.Discard, h)
			if err != nil {
				b.Fatal(err)
			}
			if err := w.WriteStep(&episode.Step{}); err != nil {
				b.Fatal(err)
			}
			if err := w.Close(); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(n*b.N)/b.Elapsed().Seconds(), "instances/s")
}
