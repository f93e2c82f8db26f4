package sampler

import (
	"image/color"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/openbddl/bddl/predicates"
)

// The drawing of a configuration: a top-down view zoomed to the task's
// objects (scene furniture in view labelled by category, task objects by
// name, labels kept apart), with the whole floor plan as an inset, a scale
// bar, and below it a side view of the tallest support and a legend.
// Objects inside a container are dashed, cloth light, the agent teal;
// an object shrunk to fit is outlined red and its label gives the factor.

var (
	floorColor     = color.RGBA{R: 245, G: 243, B: 238, A: 255}
	sceneColor     = color.RGBA{R: 215, G: 212, B: 205, A: 255}
	boundColor     = color.RGBA{R: 160, G: 170, B: 190, A: 255}
	placedColor    = color.NRGBA{R: 230, G: 140, B: 60, A: 220}
	containedColor = color.NRGBA{R: 80, G: 150, B: 90, A: 200}
	clothColor     = color.NRGBA{R: 150, G: 110, B: 200, A: 90}
	agentColor     = color.NRGBA{R: 40, G: 150, B: 150, A: 220}
	edgeColor      = color.RGBA{R: 60, G: 60, B: 60, A: 255}
	shrunkColor    = color.RGBA{R: 200, G: 30, B: 30, A: 255}
	sceneTextColor = color.RGBA{R: 110, G: 110, B: 110, A: 255}
)

// Drawing sizes.
const (
	svgWidth    = 18 * vg.Centimeter
	bandHeight  = 6 * vg.Centimeter
	insetFrac   = 0.28
	viewMargin  = 0.8 // metres around the task's objects
	minViewSide = 3.0
	labelPt     = 7
	sceneLabel  = 6
)

func rect(b predicates.Box) plotter.XYs {
	return plotter.XYs{{X: b.Min[0], Y: b.Min[1]}, {X: b.Max[0], Y: b.Min[1]}, {X: b.Max[0], Y: b.Max[1]}, {X: b.Min[0], Y: b.Max[1]}}
}

// side is a box seen from the side: x (or y) and z.
func side(b predicates.Box, k int) plotter.XYs {
	return plotter.XYs{{X: b.Min[k], Y: b.Min[2]}, {X: b.Max[k], Y: b.Min[2]}, {X: b.Max[k], Y: b.Max[2]}, {X: b.Min[k], Y: b.Max[2]}}
}

func polygon(pts plotter.XYs, fill color.Color, dashed bool, edge color.Color, width float64) *plotter.Polygon {
	poly, _ := plotter.NewPolygon(pts)
	poly.Color = fill
	poly.LineStyle.Width = vg.Points(width)
	poly.LineStyle.Color = edge
	if dashed {
		poly.LineStyle.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
	}
	return poly
}

// shortName drops the sense part of an instance name: plate.n.04_1 →
// plate_1.
func shortName(name string) string {
	if i := strings.Index(name, ".n."); i > 0 {
		if j := strings.LastIndexByte(name, '_'); j > i {
			return name[:i] + name[j:]
		}
	}
	return name
}

// style of a placed object.
func (r *Result) style(o *Object) (color.Color, bool) {
	switch {
	case o.Category == "agent" || strings.HasPrefix(o.Synset, "agent."):
		return agentColor, false
	case o.Relation == "inside":
		return containedColor, true
	case o.Relation == "overlaid" || o.Relation == "draped":
		return clothColor, false
	}
	return placedColor, false
}

// view is the part of the scene the drawing shows: the task's objects
// and a margin, at least minViewSide square.
func (r *Result) view() (x0, y0, x1, y1 float64) {
	x0, y0, x1, y1 = math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, o := range r.Objects {
		if !o.Placed || o.Category == "agent" || strings.HasPrefix(o.Synset, "agent.") {
			continue
		}
		if o.SceneObject != "" {
			// Floors and other structure bound to instances span rooms.
			if e := o.Box.Extent(); e[0]*e[1] > 25 {
				continue
			}
		}
		x0, y0 = min(x0, o.Box.Min[0]), min(y0, o.Box.Min[1])
		x1, y1 = max(x1, o.Box.Max[0]), max(y1, o.Box.Max[1])
	}
	if math.IsInf(x0, 1) {
		for _, room := range r.rooms {
			x0, y0 = min(x0, room.Floor.Min[0]), min(y0, room.Floor.Min[1])
			x1, y1 = max(x1, room.Floor.Max[0]), max(y1, room.Floor.Max[1])
		}
	}
	if math.IsInf(x0, 1) {
		return 0, 0, minViewSide, minViewSide
	}
	x0, y0, x1, y1 = x0-viewMargin, y0-viewMargin, x1+viewMargin, y1+viewMargin
	grow := func(lo, hi float64) (float64, float64) {
		if d := minViewSide - (hi - lo); d > 0 {
			return lo - d/2, hi + d/2
		}
		return lo, hi
	}
	x0, x1 = grow(x0, x1)
	y0, y1 = grow(y0, y1)
	return x0, y0, x1, y1
}

