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

// replicateTask copies a sample task folder into dir with its instances
// repeated to n files.
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
	cp(task.Template, filepath.Join(dir, filepath.Base(task.Template)))
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

// BenchmarkConvertTaskFolder converts a task folder of 300 instances
// (a sample task's 5 replicated) on one goroutine: read the template,
// then read, convert and encode each instance. Run with -cpu 1 for the
// one-core figure the README reports; offsets=none is the baseline
// without the support estimate.
func BenchmarkConvertTaskFolder(b *testing.B) {
	const n = 300
	base := corpusKB(b)
	src := filepath.Join(taskDirs(b)[0], "..", "cook_bacon")
	dir := b.TempDir()
	replicateTask(b, src, dir, n)
	for _, mode := range []OffsetMode{OffsetsSupport, OffsetsNone} {
		b.Run("offsets="+mode.String(), func(b *testing.B) { benchConvert(b, dir, base, mode, n) })
	}
}

func benchConvert(b *testing.B, dir string, base *kb.Base, mode OffsetMode, n int) {
	b.ReportAllocs()
	for b.Loop() {
		task, err := FindTask(dir)
		if err != nil {
			b.Fatal(err)
		}
		tmpl, err := ReadTemplate(task.Template)
		if err != nil {
			b.Fatal(err)
		}
		c, err := NewConverter(tmpl, readProblem(b, task.Definition), task.Definition, base, Options{Offsets: mode})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range task.Instances {
			in, err := ReadInstance(p)
			if err != nil {
				b.Fatal(err)
			}
			h, _, err := c.Convert(in)
			if err != nil {
				b.Fatal(err)
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
