package robolab

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/scigolib/hdf5"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// writeRun writes a RoboLab-layout run file of one demo with n rigid
// objects (float32 poses, int16 corners, chunks of 500 steps, gzip), with
// the Go HDF5 writer. moving of them move at every step, the others stay
// put (as most of a scene does).
func writeRun(tb testing.TB, path string, n, moving, steps int) {
	tb.Helper()
	fw, err := hdf5.CreateForWrite(path, hdf5.CreateTruncate)
	if err != nil {
		tb.Fatal(err)
	}
	must := func(err error) {
		tb.Helper()
		if err != nil {
			tb.Fatal(err)
		}
	}
	for _, g := range []string{"/data", "/data/demo_0", "/data/demo_0/states", "/data/demo_0/states/rigid_object", "/data/demo_0/bbox", "/data/demo_0/bbox/bbox_mm"} {
		_, err := fw.CreateGroup(g)
		must(err)
	}
	chunk := uint64(min(500, steps))
	rng := rand.New(rand.NewPCG(1, 2))
	for k := range n {
		name := fmt.Sprintf("obj_%d", k)
		_, err := fw.CreateGroup("/data/demo_0/states/rigid_object/" + name)
		must(err)
		pose := make([]float32, steps*7)
		box := make([]int16, steps*24)
		x, y, z := rng.Float64()*2, rng.Float64()*2, 0.8
		half := 0.02 + rng.Float64()*0.08
		for t := range steps {
			if k < moving {
				x += rng.NormFloat64() * 0.001
				y += rng.NormFloat64() * 0.001
			}
			copy(pose[t*7:], []float32{float32(x), float32(y), float32(z), 1, 0, 0, 0})
			for c := range 8 {
				dx, dy := []float64{-1, 1, 1, -1}[c%4], []float64{-1, -1, 1, 1}[c%4]
				dz := float64(c/4*2 - 1)
				box[t*24+c*3] = int16(math.Round((x + dx*half) * 1000))
				box[t*24+c*3+1] = int16(math.Round((y + dy*half) * 1000))
				box[t*24+c*3+2] = int16(math.Round((z + dz*half) * 1000))
			}
		}
		ds, err := fw.CreateDataset("/data/demo_0/states/rigid_object/"+name+"/root_pose", hdf5.Float32, []uint64{uint64(steps), 7},
			hdf5.WithChunkDims([]uint64{chunk, 7}), hdf5.WithGZIPCompression(4))
		must(err)
		must(ds.Write(pose))
		ds, err = fw.CreateDataset("/data/demo_0/bbox/bbox_mm/"+name, hdf5.Int16, []uint64{uint64(steps), 8, 3},
			hdf5.WithChunkDims([]uint64{chunk, 8, 3}), hdf5.WithGZIPCompression(4))
		must(err)
		must(ds.Write(box))
	}
	must(fw.Close())
}