// label is one text to place near an anchor.
type label struct {
	x, y  float64 // anchor, data coordinates
	text  string
	size  float64
	color color.Color
	must  bool // a task object: always drawn, with a leader line if moved
}

// labelLayer draws labels without overlaps: each at the first free spot
// on rings around its anchor, task objects first; scene furniture labels
// that find no free spot are left out.
type labelLayer struct{ labels []label }

func (l *labelLayer) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	var taken []vg.Rectangle
	free := func(rc vg.Rectangle) bool {
		if rc.Min.X < c.Min.X || rc.Max.X > c.Max.X || rc.Min.Y < c.Min.Y || rc.Max.Y > c.Max.Y {
			return false
		}
		for _, t := range taken {
			if rc.Min.X < t.Max.X && t.Min.X < rc.Max.X && rc.Min.Y < t.Max.Y && t.Min.Y < rc.Max.Y {
				return false
			}
		}
		return true
	}
	order := make([]int, len(l.labels))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return l.labels[order[a]].must && !l.labels[order[b]].must })
	for _, i := range order {
		lb := l.labels[i]
		ax, ay := trX(lb.x), trY(lb.y)
		if !c.Contains(vg.Point{X: ax, Y: ay}) {
			continue
		}
		sty := draw.TextStyle{Color: lb.color, Font: plot.DefaultFont, Handler: plot.DefaultTextHandler, XAlign: draw.XCenter, YAlign: draw.YCenter}
		sty.Font.Size = vg.Points(lb.size)
		sty.Font = plot.DefaultTextHandler.Cache().Lookup(sty.Font, sty.Font.Size).Font
		w, h := sty.Width(lb.text)+vg.Points(2), sty.Height(lb.text)
		var at vg.Point
		placed := false
		for ring := 0; ring <= 6 && !placed; ring++ {
			steps := 1
			if ring > 0 {
				steps = 8
			}
			for k := 0; k < steps; k++ {
				th := float64(k) * math.Pi / 4
				d := vg.Length(ring) * h
				pt := vg.Point{X: ax + d*vg.Length(math.Cos(th))*1.6, Y: ay + d*vg.Length(math.Sin(th))}
				rc := vg.Rectangle{Min: vg.Point{X: pt.X - w/2, Y: pt.Y - h/2}, Max: vg.Point{X: pt.X + w/2, Y: pt.Y + h/2}}
				if free(rc) {
					at, placed = pt, true
					taken = append(taken, rc)
					break
				}
			}
		}
		if !placed {
			if !lb.must {
				continue
			}
			at = vg.Point{X: ax, Y: ay}
		}
		if at != (vg.Point{X: ax, Y: ay}) {
			c.StrokeLine2(draw.LineStyle{Color: lb.color, Width: vg.Points(0.4)}, ax, ay, at.X, at.Y)
		}
		// A white halo keeps the text readable over the boxes.
		c.FillPolygon(color.NRGBA{R: 255, G: 255, B: 255, A: 190}, []vg.Point{
			{X: at.X - w/2, Y: at.Y - h/2}, {X: at.X + w/2, Y: at.Y - h/2}, {X: at.X + w/2, Y: at.Y + h/2}, {X: at.X - w/2, Y: at.Y + h/2}})
		c.FillText(sty, at, lb.text)
	}
}

// scaleBar draws a bar of a round length at the bottom left of the data
// area.
type scaleBar struct{ span float64 }

