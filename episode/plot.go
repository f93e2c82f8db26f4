package episode

import (
	"errors"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/openbddl/bddl/internal/termsafe"
	"github.com/openbddl/bddl/predicates"
)

// Colours of the three truth values in timelines, from the Okabe-Ito
// palette, which readers with any common colour-vision deficiency tell
// apart (unlike red against green): blue, orange, grey.
var truthColors = map[predicates.Truth]color.Color{
	predicates.True:    color.RGBA{R: 0x00, G: 0x72, B: 0xb2, A: 0xff},
	predicates.False:   color.RGBA{R: 0xe6, G: 0x9f, B: 0x00, A: 0xff},
	predicates.Unknown: color.RGBA{R: 0xbb, G: 0xbb, B: 0xbb, A: 0xff},
}

// Timeline size: 10 in wide (960 px in a PNG) and at least 4 in high,
// so that a goal of one or two conjuncts is not a sliver.
const (
	plotWidth     = 10 * vg.Inch
	plotMinHeight = 4 * vg.Inch
)

// stepTicks marks whole steps only: steps are integers, and a tick at
// 2.5 would name a step that does not exist.
type stepTicks struct{}

func (stepTicks) Ticks(min, max float64) []plot.Tick {
	var out []plot.Tick
	for _, t := range (plot.DefaultTicks{}).Ticks(min, max) {
		if t.Value == math.Trunc(t.Value) {
			out = append(out, t)
		}
	}
	if len(out) < 2 {
		// A few steps: one tick per step.
		out = out[:0]
		for v := math.Ceil(min); v <= max; v++ {
			out = append(out, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', -1, 64)})
		}
	}
	return out
}

// PlotTimeline draws, with gonum/plot, the truth of the goal and of each
// top-level conjunct over the episode: one row each, coloured true,
// false or unknown from step to step. It needs a result checked with
// CheckOptions.PerStep. The format follows path's extension: .svg, .png,
// .pdf, .eps, .jpg or .tif.
func (r *Result) PlotTimeline(path string) error {
	if len(r.PerStep) == 0 {
		return errors.New("episode: no per-step values to plot (check with PerStep)")
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".svg", ".png", ".pdf", ".eps", ".jpg", ".jpeg", ".tif", ".tiff":
	default:
		return fmt.Errorf("episode: cannot plot to %s: use .svg or .png", path)
	}
	p := plot.New()
	// The episode's file name may hold control bytes, which XML forbids
	// (the SVG would not open) and a terminal would act on.
	p.Title.Text = termsafe.Text(r.Activity + ": " + filepath.Base(r.Episode))
	p.X.Label.Text = "step          (blue: true, orange: false, grey: unknown)"
	p.X.Tick.Marker = stepTicks{}
	tl := &timeline{r: r}
	p.Add(tl)
	rows := len(r.Conjuncts) + 1
	var ticks []plot.Tick
	ticks = append(ticks, plot.Tick{Value: float64(rows - 1), Label: "goal"})
	for i, c := range r.Conjuncts {
		ticks = append(ticks, plot.Tick{Value: float64(rows - 2 - i), Label: fmt.Sprintf("c%d %s", i+1, shorten(c, 44))})
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min, p.Y.Max = -0.6, float64(rows)-0.4
	height := max(vg.Length(1.4+0.32*float64(rows))*vg.Inch, plotMinHeight)
	return p.Save(plotWidth, height, path)
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// timeline is the plotter: runs of equal values drawn as bars.
type timeline struct{ r *Result }

func (t *timeline) DataRange() (xmin, xmax, ymin, ymax float64) {
	ps := t.r.PerStep
	rows := len(t.r.Conjuncts) + 1
	return float64(ps[0].Step), float64(ps[len(ps)-1].Step + 1), -0.6, float64(rows) - 0.4
}

func (t *timeline) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	ps := t.r.PerStep
	rows := len(t.r.Conjuncts) + 1
	value := func(i, row int) predicates.Truth {
		if row == 0 {
			return ps[i].Goal
		}
		return ps[i].Conjuncts[row-1]
	}
	end := func(i int) float64 {
		if i+1 < len(ps) {
			return float64(ps[i+1].Step)
		}
		return float64(ps[i].Step + 1)
	}
	for row := 0; row < rows; row++ {
		y := float64(rows - 1 - row)
		for i := 0; i < len(ps); {
			v := value(i, row)
			j := i
			for j+1 < len(ps) && value(j+1, row) == v {
				j++
			}
			x0, x1 := trX(float64(ps[i].Step)), trX(end(j))
			y0, y1 := trY(y-0.35), trY(y+0.35)
			c.FillPolygon(truthColors[v], c.ClipPolygonXY([]vg.Point{{X: x0, Y: y0}, {X: x1, Y: y0}, {X: x1, Y: y1}, {X: x0, Y: y1}}))
			i = j + 1
		}
	}
}
