package episode

import (
	"bytes"
	"context"
	"io"
	"slices"
	"sync"
	"testing"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// benchActivity is the activity the throughput figures are measured on:
// the corpus activity with the median number of objects when the corpus
// is present (BDDL_CORPUS or ../shared/behavior1k), else the embedded
// example with the median number of objects.
type benchActivity struct {
	name string
	prog *predicates.Program
}

var medianActivity = sync.OnceValue(func() benchActivity {
	base := kb.Default()
	type cand struct {
		name string
		prob *bddl.Problem
	}
	var cands []cand
	if l, ok := corpus.Find(); ok {
		if b, err := kb.Load(l.Data); err == nil {
			base = b
		}
		if lib, err := activities.LoadDir(l.Activities); err == nil {
			for _, a := range lib.Activities {
				if a.Problem != nil && !a.Diagnostics.HasErrors() {
					cands = append(cands, cand{a.ID(), a.Problem})
				}
			}
		}
	}
	if len(cands) == 0 {
		for _, a := range activities.Examples().Activities {
			cands = append(cands, cand{a.Name, a.Problem})
		}
	}
	var progs []benchActivity
	for _, c := range cands {
		p, err := predicates.Compile(c.prob, base, predicates.Options{})
		if err == nil {
			progs = append(progs, benchActivity{c.name, p})
		}
	}
	slices.SortStableFunc(progs, func(a, b benchActivity) int { return a.prog.NumObjects() - b.prog.NumObjects() })
	return progs[len(progs)/2]
})

// corpusDir finds the BEHAVIOR-1K corpus as internal/corpus does,
// without skipping: the benchmarks fall back to the examples.

const benchSteps = 20000

func synth(tb testing.TB, a benchActivity, kind SynthKind) []byte {
	var buf bytes.Buffer
	if err := Synthesize(&buf, a.prog, a.name, kind, benchSteps, 7); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// decodeAll reads every step of data into a state of prog.
func decodeAll(tb testing.TB, prog *predicates.Program, s *predicates.State, data []byte) int {
	r, err := NewReader(bytes.NewReader(data), "bench.jsonl")
	if err != nil {
		tb.Fatal(err)
	}
	if err := r.Bind(s); err != nil {
		tb.Fatal(err)
	}
	n := 0
	for {
		_, err := r.Next()
		if err == io.EOF {
			return n
		}
		if err != nil {
			tb.Fatal(err)
		}
		n++
	}
}

func benchDecode(b *testing.B, kind SynthKind) {
	a := medianActivity()
	data := synth(b, a, kind)
	s := a.prog.NewState()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	steps := 0
	for b.Loop() {
		steps += decodeAll(b, a.prog, s, data)
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
	b.ReportMetric(float64(a.prog.NumObjects()), "objects")
}

// BenchmarkDecodeSymbolic decodes delta-encoded closed-world symbolic
// steps of the median activity into a state.
func BenchmarkDecodeSymbolic(b *testing.B) { benchDecode(b, SynthSymbolic) }

// BenchmarkDecodePoses decodes steps that update the position and box
// of every object, printed as a float32 simulator's state is.
func BenchmarkDecodePoses(b *testing.B) { benchDecode(b, SynthPoses) }

// BenchmarkCheckEpisode decodes and evaluates every step, then scores
// and explains the last: the whole of Check.
func BenchmarkCheckEpisode(b *testing.B) {
	a := medianActivity()
	for _, k := range []struct {
		name string
		kind SynthKind
	}{{"symbolic", SynthSymbolic}, {"poses", SynthPoses}} {
		data := synth(b, a, k.kind)
		b.Run("kind="+k.name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			steps := 0
			for b.Loop() {
				r, err := NewReader(bytes.NewReader(data), "bench.jsonl")
				if err != nil {
					b.Fatal(err)
				}
				res := Check(context.Background(), a.prog, r, CheckOptions{})
				if res.Error != "" {
					b.Fatal(res.Error)
				}
				steps += res.Steps
			}
			b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
		})
	}
}

// TestDecodeZeroAlloc guards the steady state: decoding a step allocates
// nothing once the buffers have grown.
func TestDecodeZeroAlloc(t *testing.T) {
	a := medianActivity()
	for _, kind := range []SynthKind{SynthSymbolic, SynthPoses} {
		var buf bytes.Buffer
		if err := Synthesize(&buf, a.prog, a.name, kind, 3000, 3); err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(buf.Bytes()), "z.jsonl")
		if err != nil {
			t.Fatal(err)
		}
		s := a.prog.NewState()
		if err := r.Bind(s); err != nil {
			t.Fatal(err)
		}
		for range 1000 { // warm up
			if _, err := r.Next(); err != nil {
				t.Fatal(err)
			}
		}
		allocs := testing.AllocsPerRun(1000, func() {
			if _, err := r.Next(); err != nil {
				t.Fatal(err)
			}
			a.prog.Eval(s)
		})
		if allocs != 0 {
			t.Errorf("kind %d: %.2f allocations per step, want 0", kind, allocs)
		}
	}
}

// BenchmarkStepperFeedPrefix feeds the symbolic steps of the median
// activity as bddl serve's session.run does: one array, each step taken
// by FeedPrefix where the last ended, then evaluated.
func BenchmarkStepperFeedPrefix(b *testing.B) {
	a := medianActivity()
	data := synth(b, a, SynthSymbolic)
	header, rest, _ := bytes.Cut(data, []byte("\n"))
	arr := bytes.ReplaceAll(bytes.TrimSpace(rest), []byte("\n"), []byte(","))
	b.SetBytes(int64(len(arr)))
	b.ReportAllocs()
	steps := 0
	for b.Loop() {
		st := headerStepper(b, a.prog, header, "bench.jsonl")
		for k := 0; k < len(arr); k++ {
			n, _, err := st.FeedPrefix(arr[k:])
			if err != nil {
				b.Fatal(err)
			}
			k += n // the comma
			steps++
		}
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "steps/s")
}

// headerStepper is a Stepper of prog reading a recording named file that
// holds only header (its steps fed by the caller).
func headerStepper(tb testing.TB, prog *predicates.Program, header []byte, file string) *Stepper {
	tb.Helper()
	r, err := NewReader(bytes.NewReader(append(header[:len(header):len(header)], '\n')), file)
	if err != nil {
		tb.Fatal(err)
	}
	st, err := NewStepper(prog, r, CheckOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return st
}