func (s scaleBar) Plot(c draw.Canvas, p *plot.Plot) {
	length := 0.5
	for _, l := range []float64{0.5, 1, 2, 5, 10, 20} {
		if l <= s.span/4 {
			length = l
		}
	}
	trX, _ := p.Transforms(&c)
	px := trX(p.X.Min+length) - trX(p.X.Min)
	x0, y0 := c.Min.X+vg.Points(10), c.Min.Y+vg.Points(10)
	ls := draw.LineStyle{Color: color.Black, Width: vg.Points(1.5)}
	c.StrokeLine2(ls, x0, y0, x0+px, y0)
	c.StrokeLine2(ls, x0, y0-vg.Points(3), x0, y0+vg.Points(3))
	c.StrokeLine2(ls, x0+px, y0-vg.Points(3), x0+px, y0+vg.Points(3))
	sty := draw.TextStyle{Color: color.Black, Font: plot.DefaultFont, Handler: plot.DefaultTextHandler, XAlign: draw.XCenter}
	sty.Font.Size = vg.Points(labelPt)
	sty.Font = plot.DefaultTextHandler.Cache().Lookup(sty.Font, sty.Font.Size).Font
	c.FillText(sty, vg.Point{X: x0 + px/2, Y: y0 + vg.Points(4)}, trimFloat(length)+" m")
}

func trimFloat(v float64) string { return strconv.FormatFloat(v, 'g', 3, 64) }

// Plot draws the configuration from above, zoomed to the task's objects.
func (r *Result) Plot() (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = r.Activity + " in " + r.Scene
	p.X.Label.Text = "x (m)"
	p.Y.Label.Text = "y (m)"
	x0, y0, x1, y1 := r.view()
	bound := map[string]bool{}
	for _, o := range r.Objects {
		if o.SceneObject != "" {
			bound[o.SceneObject] = true
		}
	}
	inView := func(b predicates.Box) bool {
		return b.Max[0] > x0 && b.Min[0] < x1 && b.Max[1] > y0 && b.Min[1] < y1
	}
	var labels labelLayer
	// Every room in view, not only the task's: neighbours matter.
	for _, room := range r.scene.Rooms {
		if !inView(room.Floor) {
			continue
		}
		p.Add(polygon(rect(room.Floor), floorColor, false, edgeColor, 0.8))
		labels.labels = append(labels.labels, label{x: max(room.Floor.Min[0], x0) + 0.4, y: min(room.Floor.Max[1], y1) - 0.25, text: room.Name, size: labelPt + 1, color: color.Black})
	}
	for _, room := range r.scene.Rooms {
		if !inView(room.Floor) {
			continue
		}
		for _, o := range room.Objects {
			if o.Kind == FloorPart || o.Kind == CeilingPart || (o.Task && !bound[o.Name]) || !inView(o.Box) {
				continue
			}
			c := color.Color(sceneColor)
			if bound[o.Name] {
				c = boundColor
			}
			p.Add(polygon(rect(o.Box), c, false, edgeColor, 0.5))
			if !bound[o.Name] {
				ctr := o.Box.Center()
				labels.labels = append(labels.labels, label{x: ctr[0], y: ctr[1], text: o.Category, size: sceneLabel, color: sceneTextColor})
			}
		}
	}
	// Lower objects first so what stands on top stays visible.
	placed := make([]*Object, 0, len(r.Objects))
	for i := range r.Objects {
		if o := &r.Objects[i]; o.Placed && o.SceneObject == "" {
			placed = append(placed, o)
		}
	}
	sort.SliceStable(placed, func(i, j int) bool { return placed[i].Box.Min[2] < placed[j].Box.Min[2] })
	for _, o := range placed {
		c, dashed := r.style(o)
		edge, w := color.Color(edgeColor), 0.5
		text := shortName(o.Name)
		if o.Scale > 0 && o.Scale != 1 {
			edge, w = shrunkColor, 1.5
			text += " ×" + trimFloat(o.Scale)
		}
		p.Add(polygon(rect(o.Box), c, dashed, edge, w))
		ctr := o.Box.Center()
		labels.labels = append(labels.labels, label{x: ctr[0], y: ctr[1], text: text, size: labelPt, color: color.Black, must: true})
	}
	for _, o := range r.Objects {
		if o.SceneObject != "" && o.Placed && inView(o.Box) {
			ctr := o.Box.Center()
			labels.labels = append(labels.labels, label{x: ctr[0], y: ctr[1], text: shortName(o.Name), size: labelPt, color: color.RGBA{R: 30, G: 40, B: 110, A: 255}, must: true})
		}
	}
	p.Add(&labels, scaleBar{span: x1 - x0})
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = x0, x1, y0, y1
	return p, nil
}

