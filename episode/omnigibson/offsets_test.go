package omnigibson

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"
)

var upright = [4]float64{0, 0, 0, 1}

// obj is a synthetic scene object: its model, root link, full size.
type obj struct {
	model      int
	root, size r3.Vec
	q          [4]float64
}

func placeAll(objs []obj) []placed {
	out := make([]placed, len(objs))
	for i, o := range objs {
		q := o.q
		if q == [4]float64{} {
			q = upright
		}
		out[i] = placed{model: o.model, root: o.root, scaleZ: 1, base: NewBox(o.root, r3.Scale(0.5, o.size), q)}
	}
	return out
}

// TestEstimateOffsets: named cases of the offset estimate, each a small
// settled scene whose true offsets are known; none uses an activity.
func TestEstimateOffsets(t *testing.T) {
	robot := []RobotPose{{Robot: "R", Pose: Pose{Pos: [3]float64{0, 0, 0}, Quat: upright}}}
	for _, tc := range []struct {
		name   string
		objs   []obj
		robots []RobotPose
		// want: per model, the offset (NaN: no estimate)
		want []float64
	}{{
		// A floor slab whose root sits 0.08 below the centre of a 0.5 m
		// box: its top is where the robot stands.
		name:   "floor under the robot",
		objs:   []obj{{model: 0, root: r3.Vec{Z: -0.17}, size: r3.Vec{X: 10, Y: 10, Z: 0.5}}},
		robots: robot,
		want:   []float64{-0.08},
	}, {
		// Robots' root links sit a few millimetres apart (each model its
		// own): the floor under the higher one is at the same ground.
		name: "robots at different heights",
		objs: []obj{
			{model: 0, root: r3.Vec{Z: -0.17}, size: r3.Vec{X: 10, Y: 10, Z: 0.5}},
			{model: 1, root: r3.Vec{X: 20, Z: -0.17}, size: r3.Vec{X: 10, Y: 10, Z: 0.5}},
		},
		robots: []RobotPose{{Robot: "A", Pose: Pose{Quat: upright}}, {Robot: "B", Pose: Pose{Pos: [3]float64{20, 0, 0.005}, Quat: upright}}},
		want:   []float64{-0.08, -0.08},
	}, {
		// Ground cover away from the robots: flat, spanning the ground.
		name: "lawn beside the house",
		objs: []obj{
			{model: 0, root: r3.Vec{Z: -0.15}, size: r3.Vec{X: 4, Y: 4, Z: 0.3}},
			{model: 1, root: r3.Vec{X: 20, Z: -0.05}, size: r3.Vec{X: 8, Y: 8, Z: 0.3}},
		},
		robots: robot,
		want:   []float64{0, -0.1},
	}, {
		// A bed (root near its top) on the floor, a book on the bed: the
		// bed rests on the ground, the book on the bed's top.
		name: "bed",
		objs: []obj{
			{model: 0, root: r3.Vec{Z: -0.15}, size: r3.Vec{X: 10, Y: 10, Z: 0.3}},
			{model: 1, root: r3.Vec{X: 2, Z: 0.7}, size: r3.Vec{X: 2, Y: 1.8, Z: 0.8}},
			{model: 2, root: r3.Vec{X: 2, Z: 0.81}, size: r3.Vec{X: 0.2, Y: 0.3, Z: 0.02}},
		},
		robots: robot,
		want:   []float64{0, -0.3, 0},
	}, {
		// A cabinet standing on the floor, its root at the centre, and a
		// tray on top of it whose root is at its bottom.
		name: "cabinet and tray",
		objs: []obj{
			{model: 0, root: r3.Vec{Z: -0.15}, size: r3.Vec{X: 10, Y: 10, Z: 0.3}},
			{model: 1, root: r3.Vec{X: 1, Z: 0.45}, size: r3.Vec{X: 0.8, Y: 0.6, Z: 0.9}},
			{model: 2, root: r3.Vec{X: 1, Z: 0.9}, size: r3.Vec{X: 0.4, Y: 0.3, Z: 0.04}},
		},
		robots: robot,
		want:   []float64{0, 0, 0.02},
	}, {
		// A wall shelf: nothing under it within its height, so no
		// estimate, and the box stays centred; an object on its top rests
		// on it.
		name: "shelf on the wall",
		objs: []obj{
			{model: 0, root: r3.Vec{Z: -0.15}, size: r3.Vec{X: 10, Y: 10, Z: 0.3}},
			{model: 1, root: r3.Vec{X: 1, Z: 1.5}, size: r3.Vec{X: 1, Y: 0.3, Z: 0.4}},
			{model: 2, root: r3.Vec{X: 1, Z: 1.75}, size: r3.Vec{X: 0.1, Y: 0.1, Z: 0.1}},
		},
		robots: robot,
		want:   []float64{0, math.NaN(), 0},
	}, {
		// A tray held in a fridge is inside the fridge's footprint: the
		// fridge is not its support and the tray does not vote; the
		// fridge stands on the floor.
		name: "tray inside a fridge",
		objs: []obj{
			{model: 0, root: r3.Vec{Z: -0.15}, size: r3.Vec{X: 10, Y: 10, Z: 0.3}},
			{model: 1, root: r3.Vec{X: 3, Z: 0.95}, size: r3.Vec{X: 0.8, Y: 0.8, Z: 1.8}},
			{model: 2, root: r3.Vec{X: 3, Z: 1.0}, size: r3.Vec{X: 0.4, Y: 0.3, Z: 0.04}},
		},
		robots: robot,
		want:   []float64{0, -0.05, math.NaN()},
	}, {
		// Two objects of one model: the median of their votes.
		name: "a model recurs",
		objs: []obj{
			{model: 0, root: r3.Vec{Z: -0.15}, size: r3.Vec{X: 10, Y: 10, Z: 0.3}},
			{model: 1, root: r3.Vec{X: 1, Z: 0.35}, size: r3.Vec{X: 0.5, Y: 0.5, Z: 0.4}},
			{model: 1, root: r3.Vec{X: 2, Z: 0.35}, size: r3.Vec{X: 0.5, Y: 0.5, Z: 0.4}},
			{model: 1, root: r3.Vec{X: 3, Z: 0.36}, size: r3.Vec{X: 0.5, Y: 0.5, Z: 0.4}},
		},
		robots: robot,
		want:   []float64{0, -0.15},
	}, {
		// No robot pose: no ground; the table has no support and keeps
		// its box centred.
		name: "no robots",
		objs: []obj{{model: 0, root: r3.Vec{Z: 0.7}, size: r3.Vec{X: 1, Y: 1, Z: 0.75}}},
		want: []float64{math.NaN()},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dz, has := estimateOffsets(placeAll(tc.objs), len(tc.want), [][]RobotPose{tc.robots}, nil)
			for m, w := range tc.want {
				switch {
				case math.IsNaN(w) && has[m]:
					t.Errorf("model %d: offset %.3f, want no estimate", m, dz[m])
				case !math.IsNaN(w) && !has[m]:
					t.Errorf("model %d: no estimate, want %.3f", m, w)
				case !math.IsNaN(w) && math.Abs(dz[m]-w) > 0.002:
					t.Errorf("model %d: offset %.3f, want %.3f", m, dz[m], w)
				}
			}
		})
	}
}

