package main

import (
	"math"
	"sort"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/sampler"
)

// The page's colours are by role; these are the roles, most specific
// first (an object that is both a container and a support is drawn as
// a container).
const (
	roleAgent     = "agent"
	roleContainer = "container"
	roleSupport   = "support"
	roleTask      = "task"
	roleScene     = "scene"
)

// containerPreds put an object inside their second argument; supportPreds
// put one on, under or over their second argument; fillPreds say their
// first argument holds a substance.
var (
	containerPreds = map[string]bool{"inside": true}
	supportPreds   = map[string]bool{"ontop": true, "onfloor": true, "under": true, "overlaid": true, "draped": true}
	fillPreds      = map[string]bool{"filled": true, "contains": true, "insource": true}
)

// link gives each object its role and each :init literal and goal
// conjunct the objects it names. Without a definition every object is
// a scene object and nothing is linked.
func (d *viewRead) link(p *bddl.Problem, conjuncts []string) {
	index := map[string]int{}
	for i, o := range d.Objects {
		index[bddl.Fold(o.Name)] = i
		d.Objects[i].Role = roleScene
	}
	typeOf := map[string]string{}
	if p != nil {
		for _, decl := range p.Objects {
			for _, in := range decl.Instances {
				typeOf[in.Key()] = decl.Type.Key()
			}
		}
	}
	rank := map[string]int{roleScene: 0, roleTask: 1, roleSupport: 2, roleContainer: 3, roleAgent: 4}
	set := func(name, role string) {
		if i, ok := index[bddl.Fold(name)]; ok && rank[role] > rank[d.Objects[i].Role] {
			d.Objects[i].Role = role
		}
	}
	for name, typ := range typeOf {
		if typ == "agent.n.01" {
			set(name, roleAgent)
		} else {
			set(name, roleTask)
		}
	}
	var walk func(f bddl.Formula)
	walk = func(f bddl.Formula) {
		switch f := f.(type) {
		case *bddl.Atom:
			pred := f.Pred.Key()
			switch {
			case containerPreds[pred] && len(f.Args) == 2:
				set(f.Args[1].Name, roleContainer)
			case fillPreds[pred] && len(f.Args) >= 1:
				set(f.Args[0].Name, roleContainer)
			case supportPreds[pred] && len(f.Args) == 2:
				set(f.Args[1].Name, roleSupport)
			}
		case *bddl.Not:
			walk(f.X)
		case *bddl.And:
			for _, x := range f.Xs {
				walk(x)
			}
		case *bddl.Or:
			for _, x := range f.Xs {
				walk(x)
			}
		case *bddl.Imply:
			walk(f.If)
			walk(f.Then)
		case *bddl.Quant:
			walk(f.Body)
		}
	}
	named := func(text string) []int {
		seen := map[int]bool{}
		for _, tok := range strings.FieldsFunc(text, func(r rune) bool { return r == '(' || r == ')' || r == ' ' || r == '\t' || r == '\n' }) {
			tok = bddl.Fold(strings.TrimPrefix(tok, "?"))
			if i, ok := index[tok]; ok {
				seen[i] = true
				continue
			}
			// A type (of a quantified variable) names each object of it.
			for name, typ := range typeOf {
				if typ == tok {
					if i, ok := index[name]; ok {
						seen[i] = true
					}
				}
			}
		}
		out := make([]int, 0, len(seen))
		for i := range seen {
			out = append(out, i)
		}
		sort.Ints(out)
		return out
	}
	if p != nil {
		for _, f := range p.Init {
			walk(f)
			text := bddl.String(f)
			d.Init = append(d.Init, viewLiteral{Text: text, Objects: named(text)})
		}
		if p.Goal != nil {
			walk(p.Goal)
		}
	}
	for _, c := range conjuncts {
		d.Conjuncts = append(d.Conjuncts, viewLiteral{Text: c, Objects: named(c)})
	}
}

// addScene adds the furniture of a scene to the page: the scene file's,
// else the knowledge-base scene a sample was laid out in. Objects the
// episode records itself (the scene objects a sample bound to its
// instances) are left to the episode.
func (d *viewRead) addScene(base *kb.Base, file string) error {
	var sc *sampler.Scene
	switch {
	case file != "":
		s, err := sampler.ReadTemplate(base, file)
		if err != nil {
			return err
		}
		sc = s
	case d.scene != "":
		ks, ok := base.Scene(d.scene)
		if !ok {
			return nil // a sample from another knowledge base: nothing to add
		}
		sc = sampler.LayoutScene(base, ks)
	default:
		return nil
	}
	recorded := map[string]bool{}
	for _, o := range d.Objects {
		recorded[bddl.Fold(o.Name)] = true
	}
	d.Rooms = nil
	for _, r := range sc.Rooms {
		d.Rooms = append(d.Rooms, viewRoom{Name: r.Name, Floor: [4]float64{r.Floor.Min[0], r.Floor.Min[1], r.Floor.Max[0], r.Floor.Max[1]}})
		for _, o := range r.Objects {
			if o.Kind == sampler.CeilingPart || o.Kind == sampler.FloorPart || o.Task || d.boundScene[o.Name] || recorded[o.Binding] {
				continue
			}
			d.Furniture = append(d.Furniture, viewShape{Name: o.Name, Room: r.Name, Box: footprint(o.Box.Min, o.Box.Max, o.Yaw),
				Wall: o.Kind == sampler.WallPart})
		}
	}
	return nil
}

// footprint is a scene object's box as the page draws it: the oriented
// box inside its axis-aligned one when the yaw determines it (turned by
// a multiple of 90° the two are the same; near 45° the sizes cannot be
// told apart and the axis-aligned box is kept).
func footprint(lo, hi [3]float64, yaw float64) []float64 {
	c, s := math.Abs(math.Cos(yaw)), math.Abs(math.Sin(yaw))
	den := c*c - s*s
	if s < 1e-9 || c < 1e-9 || math.Abs(den) < 0.2 {
		return []float64{lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]}
	}
	ex, ey := (hi[0]-lo[0])/2, (hi[1]-lo[1])/2
	a, b := (ex*c-ey*s)/den, (ey*c-ex*s)/den
	if a <= 0 || b <= 0 {
		return []float64{lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]}
	}
	cx, cy := (lo[0]+hi[0])/2, (lo[1]+hi[1])/2
	cs, sn := math.Cos(yaw), math.Sin(yaw)
	out := make([]float64, 0, 24)
	for _, z := range []float64{lo[2], hi[2]} {
		for _, q := range [][2]float64{{-a, -b}, {a, -b}, {a, b}, {-a, b}} {
			out = append(out, cx+q[0]*cs-q[1]*sn, cy+q[0]*sn+q[1]*cs, z)
		}
	}
	return out
}