// benchActivity has n apples to put on a table.
func benchActivity(tb testing.TB, n int) (*predicates.Program, *Map) {
	var objs, names strings.Builder
	for k := range n {
		fmt.Fprintf(&objs, " apple.n.01_%d", k+1)
		fmt.Fprintf(&names, "  obj_%d: apple.n.01_%d\n", k, k+1)
	}
	src := fmt.Sprintf(`(define (problem bench-0) (:domain omnigibson)
 (:objects%s - apple.n.01 table.n.02_1 - table.n.02 floor.n.01_1 - floor.n.01 agent.n.01_1 - agent.n.01)
 (:init (ontop agent.n.01_1 floor.n.01_1) (inroom floor.n.01_1 kitchen) (inroom table.n.02_1 kitchen))
 (:goal (forall (?a - apple.n.01) (ontop ?a ?table.n.02_1))))`, objs.String())
	prob, diags := bddl.ParseProblem("bench.bddl", []byte(src))
	if diags.HasErrors() {
		tb.Fatal(diags)
	}
	prog, err := predicates.Compile(prob, kb.Default(), predicates.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	m, err := ParseMap("bench.yaml", []byte("names:\n"+names.String()+"static:\n  table.n.02_1: {aabb: [-1, -1, 0, 3, 3, 0.75]}\n"))
	if err != nil {
		tb.Fatal(err)
	}
	return prog, m
}

const benchObjects, benchSteps = 20, 5000

// benchRun writes the benchmark's run file, and the same demo converted
// to a JSON Lines episode: the baseline, read by the episode package
// alone.
func benchRun(b *testing.B, moving int) (run, jsonl string, opts Options, prog *predicates.Program) {
	dir := b.TempDir()
	run = filepath.Join(dir, "run_0.hdf5")
	writeRun(b, run, benchObjects, moving, benchSteps)
	prog, m := benchActivity(b, benchObjects)
	opts = Options{Activity: "bench", Instances: InstancesOf(prog), Map: m}
	r, err := Open(run)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	if jsonl, _, err = Convert(r, r.Demos()[0], opts, dir, false); err != nil {
		b.Fatal(err)
	}
	return run, jsonl, opts, prog
}

// openSource opens the demo as an episode reader: from the run file, or
// from the converted episode file.
func openSource(b *testing.B, source, run, jsonl string, opts Options) (*episode.Reader, func() error, func()) {
	if source == "jsonl" {
		f, err := os.Open(jsonl)
		if err != nil {
			b.Fatal(err)
		}
		rd, err := episode.NewReader(f, jsonl)
		if err != nil {
			b.Fatal(err)
		}
		return rd, func() error { return nil }, func() { f.Close() }
	}
	r, err := Open(run)
	if err != nil {
		b.Fatal(err)
	}
	s, err := r.Stream(r.Demos()[0], opts)
	if err != nil {
		b.Fatal(err)
	}
	rd, err := episode.NewReader(s, s.Name())
	if err != nil {
		b.Fatal(err)
	}
	return rd, s.Err, func() { r.Close() }
}

// BenchmarkRead20Objects reads a demo of 20 objects (all moving at every
// step, or one) into a predicates.State, without evaluating: from the
// RoboLab run file (HDF5 chunks → episode lines → state) and, as the
// baseline, from the same demo converted to a JSON Lines episode.
func BenchmarkRead20Objects(b *testing.B) {
	for _, moving := range []int{benchObjects, 1} {
		run, jsonl, opts, prog := benchRun(b, moving)
		for _, source := range []string{"hdf5", "jsonl"} {
			b.Run(fmt.Sprintf("moving=%d/source=%s", moving, source), func(b *testing.B) {
				b.ReportAllocs()
				steps := 0
				for b.Loop() {
					rd, errOf, done := openSource(b, source, run, jsonl, opts)
					st := prog.NewState()
					if err := rd.Bind(st); err != nil {
						b.Fatal(err)
					}
					for {
						_, err := rd.Next()
						if err == io.EOF {
							break
						}
						if err != nil {
							b.Fatal(err)
						}
						steps++
					}
					if err := errOf(); err != nil {
						b.Fatal(err)
					}
					done()
				}
				b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
			})
		}
	}
}

// BenchmarkCheck20Objects checks the run file of 20 moving objects:
// reading and evaluating the goal at every step.
func BenchmarkCheck20Objects(b *testing.B) {
	run, _, opts, prog := benchRun(b, benchObjects)
	b.ReportAllocs()
	steps := 0
	for b.Loop() {
		res := CheckRun(context.Background(), prog, run, opts, episode.CheckOptions{}, nil)
		if res[0].Error != "" {
			b.Fatal(res[0].Error)
		}
		steps += res[0].Steps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// TestLongDemoBoundedMemory streams a demo of 200,000 steps (its corners
// alone 38 MB as float64) and samples the live heap as it goes: it stays
// far below the demo's size, as datasets that large are read by blocks.
func TestLongDemoBoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 200,000-step run file")
	}
	const steps = 200_000
	path := filepath.Join(t.TempDir(), "run_0.hdf5")
	writeRun(t, path, 1, 1, steps)
	prog, m := benchActivity(t, 1)
	r, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := r.Stream(r.Demos()[0], Options{Activity: "bench", Instances: InstancesOf(prog), Map: m})
	if err != nil {
		t.Fatal(err)
	}
	rd, err := episode.NewReader(s, s.Name())
	if err != nil {
		t.Fatal(err)
	}
	if err := rd.Bind(prog.NewState()); err != nil {
		t.Fatal(err)
	}
	var peak uint64
	var ms runtime.MemStats
	for n := 0; ; n++ {
		_, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if n%20000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
	if s.Err() != nil || rd.Steps() != steps {
		t.Fatalf("%d steps, error %v", rd.Steps(), s.Err())
	}
	if peak > 24<<20 {
		t.Errorf("live heap reached %d MB while streaming", peak>>20)
	}
}

// BenchmarkManyDemos reads every demo of a 150-demo run file, each opened
// as the batch opens it (OpenDemo: one shared open file), against the
// baseline of opening the file anew for each demo (what OpenDemo did
// before the pool: time quadratic in the demos).
func BenchmarkManyDemos(b *testing.B) {
	prog := program(b)
	opts := options(b, prog, testMap(b))
	path := hostile("many_demos.hdf5")
	names, err := DemoNames(path)
	if err != nil {
		b.Fatal(err)
	}
	read := func(b *testing.B, open func(name string) (*Run, io.Reader)) {
		b.ReportAllocs()
		for b.Loop() {
			for _, name := range names {
				r, src := open(name)
				if _, err := io.Copy(io.Discard, src); err != nil {
					b.Fatal(err)
				}
				r.Close()
			}
		}
		b.ReportMetric(float64(len(names))*float64(b.N)/b.Elapsed().Seconds(), "demos/s")
	}
	b.Run("reopen", func(b *testing.B) {
		read(b, func(name string) (*Run, io.Reader) {
			r, err := Open(path)
			if err != nil {
				b.Fatal(err)
			}
			for _, d := range r.Demos() {
				if d.Name == name {
					s, err := r.Stream(d, opts)
					if err != nil {
						b.Fatal(err)
					}
					return r, s
				}
			}
			b.Fatal("no demo", name)
			return nil, nil
		})
	})
	b.Run("shared", func(b *testing.B) {
		read(b, func(name string) (*Run, io.Reader) {
			e, src, err := OpenDemo(path, name, opts, nil)
			if err != nil || e.Err != nil {
				b.Fatal(err, e.Err)
			}
			return e.Run, src
		})
		CloseIdle()
	})
}
