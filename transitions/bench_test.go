package transitions

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/predicates"
)

// benchActivity is a corpus activity with its engine under the full
// BEHAVIOR-1K rule set, in the closed-world state of its own :init.
type benchActivity struct {
	name  string
	prog  *predicates.Program
	eng   *Engine
	state *predicates.State
}

var benchActs struct {
	sync.Once
	acts []benchActivity
}

// corpusEngines compiles every corpus activity and its rules, sorted by
// the number of rules that can apply to it, then by name.
func corpusEngines(tb testing.TB) []benchActivity {
	base := behavior1k(tb)
	files := corpus.ActivityFiles(tb)
	benchActs.Do(func() {
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				continue
			}
			prob, diags := bddl.ParseProblem(f, src)
			if diags.HasErrors() || prob == nil {
				continue
			}
			prog, err := predicates.Compile(prob, base, predicates.Options{})
			if err != nil {
				continue
			}
			eng, err := Compile(prog, base)
			if err != nil {
				continue
			}
			benchActs.acts = append(benchActs.acts, benchActivity{name: filepath.Base(filepath.Dir(f)), prog: prog, eng: eng, state: prog.InitState()})
		}
		slices.SortFunc(benchActs.acts, func(a, b benchActivity) int {
			if d := a.eng.NumRules() - b.eng.NumRules(); d != 0 {
				return d
			}
			return strings.Compare(a.name, b.name)
		})
	})
	if len(benchActs.acts) == 0 {
		tb.Fatal("no corpus activity compiled")
	}
	return benchActs.acts
}

// BenchmarkStep steps the full BEHAVIOR-1K rule set over an activity's
// :init state, on which nothing fires: the activity with the median
// number of applicable rules (most have none), the median of those with
// at least one, and the one with the most. "fires" is a
// heat_cook recipe firing on every step (the engine reset, the trigger
// state copied in, then the step).
func BenchmarkStep(b *testing.B) {
	acts := corpusEngines(b)
	withRules := slices.IndexFunc(acts, func(a benchActivity) bool { return a.eng.NumRules() > 0 })
	if withRules < 0 {
		b.Fatal("no corpus activity has an applicable rule")
	}
	ruled := acts[withRules:]
	for _, c := range []struct {
		name string
		act  benchActivity
	}{{"median", acts[len(acts)/2]}, {"median-with-rules", ruled[len(ruled)/2]}, {"most-rules", acts[len(acts)-1]}} {
		b.Run(c.name, func(b *testing.B) {
			eng, s := c.act.eng, c.act.state
			eng.Step(s)
			b.ReportAllocs()
			for b.Loop() {
				if eng.Step(s).Fired() {
					b.Fatal("a rule fired")
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
			b.ReportMetric(float64(eng.NumRules()), "rules")
			b.ReportMetric(float64(c.act.prog.NumObjects()), "objects")
			b.Logf("%s: %d objects, %d rules", c.act.name, c.act.prog.NumObjects(), eng.NumRules())
		})
	}
	// The baseline for ratios on a loaded machine: evaluating the goal of
	// the median activity with rules on the same state.
	b.Run("eval-baseline", func(b *testing.B) {
		act := ruled[len(ruled)/2]
		b.ReportAllocs()
		for b.Loop() {
			act.prog.Eval(act.state)
		}
	})
	b.Run("fires", func(b *testing.B) {
		base := behavior1k(b)
		var res *SampleResult
		for _, r := range Rules(base) {
			if r.Family == HeatCook {
				if x, err := Sample(base, r, SampleOptions{}); err == nil && x.Outcome.Fired() {
					res = x
					break
				}
			}
		}
		if res == nil {
			b.Skip("no heat_cook sample fires")
		}
		eng, _ := Compile(res.Program, base)
		trigger := res.Steps[len(res.Steps)-1]
		s := res.Program.NewState()
		b.ReportAllocs()
		for b.Loop() {
			eng.Reset()
			_ = s.CopyFrom(trigger)
			if !eng.Step(s).Fired() {
				b.Fatal("did not fire")
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
	})
}

// BenchmarkCompile compiles the full BEHAVIOR-1K rule set for the median
// activity with rules: the cost check --transitions pays once per
// activity (and wildcard expansion).
func BenchmarkCompile(b *testing.B) {
	acts := corpusEngines(b)
	withRules := slices.IndexFunc(acts, func(a benchActivity) bool { return a.eng.NumRules() > 0 })
	act := acts[withRules:][len(acts[withRules:])/2]
	base := behavior1k(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compile(act.prog, base); err != nil {
			b.Fatal(err)
		}
	}
}
