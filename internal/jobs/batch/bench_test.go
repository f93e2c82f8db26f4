package batch

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
)

// BenchmarkExpandCorpus walks the BEHAVIOR-1K definitions tree for
// *.bddl files: the input discovery of parse and validate.
func BenchmarkExpandCorpus(b *testing.B) {
	dir := corpus.ActivitiesDir(b)
	o := ExpandOptions{What: "definitions", Match: func(n string) bool { return strings.HasSuffix(n, ".bddl") }}
	var n int
	for b.Loop() {
		ins, err := Expand([]string{dir}, o)
		if err != nil {
			b.Fatal(err)
		}
		n = len(ins)
	}
	b.ReportMetric(float64(n), "files/op")
	b.ReportAllocs()
}

// resultsFile writes n result lines of a realistic size.
func resultsFile(tb testing.TB, n int) (string, int64) {
	tb.Helper()
	var buf bytes.Buffer
	for i := range n {
		fmt.Fprintf(&buf, `{"activity":"tidying_the_living_room","episode":"runs/d%d/ep%d.jsonl.gz","success":%v,"score":0.5,"challenge_score":0.25,"reason":"goal not satisfied at the end; 3 unsatisfied","episode_step":20000,"duration":100,"first_success_step":null,"holds_at_end":false,"goal_at_end":"false","init_ok":true,"init":"true","approximate_count":12,"unknown_count":0,"steps":20000,"unknown_steps":0,"skipped_steps":0,"hold":1,"negation":"reference"}`+"\n", i%97, i, i%3 == 0)
	}
	path := filepath.Join(tb.TempDir(), "results.jsonl")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path, int64(buf.Len())
}

// BenchmarkReadResults reads back a results file of 100,000 lines:
// "resume" as OpenResults does (records only), "merge" as ReadResults does
// (whole lines kept).
func BenchmarkReadResults(b *testing.B) {
	path, size := resultsFile(b, 100_000)
	for _, keep := range []bool{false, true} {
		name := map[bool]string{false: "resume", true: "merge"}[keep]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				f, err := os.Open(path)
				if err != nil {
					b.Fatal(err)
				}
				recs, _, err := readRecords(f, path, func(string) {}, keep, nil)
				f.Close()
				if err != nil || len(recs) != 100_000 {
					b.Fatal(err, len(recs))
				}
			}
		})
	}
}

// BenchmarkPlanResume matches 100,000 episodes against as many records.
func BenchmarkPlanResume(b *testing.B) {
	path, _ := resultsFile(b, 100_000)
	recs, err := ReadResults(path, func(string) {})
	if err != nil {
		b.Fatal(err)
	}
	keys := make([]string, len(recs))
	for i, r := range recs {
		keys[i] = r.Key
	}
	b.ReportAllocs()
	for b.Loop() {
		if p := PlanResume(recs, keys); len(p.Done)+len(p.Todo) != len(keys) {
			b.Fatal("lost items")
		}
	}
}

// BenchmarkRun measures the pool's own cost per item.
func BenchmarkRun(b *testing.B) {
	items := make([]int, 10_000)
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		err := Run(context.Background(), Pool{Jobs: 4}, items, func(_ context.Context, i int) (int, bool) { return i, true },
			Handlers[int]{Ordered: func(int, int) error { n++; return nil }})
		if err != nil || n != len(items) {
			b.Fatal(err, n)
		}
	}
	b.ReportMetric(float64(len(items)), "items/op")
}

func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "3/4", "4/4", "-1/2", "a/b", "1/", "/2", " 1 / 2 ", "99999999999999999999/1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if s != "" && (sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count) {
			t.Fatalf("ParseShard(%q) = %+v", s, sh)
		}
		if again, err := ParseShard(sh.String()); s != "" && !sh.All() && (err != nil || again != sh) {
			t.Fatalf("round trip of %q: %+v, %v", s, again, err)
		}
	})
}

// FuzzReadResults: whatever a results file holds, reading it back
// neither fails on a line nor loses a complete result line.
func FuzzReadResults(f *testing.F) {
	f.Add([]byte(`{"episode":"a","success":true}` + "\n" + `{"episode":"b"`))
	f.Add([]byte("\n\n{}\nnot json\n"))
	f.Add([]byte(`{"episode":"x#y","score":1e999}` + "\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, end, err := readRecords(bytes.NewReader(data), "f", func(string) {}, true, nil)
		if err != nil {
			return
		}
		if end > int64(len(data)) || end < int64(bytes.LastIndexByte(data, '\n')+1) {
			t.Fatalf("end %d of %d bytes", end, len(data))
		}
		for _, r := range recs {
			if r.Episode == "" || r.Key == "" {
				t.Fatalf("record without an episode: %+v", r)
			}
		}
	})
}

// BenchmarkStream is the overhead of Stream per item: claiming, storing
// and emitting in order, with work that does nothing.
func BenchmarkStream(b *testing.B) {
	const n = 1000
	sum := 0
	for b.Loop() {
		err := Stream(0, func(yield func(int)) error {
			for i := range n {
				yield(i)
			}
			return nil
		}, func() func(int) int { return func(i int) int { return i } }, func(r int) error {
			sum += r
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/item")
	b.ReportAllocs()
}
