package sampler

import (
	"image/color"
	"os"
	"sort"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/openbddl/bddl/predicates"
)

// The top-down drawing of a configuration: each room used, its scene
// objects (those bound to instances darker), and every placed instance
// labelled; objects inside a container are drawn dashed, cloth lying on
// a support light, so supports and containers stay visible underneath.

var (
	floorColor     = color.RGBA{R: 245, G: 243, B: 238, A: 255}
	sceneColor     = color.RGBA{R: 215, G: 212, B: 205, A: 255}
	boundColor     = color.RGBA{R: 160, G: 170, B: 190, A: 255}
	placedColor    = color.NRGBA{R: 230, G: 140, B: 60, A: 220}
	containedColor = color.NRGBA{R: 80, G: 150, B: 90, A: 200}
	clothColor     = color.NRGBA{R: 150, G: 110, B: 200, A: 90}
)

func rect(b predicates.Box) plotter.XYs {
	return plotter.XYs{{X: b.Min[0], Y: b.Min[1]}, {X: b.Max[0], Y: b.Min[1]}, {X: b.Max[0], Y: b.Max[1]}, {X: b.Min[0], Y: b.Max[1]}}
}

// Plot draws the configuration.
func (r *Result) Plot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = r.Activity + " in " + r.Scene
	p.X.Label.Text = "x (m)"
	p.Y.Label.Text = "y (m)"
	add := func(b predicates.Box, fill color.Color, dashed bool) error {
		poly, err := plotter.NewPolygon(rect(b))
		if err != nil {
			return err
		}
		poly.Color = fill
		poly.LineStyle.Width = vg.Points(0.5)
		poly.LineStyle.Color = color.RGBA{R: 60, G: 60, B: 60, A: 255}
		if dashed {
			poly.LineStyle.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		}
		p.Add(poly)
		return nil
	}
	bound := map[string]bool{}
	for _, o := range r.Objects {
		if o.SceneObject != "" {
			bound[o.SceneObject] = true
		}
	}
	var labels plotter.XYLabels
	for _, room := range r.rooms {
		if err := add(room.Floor, floorColor, false); err != nil {
			return nil, err
		}
		labels.XYs = append(labels.XYs, plotter.XY{X: room.Floor.Min[0] + 0.1, Y: room.Floor.Max[1] - 0.25})
		labels.Labels = append(labels.Labels, room.Name)
		for _, o := range room.Objects {
			if o.Kind == FloorPart || o.Kind == CeilingPart {
				continue
			}
			c := sceneColor
			if bound[o.Name] {
				c = boundColor
			}
			if err := add(o.Box, c, false); err != nil {
				return nil, err
			}
		}
	}
	// Lower objects first so what stands on top stays visible.
	placed := make([]Object, 0, len(r.Objects))
	for _, o := range r.Objects {
		if o.Placed && o.SceneObject == "" {
			placed = append(placed, o)
		}
	}
	sort.SliceStable(placed, func(i, j int) bool { return placed[i].Box.Min[2] < placed[j].Box.Min[2] })
	for _, o := range placed {
		c, dashed := color.Color(placedColor), false
		switch o.Relation {
		case "inside":
			c, dashed = containedColor, true
		case "overlaid", "draped":
			c = clothColor
		}
		if err := add(o.Box, c, dashed); err != nil {
			return nil, err
		}
		ctr := o.Box.Center()
		labels.XYs = append(labels.XYs, plotter.XY{X: ctr[0], Y: ctr[1]})
		labels.Labels = append(labels.Labels, o.Name)
	}
	for _, o := range r.Objects {
		if o.SceneObject != "" && o.Placed {
			ctr := o.Box.Center()
			labels.XYs = append(labels.XYs, plotter.XY{X: ctr[0], Y: ctr[1]})
			labels.Labels = append(labels.Labels, o.Name)
		}
	}
	lb, err := plotter.NewLabels(labels)
	if err != nil {
		return nil, err
	}
	for i := range lb.TextStyle {
		lb.TextStyle[i].Font.Size = vg.Points(5)
		lb.TextStyle[i].XAlign = draw.XCenter
	}
	p.Add(lb)
	return p, nil
}

// WriteSVG draws the configuration from above into an SVG file.
func (r *Result) WriteSVG(path string) error {
	p, err := r.Plot()
	if err != nil {
		return err
	}
	// Keep the metres square: size the drawing to the rooms' extent.
	xmin, xmax, ymin, ymax := p.X.Min, p.X.Max, p.Y.Min, p.Y.Max
	w, h := xmax-xmin, ymax-ymin
	width := vg.Length(22) * vg.Centimeter
	height := width
	if w > 0 && h > 0 {
		height = vg.Length(float64(width)*h/w) + 2*vg.Centimeter
	}
	wt, err := p.WriterTo(width, height, "svg")
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := wt.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
