package dora

import (
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/dora/doratest"
	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// The benchmark's episode: 10 minutes of a humanoid (observation.state
// and base_state at 60 Hz, action and action.base at 100 Hz) walking
// into the kitchen, 20 objects tracked at 30 Hz (two of them moving).
const (
	benchSeconds = 600
	benchObjects = 20
	benchTrackHz = 30
	benchT0      = 1_750_000_000.0
)

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

func benchEpisode(b *testing.B) string {
	benchOnce.Do(func() {
		benchDir, benchErr = os.MkdirTemp("", "dora-bench-")
		if benchErr != nil {
			return
		}
		ep := filepath.Join(benchDir, "session", "episode_000000000")
		benchErr = doratest.Write(ep, doratest.Spec{Start: benchT0, Duration: benchSeconds, RowGroup: 4096,
			Base:    func(t float64) (float64, float64, float64) { return -2 + (t-benchT0)/100, 1, 0 },
			Gripper: func(t float64) float64 { return float64(int(t-benchT0) / 30 % 2) }})
		if benchErr != nil {
			return
		}
		var sb strings.Builder
		for k := 0; k <= benchSeconds*benchTrackHz; k++ {
			fmt.Fprintf(&sb, `{"t":%.4f,"objects":{`, benchT0+float64(k)/benchTrackHz)
			for i := range benchObjects {
				x := 0.7 + 0.03*float64(i)
				if i < 2 {
					x += 0.1 * math.Sin(float64(k)/100)
				}
				if i > 0 {
					sb.WriteByte(',')
				}
				fmt.Fprintf(&sb, `"obj_%d":{"aabb":[%.4f,0.9,0.8,%.4f,0.94,0.86]}`, i, x, x+0.02)
			}
			sb.WriteString("}}\n")
		}
		benchErr = os.WriteFile(ep+recording.TrackSuffix, []byte(sb.String()), 0o644)
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return filepath.Join(benchDir, "session", "episode_000000000")
}

// benchProgram: every object on the table, the agent in the kitchen.
func benchProgram(b *testing.B) (*predicates.Program, *recording.Map) {
	var objs, names strings.Builder
	for k := range benchObjects {
		fmt.Fprintf(&objs, " apple.n.01_%d", k+1)
		fmt.Fprintf(&names, "  obj_%d: apple.n.01_%d\n", k, k+1)
	}
	src := fmt.Sprintf(`(define (problem bench-0) (:domain omnigibson)
 (:objects%s - apple.n.01 table.n.02_1 - table.n.02 floor.n.01_1 - floor.n.01 agent.n.01_1 - agent.n.01)
 (:init (ontop agent.n.01_1 floor.n.01_1) (inroom floor.n.01_1 kitchen) (inroom table.n.02_1 kitchen))
 (:goal (and (forall (?a - apple.n.01) (ontop ?a ?table.n.02_1)) (inroom ?agent.n.01_1 kitchen))))`, objs.String())
	prob, diags := bddl.ParseProblem("bench.bddl", []byte(src))
	if diags.HasErrors() {
		b.Fatal(diags)
	}
	prog, err := predicates.Compile(prob, kb.Default(), predicates.Options{})
	if err != nil {
		b.Fatal(err)
	}
	m, err := recording.ParseMap("bench.yaml", []byte("agent:\n  gripper: observation.state:left_gripper\nnames:\n"+names.String()+
		"rooms:\n  kitchen_0: [0, -5, 10, 5]\n  corridor_0: [-5, -5, 0, 5]\nstatic:\n  table.n.02_1: {aabb: [0.5, 0.5, 0, 1.5, 1.5, 0.8]}\n"))
	if err != nil {
		b.Fatal(err)
	}
	return prog, m
}

// readParquet reads every stream of the episode (the baseline).
func readParquet(b *testing.B, e *Episode) int {
	rows := 0
	for _, s := range e.Streams {
		if IsImage(s) {
			continue
		}
		sf, err := e.Open(s)
		if err != nil {
			b.Fatal(err)
		}
		r := sf.Reader(false)
		for {
			if _, err := r.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
			rows++
		}
		sf.Close()
	}
	return rows
}

func convertCheck(b *testing.B, e *Episode, prog *predicates.Program, o recording.Options) *episode.Result {
	s, err := e.Join(o)
	if err != nil {
		b.Fatal(err)
	}
	rd, err := episode.NewReader(s, e.Dir)
	if err != nil {
		b.Fatal(err)
	}
	res := episode.Check(context.Background(), prog, rd, episode.CheckOptions{Hold: 1})
	if s.Err() != nil || res.Error != "" {
		b.Fatalf("%v %s", s.Err(), res.Error)
	}
	return res
}

// BenchmarkDoraEpisode converts and checks the 10-minute episode (the
// join of base_state, the gripper and the track, then the check), and
// reads its four Parquet streams in full as the baseline, in each
// iteration. It reports the ratio of the two (min and median), and the
// conversion's time as a fraction of the recorded duration.
//
//	go test ./episode/dora -run '^$' -bench DoraEpisode -benchtime 5x -cpu 1
func BenchmarkDoraEpisode(b *testing.B) {
	dir := benchEpisode(b)
	prog, m := benchProgram(b)
	e, err := OpenEpisode(dir)
	if err != nil {
		b.Fatal(err)
	}
	inst := make([]string, prog.NumObjects())
	for i := range inst {
		inst[i] = prog.Name(predicates.ObjectID(i))
	}
	o := recording.Options{Activity: "bench-0", Instances: inst, Map: m}
	var ratios, fractions []float64
	b.ReportAllocs()
	for b.Loop() {
		t0 := time.Now()
		readParquet(b, e)
		base := time.Since(t0)
		t1 := time.Now()
		res := convertCheck(b, e, prog, o)
		conv := time.Since(t1)
		if res.Steps != benchSeconds*benchTrackHz+1 {
			b.Fatalf("%d steps", res.Steps)
		}
		ratios = append(ratios, conv.Seconds()/base.Seconds())
		fractions = append(fractions, conv.Seconds()/benchSeconds)
	}
	slices.Sort(ratios)
	slices.Sort(fractions)
	b.ReportMetric(ratios[0], "ratio-min")
	b.ReportMetric(ratios[len(ratios)/2], "ratio-median")
	b.ReportMetric(fractions[len(fractions)/2]*100, "%-of-duration")
}
