package sampler

import (
	"fmt"
	"testing"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// TestSwapPrefersFittingContainer: when an object finds no room in or on
// the container or support drawn for it, the swap takes a scene object of
// the synset it fits in or on, so it is placed at its model's size,
// contained or supported, and never shrunk while one fits. The room has
// five shallow cabinets (or small tables) and one that fits: drawn at
// random, the three swaps missed it at some seeds and the object was
// shrunk (freeze_pies in Ihlen_1_int: a tupperware box, five too-shallow
// cabinets of eleven).
func TestSwapPrefersFittingContainer(t *testing.T) {
	base := b1k(t)
	fl, _ := base.SynsetOfCategory("floors")
	cab, _ := base.SynsetOfCategory("bottom_cabinet")
	tab, _ := base.SynsetOfCategory("breakfast_table")
	for _, tc := range []struct {
		name, objects, lit, parent string
		category, model            string
		syn                        kb.SynsetID
		small, big                 [3]float64 // size of the five small ones, of the one that fits
	}{
		{name: "tupperware in a cabinet", objects: "tupperware.n.01_1 tupperware.n.01_2 - tupperware.n.01 cabinet.n.01_1 - cabinet.n.01",
			lit: "inside", parent: "cabinet.n.01_1", category: "bottom_cabinet", model: "bottom_cabinet-bmsclc", syn: cab,
			small: [3]float64{0.8, 0.12, 0.6}, big: [3]float64{0.8, 0.6, 0.6}},
		{name: "a baking sheet on a table", objects: "cookie_sheet.n.01_1 - cookie_sheet.n.01 table.n.02_1 - table.n.02",
			lit: "ontop", parent: "table.n.02_1", category: "breakfast_table", model: "breakfast_table-bhyopq", syn: tab,
			small: [3]float64{0.15, 0.15, 0.7}, big: [3]float64{1.4, 0.8, 0.7}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var objs []*SceneObject
			objs = append(objs, &SceneObject{Name: "floors_0", Category: "floors", Model: "floors-tmlxvd", Synset: fl, Box: mkBox(0, 0, -0.05, 8, 8, 0), Room: "kitchen_0", Kind: FloorPart})
			for k := 0; k < 6; k++ {
				s := tc.small
				if k == 4 {
					s = tc.big
				}
				x := 0.1 + 1.3*float64(k)
				objs = append(objs, &SceneObject{Name: fmt.Sprintf("%s_%d", tc.category, k), Category: tc.category, Model: tc.model, Synset: tc.syn,
					Box: mkBox(x, 0.1, 0, x+s[0], 0.1+s[1], s[2]), Room: "kitchen_0"})
			}
			sc := &Scene{Name: "k6", Source: "test", Rooms: []*Room{{Name: "kitchen_0", Type: "kitchen", Floor: mkBox(0, 0, -0.05, 8, 8, 0), Height: 2.7, Objects: objs}}}
			s := New(base, predicates.Options{})
			s.AddScene(sc)
			var init []string
			for _, n := range objectsOf(tc.objects) {
				if n != tc.parent {
					init = append(init, "("+tc.lit+" "+n+" "+tc.parent+")")
				}
			}
			init = append(init, "(inroom "+tc.parent+" kitchen)")
			p := defineIn(t, "kitchen", tc.objects, init...)
			for seed := uint64(0); seed < 16; seed++ {
				res, err := s.Sample(Request{Activity: "fit_swap", Problem: p, Scenes: []string{"k6"}, Seed: seed})
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				if sh := res.Shrunk(); len(sh) > 0 {
					t.Errorf("seed %d: shrunk %v although %s_4 fits", seed, sh, tc.category)
				}
				iss, _, _ := physCheck(res, base)
				for _, is := range iss {
					t.Errorf("seed %d: %s", seed, is)
				}
				for _, o := range res.Objects {
					if o.Name == tc.parent && o.SceneObject != tc.category+"_4" {
						t.Errorf("seed %d: %s is %s, which nothing fits", seed, tc.parent, o.SceneObject)
					}
				}
			}
		})
	}
}

// objectsOf is the instance names of an :objects list ("a b - t c - u").
func objectsOf(decl string) []string {
	var out []string
	f := []rune{}
	flush := func() {
		w := string(f)
		f = f[:0]
		if w != "" && w != "-" {
			out = append(out, w)
		}
	}
	prevDash := false
	for _, r := range decl + " " {
		if r != ' ' {
			f = append(f, r)
			continue
		}
		w := string(f)
		if prevDash { // a type
			f = f[:0]
			prevDash = false
			continue
		}
		prevDash = w == "-"
		flush()
	}
	return out
}

// TestFitsAll: the fit rule a swap ranks containers by.
func TestFitsAll(t *testing.T) {
	base := b1k(t)
	sink, _ := base.Lookup("sink.n.01")
	box := mkBox(0, 0, 0, 0.6, 0.3, 0.5) // inner 0.576 × 0.276 × 0.476 (a 12 mm wall)
	for _, tc := range []struct {
		name string
		syn  kb.SynsetID
		need fitNeed
		want bool
	}{
		{"inside, fits", kb.NoSynset, fitNeed{rel: "inside", size: [3]float64{0.5, 0.2, 0.4}}, true},
		{"inside, fits turned 90°", kb.NoSynset, fitNeed{rel: "inside", size: [3]float64{0.2, 0.5, 0.4}}, true},
		{"inside, too deep", kb.NoSynset, fitNeed{rel: "inside", size: [3]float64{0.3, 0.3, 0.1}}, false},
		{"inside, too tall", kb.NoSynset, fitNeed{rel: "inside", size: [3]float64{0.1, 0.1, 0.49}}, false},
		{"inside a sink: only its basin", sink, fitNeed{rel: "inside", size: [3]float64{0.1, 0.1, 0.3}}, false},
		{"on top: only the footprint", kb.NoSynset, fitNeed{rel: "ontop", size: [3]float64{0.3, 0.6, 2}}, true},
		{"on top, too wide", kb.NoSynset, fitNeed{rel: "ontop", size: [3]float64{0.7, 0.2, 0.1}}, false},
		{"another relation", kb.NoSynset, fitNeed{rel: "nextto", size: [3]float64{9, 9, 9}}, true},
	} {
		if got := fitsAll(base, tc.syn, box, []fitNeed{tc.need}); got != tc.want {
			t.Errorf("%s: fitsAll = %v, want %v", tc.name, got, tc.want)
		}
	}
}