// inset is the whole floor plan with the view outlined.
func (r *Result) inset() *plot.Plot {
	p := plot.New()
	p.HideAxes()
	used := map[*Room]bool{}
	for _, room := range r.rooms {
		used[room] = true
	}
	for _, room := range r.scene.Rooms {
		c := color.Color(color.RGBA{R: 235, G: 235, B: 235, A: 255})
		if used[room] {
			c = color.RGBA{R: 200, G: 215, B: 235, A: 255}
		}
		p.Add(polygon(rect(room.Floor), c, false, color.RGBA{R: 120, G: 120, B: 120, A: 255}, 0.3))
	}
	x0, y0, x1, y1 := r.view()
	v := polygon(rect(mkBox(x0, y0, 0, x1, y1, 0)), color.Transparent, false, shrunkColor, 1)
	p.Add(v)
	return p
}

// tallestSupport is the object with the highest top among those the
// task's objects stand on or lie in, and the objects on or in it.
func (r *Result) tallestSupport() (*Object, []*Object) {
	byName := map[string]*Object{}
	for i := range r.Objects {
		byName[r.Objects[i].Name] = &r.Objects[i]
	}
	var best *Object
	for _, o := range r.Objects {
		if !o.Placed || (o.Relation != "ontop" && o.Relation != "inside") {
			continue
		}
		p := byName[o.Parent]
		if p == nil || !p.Placed || p.Box.Extent()[0]*p.Box.Extent()[1] > 25 {
			continue
		}
		if best == nil || p.Box.Max[2] > best.Box.Max[2] {
			best = p
		}
	}
	if best == nil {
		return nil, nil
	}
	var held []*Object
	for i := range r.Objects {
		o := &r.Objects[i]
		for q, guard := o, 0; q != nil && q.Parent != "" && guard < 64; guard++ {
			if q.Parent == best.Name {
				held = append(held, o)
				break
			}
			q = byName[q.Parent]
		}
	}
	return best, held
}

// sideView draws the tallest support and what it holds from the side,
// along its longer horizontal axis.
func (r *Result) sideView() *plot.Plot {
	sup, held := r.tallestSupport()
	p := plot.New()
	p.Y.Label.Text = "height (m)"
	if sup == nil {
		p.Title.Text = "no object stands on another"
		p.HideAxes()
		return p
	}
	e := sup.Box.Extent()
	k := 0
	if e[1] > e[0] {
		k = 1
	}
	p.Title.Text = "side view of " + shortName(sup.Name)
	p.X.Label.Text = string("xy"[k]) + " (m)"
	floor := 0.0
	if room := r.scene.Room(sup.Room); room != nil {
		floor = room.Floor.Max[2]
	}
	var labels labelLayer
	// What the support stands on (a countertop's cabinet), for scale.
	if room := r.scene.Room(sup.Room); room != nil {
		for _, o := range room.Objects {
			b := o.Box
			if o.Kind != Furniture || o.Name == sup.Name || b.Max[2] > sup.Box.Min[2]+0.01 ||
				b.Max[0] <= sup.Box.Min[0] || b.Min[0] >= sup.Box.Max[0] || b.Max[1] <= sup.Box.Min[1] || b.Min[1] >= sup.Box.Max[1] {
				continue
			}
			p.Add(polygon(side(b, k), sceneColor, false, edgeColor, 0.5))
			c := b.Center()
			labels.labels = append(labels.labels, label{x: c[k], y: c[2], text: o.Category, size: sceneLabel, color: sceneTextColor})
		}
	}
	p.Add(polygon(side(sup.Box, k), boundColor, false, edgeColor, 0.5))
	for _, o := range held {
		c, dashed := r.style(o)
		p.Add(polygon(side(o.Box, k), c, dashed, edgeColor, 0.5))
		ctr := o.Box.Center()
		labels.labels = append(labels.labels, label{x: ctr[k], y: ctr[2], text: shortName(o.Name), size: labelPt - 1, color: color.Black, must: true})
	}
	lo, hi := sup.Box.Min[k]-0.3, sup.Box.Max[k]+0.3
	ground, _ := plotter.NewLine(plotter.XYs{{X: lo, Y: floor}, {X: hi, Y: floor}})
	ground.LineStyle.Width = vg.Points(1.5)
	p.Add(ground, &labels)
	top := sup.Box.Max[2]
	for _, o := range held {
		top = max(top, o.Box.Max[2])
	}
	p.X.Min, p.X.Max = lo, hi
	p.Y.Min, p.Y.Max = floor, top+0.2
	return p
}