// TestExtendSupports: a support's footprint is extended under a resting
// object whose centre it misses by a little; ground cover under every
// object near it; a far or held object extends nothing.
func TestExtendSupports(t *testing.T) {
	mk := func(name string, root, size r3.Vec, inst string, fixed bool) sceneItem {
		return sceneItem{obj: &SceneObject{Name: name, FixedBase: fixed}, instKey: inst, hasBox: true,
			box: NewBox(root, r3.Scale(0.5, size), upright)}
	}
	for _, tc := range []struct {
		name  string
		items []sceneItem
		// support index and whether its footprint must hold the object's
		// centre afterwards
		support int
		holds   bool
	}{
		{"countertop edge", []sceneItem{
			mk("counter", r3.Vec{Z: 0.45}, r3.Vec{X: 0.6, Y: 2, Z: 0.9}, "", true),
			mk("knife", r3.Vec{X: 0.32, Z: 0.91}, r3.Vec{X: 0.1, Y: 0.3, Z: 0.02}, "knife.n.01_1", false),
		}, 0, true},
		{"too far from the counter", []sceneItem{
			mk("counter", r3.Vec{Z: 0.45}, r3.Vec{X: 0.6, Y: 2, Z: 0.9}, "", true),
			mk("knife", r3.Vec{X: 0.6, Z: 0.91}, r3.Vec{X: 0.1, Y: 0.3, Z: 0.02}, "knife.n.01_1", false),
		}, 0, false},
		{"floor patch", []sceneItem{
			mk("floor", r3.Vec{Z: -0.15}, r3.Vec{X: 10, Y: 4, Z: 0.3}, "", true),
			mk("other", r3.Vec{Y: 4, Z: -0.15}, r3.Vec{X: 10, Y: 4, Z: 0.3}, "", true),
			mk("broom", r3.Vec{Y: 2.5, Z: 0.02}, r3.Vec{X: 1, Y: 0.2, Z: 0.04}, "broom.n.01_1", false),
		}, 0, true},
		{"held by the next counter", []sceneItem{
			mk("counter", r3.Vec{Z: 0.45}, r3.Vec{X: 0.6, Y: 2, Z: 0.9}, "", true),
			mk("stove", r3.Vec{X: 0.65, Z: 0.45}, r3.Vec{X: 0.6, Y: 2, Z: 0.9}, "", true),
			mk("pan", r3.Vec{X: 0.37, Z: 0.93}, r3.Vec{X: 0.3, Y: 0.3, Z: 0.06}, "pan.n.01_1", false),
		}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items := tc.items
			extendSupports(items, nil, 0, true)
			o := &items[len(items)-1]
			s := &items[tc.support]
			d := r3.Sub(o.box.Center, s.box.Center)
			in := math.Abs(d.X) <= s.box.Half.X && math.Abs(d.Y) <= s.box.Half.Y
			if in != tc.holds {
				t.Errorf("support %s box %+v holds %s's centre: %v, want %v", s.obj.Name, s.box, o.obj.Name, in, tc.holds)
			}
		})
	}
}

