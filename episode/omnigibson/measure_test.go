package omnigibson

import (
	"math"
	"os"
	"sort"
	"testing"
)

// TestMeasureErrors logs the figures of the error model on the shared
// instances (docs/omnigibson.md): how far voted offsets lie from the box
// centre, as a share of the half height, and the vote spreads. Run with
// BDDL_MEASURE=1.
func TestMeasureErrors(t *testing.T) {
	if os.Getenv("BDDL_MEASURE") == "" {
		t.Skip("set BDDL_MEASURE=1 to measure")
	}
	base := corpusKB(t)
	var frac, sd []float64
	for _, dir := range taskDirs(t) {
		task, err := FindTask(dir)
		if err != nil || task.Definition == "" {
			continue
		}
		tmpl, err := ReadTask(task)
		if err != nil {
			t.Fatal(err)
		}
		c, err := NewConverter(tmpl, readProblem(t, task.Definition), task.Definition, base, Options{})
		if err != nil {
			t.Fatal(err)
		}
		dz, has := c.offsets()
		for i := range tmpl.Objects {
			m := c.modelID[i]
			if !has[m] || !c.models[i].hasSize {
				continue
			}
			h := c.models[i].size[2] / 2
			frac = append(frac, math.Abs(dz[m])/h)
		}
		for m, n := range c.votes.n {
			if n > 1 {
				sd = append(sd, 1.4826*c.votes.mad[m])
			}
		}
	}
	q := func(v []float64, p float64) float64 {
		sort.Float64s(v)
		if len(v) == 0 {
			return math.NaN()
		}
		return v[int(p*float64(len(v)-1))]
	}
	t.Logf("voted objects %d: |offset|/half height median %.3f p75 %.3f p90 %.3f p99 %.3f", len(frac), q(frac, .5), q(frac, .75), q(frac, .9), q(frac, .99))
	t.Logf("models with several votes %d: spread (1.4826 MAD, unscaled m) median %.4f p90 %.4f p99 %.4f", len(sd), q(sd, .5), q(sd, .9), q(sd, .99))
}