// legend describes the colours.
func legend() plot.Legend {
	l := plot.NewLegend()
	sq := plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 0}, {X: 1, Y: 1}, {X: 0, Y: 1}}
	l.Add("task object placed", polygon(sq, placedColor, false, edgeColor, 0.5))
	l.Add("inside a container (dashed)", polygon(sq, containedColor, true, edgeColor, 0.5))
	l.Add("cloth lying or draped", polygon(sq, clothColor, false, edgeColor, 0.5))
	l.Add("support or container bound to the task", polygon(sq, boundColor, false, edgeColor, 0.5))
	l.Add("scene furniture (labelled by category)", polygon(sq, sceneColor, false, edgeColor, 0.5))
	l.Add("the agent", polygon(sq, agentColor, false, edgeColor, 0.5))
	l.Add("shrunk to fit (× factor)", polygon(sq, placedColor, false, shrunkColor, 1.5))
	l.TextStyle.Font.Size = vg.Points(labelPt)
	l.Top = true
	l.Left = true
	return l
}

// WriteSVG draws the configuration into an SVG file.
func (r *Result) WriteSVG(path string) error {
	main, err := r.Plot()
	if err != nil {
		return err
	}
	mainH := mainHeight(main)
	c := vgsvg.New(svgWidth, mainH+bandHeight)
	r.draw(draw.New(c), main, mainH)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := c.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// mainHeight keeps the metres square: the main view's height follows its
// extent, within bounds.
func mainHeight(main *plot.Plot) vg.Length {
	w, h := main.X.Max-main.X.Min, main.Y.Max-main.Y.Min
	mainH := vg.Length(float64(svgWidth) * h / w)
	return max(min(mainH, 24*vg.Centimeter), 9*vg.Centimeter)
}

// draw lays the drawing out on a canvas of svgWidth × mainH+bandHeight.
func (r *Result) draw(dc draw.Canvas, main *plot.Plot, mainH vg.Length) {
	top := draw.Crop(dc, 0, 0, bandHeight, 0)
	main.Draw(top)
	// The inset in the top right corner of the main plot's data area.
	da := main.DataCanvas(top)
	iw := vg.Length(insetFrac) * (da.Max.X - da.Min.X)
	fx0, fy0, fx1, fy1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for _, room := range r.scene.Rooms {
		fx0, fy0 = min(fx0, room.Floor.Min[0]), min(fy0, room.Floor.Min[1])
		fx1, fy1 = max(fx1, room.Floor.Max[0]), max(fy1, room.Floor.Max[1])
	}
	if fx1 > fx0 && fy1 > fy0 {
		ih := min(vg.Length(float64(iw)*(fy1-fy0)/(fx1-fx0)), (da.Max.Y-da.Min.Y)/2)
		box := draw.Canvas{Canvas: da.Canvas, Rectangle: vg.Rectangle{Min: vg.Point{X: da.Max.X - iw, Y: da.Max.Y - ih}, Max: da.Max}}
		box.FillPolygon(color.White, []vg.Point{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}})
		box.StrokeLines(draw.LineStyle{Color: edgeColor, Width: vg.Points(0.5)}, []vg.Point{box.Min, {X: box.Max.X, Y: box.Min.Y}, box.Max, {X: box.Min.X, Y: box.Max.Y}, box.Min})
		in := r.inset()
		in.X.Min, in.X.Max, in.Y.Min, in.Y.Max = fx0, fx1, fy0, fy1
		in.Draw(draw.Crop(box, vg.Points(2), -vg.Points(2), vg.Points(2), -vg.Points(2)))
	}
	// The band: side view on the left, legend on the right.
	band := draw.Crop(dc, 0, 0, 0, -(mainH))
	sv := draw.Crop(band, 0, -svgWidth*0.42, 0, 0)
	r.sideView().Draw(sv)
	lg := legend()
	lg.Draw(draw.Crop(band, svgWidth*0.6, 0, 0, -vg.Points(6)))
}