// TestSettleMoved: a bound object whose model the template gave no vote
// (it sat inside a fridge there) rests on a settled table in the
// instance: its box is put on the table; a settled model is left alone.
func TestSettleMoved(t *testing.T) {
	mk := func(model int, inst string, root, size r3.Vec) sceneItem {
		return sceneItem{obj: &SceneObject{Name: inst, Scale: [3]float64{1, 1, 1}}, instKey: inst, model: model, hasBox: true,
			state: ObjectState{Pose: Pose{Pos: [3]float64{root.X, root.Y, root.Z}, Quat: upright}, HasPose: true},
			box:   NewBox(root, r3.Scale(0.5, size), upright)}
	}
	items := []sceneItem{
		mk(0, "", r3.Vec{Z: 0.375}, r3.Vec{X: 1, Y: 1, Z: 0.75}),                      // table, settled
		mk(1, "tray.n.01_1", r3.Vec{Z: 0.752}, r3.Vec{X: 0.4, Y: 0.3, Z: 0.04}),       // root at its bottom
		mk(2, "bowl.n.01_1", r3.Vec{X: 0.3, Z: 0.80}, r3.Vec{X: 0.1, Y: 0.1, Z: 0.1}), // settled, in the air
	}
	has := []bool{true, false, true}
	settleMoved(items, has, 0, true)
	lo, _ := items[1].box.Enclosing()
	if math.Abs(lo.Z-0.75) > 1e-9 {
		t.Errorf("tray bottom at %.4f, want the table's top 0.75", lo.Z)
	}
	if c := items[2].box.Center.Z; c != 0.80 {
		t.Errorf("settled bowl moved to %.3f", c)
	}

	// The same tray on the table tilted by about a degree: its bottom
	// goes onto the table's top face under its root, not onto the top of
	// the table's enclosure.
	const sin = 0.02
	th := math.Asin(sin)
	items = []sceneItem{
		mk(0, "", r3.Vec{Z: 0.375}, r3.Vec{X: 1, Y: 1, Z: 0.75}),
		mk(1, "tray.n.01_1", r3.Vec{Y: 0.3, Z: 0.76}, r3.Vec{X: 0.4, Y: 0.3, Z: 0.04}),
	}
	items[0].box = NewBox(items[0].box.Center, items[0].box.Half, [4]float64{math.Sin(th / 2), 0, 0, math.Cos(th / 2)})
	settleMoved(items, []bool{true, false}, 0, true)
	face := topFaceAt(&items[0].box, 0, 0.3)
	_, tableTop := items[0].box.Enclosing()
	lo, _ = items[1].box.Enclosing()
	if tableTop.Z-face < 0.003 || math.Abs(lo.Z-face) > 1e-9 {
		t.Errorf("tray bottom at %.7f, want the tilted table's face %.7f (enclosure top %.7f)", lo.Z, face, tableTop.Z)
	}
}

// TestSettleMovedAmbiguity: an object whose root lies over an unsettled
// box (a sheet sampled with it, its own offset unknown) votes on the
// settled table under both, and the vote carries how far above the
// table's top the sheet's could be: the object may rest on either.
func TestSettleMovedAmbiguity(t *testing.T) {
	mk := func(model int, inst string, root, size r3.Vec) sceneItem {
		return sceneItem{obj: &SceneObject{Name: inst, Scale: [3]float64{1, 1, 1}}, instKey: inst, model: model, hasBox: true,
			state: ObjectState{Pose: Pose{Pos: [3]float64{root.X, root.Y, root.Z}, Quat: upright}, HasPose: true},
			box:   NewBox(root, r3.Scale(0.5, size), upright)}
	}
	for _, c := range []struct {
		name     string
		sheetHas bool
		want     float64
	}{
		{"sheet unsettled", false, 0.77 - 0.75},
		{"sheet settled", true, 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			items := []sceneItem{
				mk(0, "", r3.Vec{Z: 0.375}, r3.Vec{X: 1, Y: 1, Z: 0.75}),                 // table, settled
				mk(1, "sheet.n.01_1", r3.Vec{Z: 0.76}, r3.Vec{X: 0.4, Y: 0.4, Z: 0.02}),  // centred on its root: top 0.77
				mk(2, "dough.n.01_1", r3.Vec{Z: 0.771}, r3.Vec{X: 0.2, Y: 0.2, Z: 0.02}), // root at its bottom
			}
			has := []bool{true, c.sheetHas, false}
			placedN, amb := settleMoved(items, has, 0, true)
			if placedN[2] != 1 {
				t.Fatalf("dough votes %d, want 1", placedN[2])
			}
			if math.Abs(amb[2]-c.want) > 1e-9 {
				t.Errorf("ambiguity %.4f, want %.4f", amb[2], c.want)
			}
		})
	}
}

