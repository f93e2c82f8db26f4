package sampler

import (
	"testing"

	"github.com/openbddl/bddl/predicates"
)

// TestLearnSurfaces: a scene file's task object lying wholly within the
// box of a piece without a container volume tells that piece's support
// surface; nothing else does.
func TestLearnSurfaces(t *testing.T) {
	base := b1k(t)
	obj := func(name, model string, task bool, b predicates.Box) *SceneObject {
		return &SceneObject{Name: name, Model: model, Box: b, Task: task, Room: "r"}
	}
	book := func(z float64) *SceneObject {
		return obj("hardback_1", "hardback-dmqfqx", true, mkBox(1, 1, z, 1.2, 1.15, z+0.03))
	}
	for _, tc := range []struct {
		name  string
		objs  []*SceneObject
		model string
		want  float64 // 0: none learned
	}{
		{"a book on a bed below its headboard's top", []*SceneObject{obj("bed_0", "bed-gxfipj", true, mkBox(0, 0, 0, 2, 2, 0.8)), book(0.5)}, "bed-gxfipj", 0.5 / 0.8},
		{"on the bed's top", []*SceneObject{obj("bed_0", "bed-gxfipj", true, mkBox(0, 0, 0, 2, 2, 0.8)), book(0.8)}, "bed-gxfipj", 0},
		{"beneath a table, on the floor", []*SceneObject{obj("bed_0", "bed-gxfipj", false, mkBox(0, 0, 0, 2, 2, 0.8)), book(0)}, "bed-gxfipj", 0},
		{"in a fridge (a container volume)", []*SceneObject{obj("fridge_0", "fridge-dszchb", true, mkBox(0, 0, 0, 2, 2, 1.8)), book(0.5)}, "fridge-dszchb", 0},
		{"in a basket under a tree's box", []*SceneObject{obj("tree_0", "tree-dyymaq", false, mkBox(-2, -2, 0, 4, 4, 6)),
			obj("basket_0", "wicker_basket-drxfmr", true, mkBox(0.8, 0.8, 0, 1.4, 1.4, 0.4)), book(0.05)}, "tree-dyymaq", 0},
		{"a sink set into a counter, sticking out", []*SceneObject{obj("bar_0", "bar-egwapq", false, mkBox(0, 0, 0, 2, 2, 0.9)),
			obj("sink_0", "drop_in_sink-lkklqs", true, mkBox(0.8, 0.8, 0.65, 1.4, 1.4, 1.07))}, "bar-egwapq", 0},
	} {
		sc := &Scene{Name: "s", Rooms: []*Room{{Name: "r", Type: "bedroom", Objects: tc.objs}}}
		got, ok := learnSurfaces(base, sc)[tc.model]
		if tc.want == 0 && ok || tc.want != 0 && (!ok || got < tc.want-1e-9 || got > tc.want+1e-9) {
			t.Errorf("%s: surface of %s = %v (%v), want %v", tc.name, tc.model, got, ok, tc.want)
		}
	}
}

// TestSupportSurface: a book on a bed whose scene file records its
// surface below the box's top (the headboard) lies on that surface, and
// :init holds by the evaluator; without the record, on the box's top.
func TestSupportSurface(t *testing.T) {
	base := b1k(t)
	fl, _ := base.SynsetOfCategory("floors")
	bed, _ := base.SynsetOfCategory("bed")
	p := defineIn(t, "bedroom", "hardback.n.01_1 - hardback.n.01 bed.n.01_1 - bed.n.01",
		"(ontop hardback.n.01_1 bed.n.01_1)", "(inroom bed.n.01_1 bedroom)")
	for _, tc := range []struct {
		name     string
		surfaces map[string]float64
		wantZ    float64
	}{
		{"recorded", map[string]float64{"bed-gxfipj": 0.6}, 0.48},
		{"not recorded", nil, 0.8},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := &Scene{Name: "b", Source: "test", Surfaces: tc.surfaces, Rooms: []*Room{{Name: "bedroom_0", Type: "bedroom",
				Floor: mkBox(0, 0, -0.05, 5, 5, 0), Height: 2.7,
				Objects: []*SceneObject{
					{Name: "floors_0", Category: "floors", Model: "floors-tmlxvd", Synset: fl, Box: mkBox(0, 0, -0.05, 5, 5, 0), Room: "bedroom_0", Kind: FloorPart},
					{Name: "bed_0", Category: "bed", Model: "bed-gxfipj", Synset: bed, Box: mkBox(1, 1, 0, 3.1, 2.8, 0.8), Room: "bedroom_0"},
				}}}}
			s := New(base, predicates.Options{})
			s.AddScene(sc)
			for seed := uint64(0); seed < 6; seed++ {
				res, err := s.Sample(Request{Activity: "surface", Problem: p, Scenes: []string{"b"}, Seed: seed})
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if v := res.Program.EvalInit(readBack(t, res, "")); v != predicates.True {
					t.Fatalf("seed %d: :init is %s", seed, v)
				}
				iss, _, _ := physCheck(res, base)
				for _, is := range iss {
					t.Errorf("seed %d: %s", seed, is)
				}
				for _, o := range res.Objects {
					if o.Name == "hardback.n.01_1" && (o.Box.Min[2] < tc.wantZ-1e-6 || o.Box.Min[2] > tc.wantZ+1e-6) {
						t.Errorf("seed %d: the book's bottom at %.3f m, want %.3f", seed, o.Box.Min[2], tc.wantZ)
					}
				}
			}
		})
	}
}
