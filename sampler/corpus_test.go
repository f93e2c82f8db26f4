package sampler_test

import (
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/sampler"
)

// corpusSet is the BEHAVIOR-1K corpus loaded once: its knowledge base,
// its activities, and per activity whether validate --scenes finds an
// error and which scenes it finds compatible.
type corpusSet struct {
	base   *kb.Base
	lib    *activities.Library
	clean  []bool
	scenes [][]string
}

func corpusData(t testing.TB) *corpusSet {
	c, err := loadCorpusOnce(corpus.Dir(t), corpus.KBDir(t))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var (
	corpusMu    sync.Mutex
	corpusCache *corpusSet
)

func loadCorpusOnce(dir, kbDir string) (*corpusSet, error) {
	corpusMu.Lock()
	defer corpusMu.Unlock()
	if corpusCache != nil {
		return corpusCache, nil
	}
	base, err := kb.Load(kbDir)
	if err != nil {
		return nil, err
	}
	lib, err := activities.LoadDir(filepath.Join(dir, "activity_definitions"))
	if err != nil {
		return nil, err
	}
	c := &corpusSet{base: base, lib: lib}
	for _, a := range lib.Activities {
		clean := a.Problem != nil && !a.Diagnostics.HasErrors()
		var scenes []string
		if clean {
			rep := activities.Analyze(a.Problem, base)
			clean = !activities.HasErrors(rep.Findings)
			if f := rep.Scenes; f != nil {
				for _, s := range f.Compatible() {
					scenes = append(scenes, s.Scene)
				}
			}
		}
		c.clean = append(c.clean, clean)
		c.scenes = append(c.scenes, scenes)
	}
	corpusCache = c
	return c, nil
}

// TestCorpusSampling samples every activity of the corpus in the scenes
// validate --scenes finds compatible, and reports the success rate and
// the failures by type. Among the activities validate finds no error in,
// at least 98 % must sample; none may fail verification (a sampler bug).
func TestCorpusSampling(t *testing.T) {
	if testing.Short() {
		t.Skip("samples the whole corpus")
	}
	c := corpusData(t)
	s := sampler.New(c.base, predicates.Options{})
	var ms []float64
	kinds := map[sampler.Kind]int{}
	ok, cleanOK, clean := 0, 0, 0
	var failed []string
	for i, a := range c.lib.Activities {
		if a.Problem == nil {
			continue
		}
		scenes := slices.Clone(c.scenes[i])
		sampler.ShuffleScenes(scenes, 0, a.Name)
		start := time.Now()
		_, err := s.Sample(sampler.Request{Activity: a.Name, Problem: a.Problem, Scenes: scenes})
		ms = append(ms, float64(time.Since(start).Microseconds())/1000)
		if c.clean[i] {
			clean++
		}
		if err == nil {
			ok++
			if c.clean[i] {
				cleanOK++
			}
			continue
		}
		f, isFailure := err.(*sampler.Failure)
		if !isFailure {
			t.Fatalf("%s: %v", a.Name, err)
		}
		kinds[f.Kind]++
		for _, tr := range f.Tried {
			if tr.Kind == sampler.Internal {
				t.Errorf("%s: %v", a.Name, tr)
			}
		}
		if f.Kind == sampler.Internal {
			t.Errorf("%s: %v", a.Name, f)
		}
		if c.clean[i] {
			failed = append(failed, a.Name+": "+firstLine(f.Error()))
		}
	}
	sort.Float64s(ms)
	t.Logf("sampled %d of %d activities (%.1f%%); %d of %d that validate finds no error in (%.1f%%)",
		ok, len(ms), 100*float64(ok)/float64(len(ms)), cleanOK, clean, 100*float64(cleanOK)/float64(max(clean, 1)))
	t.Logf("failures by type: %v", kinds)
	t.Logf("time per activity: median %.2f ms, p99 %.2f ms, max %.2f ms", ms[len(ms)/2], ms[len(ms)*99/100], ms[len(ms)-1])
	for _, f := range failed {
		t.Logf("  %s", f)
	}
	if clean == 0 || float64(cleanOK) < 0.98*float64(clean) {
		t.Errorf("sampled %d of %d clean activities, want at least 98%%", cleanOK, clean)
	}
}

func firstLine(s string) string {
	for i := range s {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// benchActivities is a fixed set of corpus activities of various sizes.
var benchActivities = []string{
	"assembling_gift_baskets", "cook_bacon", "slicing_vegetables", "putting_shoes_on_rack", "hiding_Easter_eggs",
	"make_microwave_popcorn", "clean_a_trumpet", "freeze_pies", "turning_on_radio", "cook_hot_dogs",
}

// BenchmarkSample samples a fixed set of corpus activities, one
// configuration each per iteration, in their first compatible scene
// (already laid out), and reports the time per configuration.
func BenchmarkSample(b *testing.B) {
	c := corpusData(b)
	s := sampler.New(c.base, predicates.Options{})
	type job struct {
		act   *activities.Activity
		scene []string
	}
	var jobs []job
	for i, a := range c.lib.Activities {
		if slices.Contains(benchActivities, a.Name) && a.Instance == 0 && len(c.scenes[i]) > 0 {
			jobs = append(jobs, job{a, c.scenes[i][:1]})
			s.Scene(c.scenes[i][0])
		}
	}
	if len(jobs) == 0 {
		b.Skip("none of the benchmark activities is in the corpus")
	}
	n, failed := 0, 0
	b.ReportAllocs()
	for b.Loop() {
		for _, j := range jobs {
			if _, err := s.Sample(sampler.Request{Activity: j.act.Name, Problem: j.act.Problem, Scenes: j.scene, Index: n}); err != nil {
				// A typed failure (no space in this one scene) is an
				// outcome; a sampler bug is not.
				if f, ok := err.(*sampler.Failure); !ok || f.Kind == sampler.Internal {
					b.Fatal(err)
				}
				failed++
			}
			n++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n)/1e6, "ms/config")
	b.ReportMetric(float64(failed)/float64(n), "failed/config")
}

// TestCorpusGoalSampling samples a goal state of every corpus activity:
// each either holds by the evaluator or fails with a typed reason, never
// an internal one.
func TestCorpusGoalSampling(t *testing.T) {
	if testing.Short() {
		t.Skip("samples the whole corpus")
	}
	c := corpusData(t)
	s := sampler.New(c.base, predicates.Options{})
	ok, n := 0, 0
	kinds := map[sampler.Kind]int{}
	for i, a := range c.lib.Activities {
		if a.Problem == nil || !c.clean[i] {
			continue
		}
		n++
		scenes := slices.Clone(c.scenes[i])
		sampler.ShuffleScenes(scenes, 0, a.Name)
		scenes = scenes[:min(3, len(scenes))] // enough to meet every kind of failure, in a few seconds
		res, err := s.Sample(sampler.Request{Activity: a.Name, Problem: a.Problem, Scenes: scenes, Goal: true})
		if err != nil {
			f := err.(*sampler.Failure)
			kinds[f.Kind]++
			for _, x := range append([]*sampler.Failure{f}, f.Tried...) {
				if x.Kind == sampler.Internal {
					t.Errorf("%s: %v", a.Name, x)
				}
			}
			continue
		}
		if v := res.Program.Eval(res.State); v != predicates.True {
			t.Errorf("%s: the goal is %s on its sampled goal state", a.Name, v)
		}
		ok++
	}
	t.Logf("goal states of %d of %d clean activities (%.1f%%); failures by type: %v", ok, n, 100*float64(ok)/float64(max(n, 1)), kinds)
}

// TestCorpusLayouts lays out every scene of the BEHAVIOR-1K knowledge
// base: no two scene objects overlap, no two rooms overlap, every piece of
// furniture stands in its room and none blocks a door.
func TestCorpusLayouts(t *testing.T) {
	c := corpusData(t)
	for _, ks := range c.base.Scenes() {
		sc := sampler.LayoutScene(c.base, ks)
		var boxes []predicates.Box
		var names []string
		var floor []bool
		for i, r := range sc.Rooms {
			for _, q := range sc.Rooms[i+1:] {
				if boxOverlap(r.Floor, q.Floor) {
					t.Errorf("%s: rooms %s and %s overlap", sc.Name, r.Name, q.Name)
				}
			}
			for _, o := range r.Objects {
				if o.Kind == sampler.Furniture {
					ctr := o.Box.Center()
					if ctr[0] < r.Floor.Min[0] || ctr[0] > r.Floor.Max[0] || ctr[1] < r.Floor.Min[1] || ctr[1] > r.Floor.Max[1] {
						t.Errorf("%s: %s stands outside %s", sc.Name, o.Name, r.Name)
					}
					for _, k := range r.Keepout {
						if boxOverlap(o.Box, k) {
							t.Errorf("%s: %s blocks a door of %s", sc.Name, o.Name, r.Name)
						}
					}
				}
				boxes = append(boxes, o.Box)
				names = append(names, o.Name)
				floor = append(floor, o.Kind == sampler.FloorPart)
			}
		}
		// Sweep along x so the check stays fast on scenes of thousands of
		// objects.
		idx := make([]int, len(boxes))
		for i := range idx {
			idx[i] = i
		}
		sort.Slice(idx, func(a, b int) bool { return boxes[idx[a]].Min[0] < boxes[idx[b]].Min[0] })
		for a := range idx {
			for b := a + 1; b < len(idx) && boxes[idx[b]].Min[0] < boxes[idx[a]].Max[0]; b++ {
				// Terrain set into the ground (a lawn) reaches below the
				// floor slab, its top at the floor's.
				x, y := idx[a], idx[b]
				if floor[y] {
					x, y = y, x
				}
				if floor[x] && !floor[y] && boxes[y].Max[2] <= boxes[x].Max[2]+1e-6 {
					continue
				}
				if boxOverlap(boxes[idx[a]], boxes[idx[b]]) {
					t.Errorf("%s: %s overlaps %s", sc.Name, names[idx[a]], names[idx[b]])
				}
			}
		}
	}
}

func boxOverlap(a, b predicates.Box) bool {
	for k := 0; k < 3; k++ {
		if a.Max[k] <= b.Min[k]+1e-6 || b.Max[k] <= a.Min[k]+1e-6 {
			return false
		}
	}
	return true
}