// TestEstimateOffsetsWorlds: objects of several scenes estimated at once
// (Pool) vote for their models together, each on the supports and the
// ground of its own scene: a table over another scene's floor at the same
// place is not held by it.
func TestEstimateOffsetsWorlds(t *testing.T) {
	robot := func(z float64) []RobotPose {
		return []RobotPose{{Robot: "R", Pose: Pose{Pos: [3]float64{0, 0, z}, Quat: upright}}}
	}
	objs := placeAll([]obj{
		{model: 0, root: r3.Vec{Z: -0.1}, size: r3.Vec{X: 10, Y: 10, Z: 0.2}},            // world 0: floor, root at its centre
		{model: 1, root: r3.Vec{X: 2, Z: 0.75}, size: r3.Vec{X: 1, Y: 1, Z: 0.75}},       // world 0: table, root at its top
		{model: 1, root: r3.Vec{X: 2, Z: 1.05}, size: r3.Vec{X: 1, Y: 1, Z: 0.75}},       // world 1: the same table on a floor 0.3 up
		{model: 2, root: r3.Vec{X: 0, Z: 0.3 - 0.1}, size: r3.Vec{X: 10, Y: 10, Z: 0.2}}, // world 1: its floor
	})
	objs[2].world, objs[3].world = 1, 1
	var st voteStats
	dz, has := estimateOffsets(objs, 3, [][]RobotPose{robot(0), robot(0.3)}, &st)
	for m, want := range []float64{0, -0.375, 0} {
		if !has[m] || math.Abs(dz[m]-want) > 1e-9 {
			t.Errorf("model %d: offset %.4f (estimated %v), want %.4f", m, dz[m], has[m], want)
		}
	}
	if st.n[1] != 2 {
		t.Errorf("the table voted %d times, want once per scene", st.n[1])
	}
	// Without its own floor and robots, world 1's table has nothing to
	// stand on; world 0's floor under the same place does not hold it.
	dz, has = estimateOffsets(objs[:3], 3, [][]RobotPose{robot(0), nil}, &st)
	if st.n[1] != 1 || math.Abs(dz[1]+0.375) > 1e-9 || !has[1] {
		t.Errorf("the table voted %d times for %.4f, want once (world 0's) for -0.375", st.n[1], dz[1])
	}
}

// TestEstimateOffsetsTiltedSupport: a book on a desk tilted by about half
// a degree votes its bottom onto the desk's top face under its root, not
// onto the top of the desk's enclosure (9 mm higher there).
func TestEstimateOffsetsTiltedSupport(t *testing.T) {
	const sin = 0.01
	tilt := [4]float64{math.Sin(math.Asin(sin) / 2), 0, 0, math.Cos(math.Asin(sin) / 2)} // about x
	desk := NewBox(r3.Vec{X: 2, Z: 0.4}, r3.Vec{X: 1, Y: 0.9, Z: 0.4}, tilt)
	bookRoot := r3.Vec{X: 2, Z: 0.81}
	objs := []placed{
		{model: 0, exact: true, scaleZ: 1, root: desk.Center, base: desk},
		{model: 1, scaleZ: 1, root: bookRoot, base: NewBox(bookRoot, r3.Vec{X: 0.1, Y: 0.15, Z: 0.01}, upright)},
	}
	dz, has := estimateOffsets(objs, 2, [][]RobotPose{nil}, nil)
	if !has[1] {
		t.Fatal("the book did not vote")
	}
	face := topFaceAt(&desk, bookRoot.X, bookRoot.Y)
	_, deskTop := desk.Enclosing()
	bottom := bookRoot.Z + dz[1] - 0.01
	if deskTop.Z-face < 0.008 {
		t.Fatalf("the case does not tell face and enclosure apart: %.4f vs %.4f", face, deskTop.Z)
	}
	if math.Abs(bottom-face) > 1e-9 {
		t.Errorf("book bottom %.4f, want the desk's top face %.4f (enclosure top %.4f)", bottom, face, deskTop.Z)
	}
}
