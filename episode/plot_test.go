package episode

import (
	"bytes"
	"encoding/xml"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/openbddl/bddl/predicates"
)

// TestStepTicks: the step axis marks whole steps only.
func TestStepTicks(t *testing.T) {
	for _, r := range [][2]float64{{0, 3}, {0, 5.5}, {0, 13}, {100, 2000}} {
		ticks := stepTicks{}.Ticks(r[0], r[1])
		if len(ticks) < 2 {
			t.Errorf("[%v, %v]: %d ticks", r[0], r[1], len(ticks))
		}
		for _, tk := range ticks {
			if tk.Value != math.Trunc(tk.Value) {
				t.Errorf("[%v, %v]: tick at step %v", r[0], r[1], tk.Value)
			}
		}
	}
}

// TestPlotTimeline: a two-row timeline is a readable PNG, not a sliver,
// in colours that are not red against green.
func TestPlotTimeline(t *testing.T) {
	r := &Result{Activity: "a", Episode: "e.jsonl", Conjuncts: []string{"(cooked bacon)"}}
	for s := range 4 {
		v := predicates.False
		if s >= 2 {
			v = predicates.True
		}
		r.PerStep = append(r.PerStep, StepTruth{Step: int64(s), Goal: v, Conjuncts: []predicates.Truth{v}})
	}
	path := filepath.Join(t.TempDir(), "t.png")
	if err := r.PlotTimeline(path); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width < 960 || cfg.Height < 384 {
		t.Errorf("plot is %d×%d px, want at least 960×384", cfg.Width, cfg.Height)
	}
	for v, c := range truthColors {
		r, g, b, _ := c.RGBA()
		if v != predicates.Unknown && (r > 2*g && r > 2*b || g > 2*r && g > 2*b) {
			t.Errorf("%v is drawn pure red or green (%v): not colour-blind safe", v, c)
		}
	}
}

// TestPlotTimelineControlBytes: an episode file name holding ESC, BEL
// or a newline (a name met in a walk) gives an SVG that is still XML
// (which forbids those bytes) and holds none of them.
func TestPlotTimelineControlBytes(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"c\x1b]0;T\a\nFAKE.jsonl", "d\r\x9b31m.jsonl", "e\x7f\x01.jsonl"} {
		r := &Result{Activity: "a", Episode: "runs/" + name, Conjuncts: []string{"(cooked bacon)"}}
		r.PerStep = []StepTruth{{Step: 0, Goal: predicates.True, Conjuncts: []predicates.Truth{predicates.True}}}
		path := filepath.Join(t.TempDir(), "t.svg")
		if err := r.PlotTimeline(path); err != nil {
			t.Fatal(err)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range data {
			if b < 0x20 && b != '\n' && b != '\t' && b != '\r' || b == 0x7f {
				t.Errorf("PlotTimeline(%q): control byte %#x in the SVG", name, b)
				break
			}
		}
		dec := xml.NewDecoder(bytes.NewReader(data))
		for {
			if _, err := dec.Token(); err == io.EOF {
				break
			} else if err != nil {
				t.Errorf("PlotTimeline(%q): SVG is not XML: %v", name, err)
				break
			}
		}
	}
}
