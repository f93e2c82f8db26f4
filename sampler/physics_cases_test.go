package sampler

import (
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

var (
	b1kOnce sync.Once
	b1kBase *kb.Base
	b1kErr  error
)

// b1k is the BEHAVIOR-1K knowledge base of the corpus, loaded once.
func b1k(t *testing.T) *kb.Base {
	t.Helper()
	dir := corpus.KBDir(t) // skips before the Once, never inside it
	b1kOnce.Do(func() { b1kBase, b1kErr = kb.Load(dir) })
	if b1kErr != nil {
		t.Fatal(b1kErr)
	}
	return b1kBase
}

// defineIn builds a definition from its objects and :init lines, with a
// floor of room and the agent on it.
func defineIn(t *testing.T, room, objects string, init ...string) *bddl.Problem {
	t.Helper()
	src := "(define (problem physics_case-0)\n (:domain omnigibson)\n (:objects " + objects +
		" floor.n.01_1 - floor.n.01 agent.n.01_1 - agent.n.01)\n (:init\n  " + strings.Join(init, "\n  ") +
		"\n  (inroom floor.n.01_1 " + room + ") (ontop agent.n.01_1 floor.n.01_1))\n (:goal (and (real agent.n.01_1))))\n"
	p, diags := bddl.ParseProblem("physics_case.bddl", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("test definition does not parse: %v\n%s", diags, src)
	}
	return p
}

// TestPhysicalCases samples scenes that used to come out physically
// wrong and checks the geometric property itself with the independent
// checker (containment, footprint on the support, room bounds, overlap
// with every scene object), over several seeds and scenes.
func TestPhysicalCases(t *testing.T) {
	base := b1k(t)
	s := New(base, predicates.Options{})
	cases := []struct {
		name, room, objects string
		init                []string
		rule                string // the rule the case used to break
	}{
		{"lid in a shallow cabinet", "kitchen",
			"lid.n.02_1 lid.n.02_2 lid.n.02_3 - lid.n.02 cabinet.n.01_1 - cabinet.n.01",
			[]string{"(inside lid.n.02_1 cabinet.n.01_1)", "(inside lid.n.02_2 cabinet.n.01_1)", "(inside lid.n.02_3 cabinet.n.01_1)", "(inroom cabinet.n.01_1 kitchen)"},
			"contained"},
		{"quilt in a hamper", "bedroom",
			"quilt.n.01_1 - quilt.n.01 hamper.n.02_1 - hamper.n.02",
			[]string{"(inside quilt.n.01_1 hamper.n.02_1)", "(ontop hamper.n.02_1 floor.n.01_1)"},
			"contained"},
		{"tray in a fridge", "kitchen",
			"tray.n.01_1 tray.n.01_2 - tray.n.01 electric_refrigerator.n.01_1 - electric_refrigerator.n.01",
			[]string{"(inside tray.n.01_1 electric_refrigerator.n.01_1)", "(inside tray.n.01_2 electric_refrigerator.n.01_1)", "(inroom electric_refrigerator.n.01_1 kitchen)"},
			"contained"},
		{"rug at a room corner", "living_room",
			"rug.n.01_1 rug.n.01_2 - rug.n.01",
			[]string{"(ontop rug.n.01_1 floor.n.01_1)", "(ontop rug.n.01_2 floor.n.01_1)"},
			"room"},
		{"curtains by a neighbouring armchair", "living_room",
			"curtain.n.01_1 curtain.n.01_2 - curtain.n.01",
			[]string{"(ontop curtain.n.01_1 floor.n.01_1)", "(ontop curtain.n.01_2 floor.n.01_1)"},
			"overlap"},
		{"steak on a small plate", "kitchen",
			"steak.n.01_1 - steak.n.01 plate.n.04_1 - plate.n.04 countertop.n.01_1 - countertop.n.01",
			[]string{"(ontop steak.n.01_1 plate.n.04_1)", "(ontop plate.n.04_1 countertop.n.01_1)", "(inroom countertop.n.01_1 kitchen)"},
			"supported"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := defineIn(t, c.room, c.objects, c.init...)
			ok, checked := 0, 0
			for seed := uint64(0); seed < 12; seed++ {
				res, err := s.Sample(Request{Activity: "physics_case", Problem: p, Seed: seed})
				if err != nil {
					if f, isF := err.(*Failure); !isF || f.Kind == Internal {
						t.Fatalf("seed %d: %v", seed, err)
					}
					continue
				}
				ok++
				iss, _, counts := physCheck(res, base)
				for _, is := range iss {
					t.Errorf("seed %d in %s: %s", seed, res.Scene, is)
				}
				switch c.rule {
				case "contained":
					checked += counts[0]
				case "supported":
					checked += counts[2]
				default:
					checked += counts[3]
				}
			}
			if ok == 0 || checked == 0 {
				t.Fatalf("no seed sampled (%d) or nothing of the rule %s checked (%d)", ok, c.rule, checked)
			}
		})
	}
}

// TestNoShrink: a configuration in which an object was shrunk to fit is,
// with NoShrink, either sampled with no object shrunk or refused with a
// no-space failure; and every shrunk object is reported, bounded at half
// size.
func TestNoShrink(t *testing.T) {
	base := b1k(t)
	s := New(base, predicates.Options{})
	p := defineIn(t, "kitchen",
		"cookie_sheet.n.01_1 cookie_sheet.n.01_2 cookie_sheet.n.01_3 - cookie_sheet.n.01 countertop.n.01_1 - countertop.n.01",
		"(ontop cookie_sheet.n.01_1 countertop.n.01_1)", "(ontop cookie_sheet.n.01_2 countertop.n.01_1)",
		"(ontop cookie_sheet.n.01_3 countertop.n.01_1)", "(inroom countertop.n.01_1 kitchen)")
	found := 0
	for seed := uint64(0); seed < 40 && found < 3; seed++ {
		req := Request{Activity: "no_shrink", Problem: p, Seed: seed}
		res, err := s.Sample(req)
		if err != nil || len(res.Shrunk()) == 0 {
			continue
		}
		found++
		for _, sh := range res.Shrunk() {
			if sh.Factor < shrinkSteps[len(shrinkSteps)-1] || sh.Factor >= 1 {
				t.Errorf("seed %d: %s shrunk by %v, outside [0.5, 1)", seed, sh.Object, sh.Factor)
			}
		}
		req.NoShrink = true
		res, err = s.Sample(req)
		if err != nil {
			f, ok := err.(*Failure)
			if !ok {
				t.Fatalf("seed %d: untyped %v", seed, err)
			}
			kinds := []Kind{f.Kind}
			for _, x := range f.Tried {
				kinds = append(kinds, x.Kind)
			}
			for _, k := range kinds {
				if k == Internal {
					t.Errorf("seed %d: %v", seed, err)
				}
			}
			if f.Kind != NoSpace && f.Kind != NoScene {
				t.Errorf("seed %d with NoShrink: %v, want a no-space failure", seed, err)
			}
			continue
		}
		if sh := res.Shrunk(); len(sh) > 0 {
			t.Errorf("seed %d with NoShrink: shrunk %v", seed, sh)
		}
	}
	if found == 0 {
		t.Skip("no seed needed shrinking")
	}
}

// TestLayoutHeights lays out every scene of the BEHAVIOR-1K knowledge
// base and checks each fixture's height by what it is: countertop slabs
// at counter height (on their cabinet when they have one), wall cabinets
// and range hoods high on the wall, wall fixtures at eye height, tables,
// beds and everything else on the floor, lawns and driveways set into it.
func TestLayoutHeights(t *testing.T) {
	base := b1k(t)
	isA := func(o *SceneObject, name string) bool {
		id, ok := base.Lookup(name)
		return ok && o.Synset != kb.NoSynset && base.IsA(o.Synset, id)
	}
	cases := []struct {
		name   string
		match  func(o *SceneObject) bool
		lo, hi float64 // bounds on the checked height
		top    bool    // check the top (else the bottom)
	}{
		{"countertop slab", func(o *SceneObject) bool { return isA(o, "countertop.n.01") && o.Box.Extent()[2] < 0.5 }, 0.74, 0.95, true},
		{"wall cabinet", func(o *SceneObject) bool { return strings.HasPrefix(o.Category, "top_") }, wallCabinetBottom, wallCabinetBottom, false},
		{"range hood", func(o *SceneObject) bool { return isA(o, "range_hood.n.01") }, wallCabinetBottom, wallCabinetBottom, false},
		{"wall nail", func(o *SceneObject) bool { return isA(o, "wall_nail.n.01") }, 1.4, 1.6, false},
		{"table", func(o *SceneObject) bool { return isA(o, "table.n.02") }, 0, 0, false},
		{"bed", func(o *SceneObject) bool { return isA(o, "bed.n.01") }, 0, 0, false},
		// Terrain set into the ground: its top at the floor (the lawns
		// stood on the floor, their 0.3–0.6 m slabs for a top).
		{"lawn", func(o *SceneObject) bool { return isA(o, "lawn.n.01") }, 0, 0, true},
		{"driveway", func(o *SceneObject) bool { return isA(o, "driveway.n.01") }, 0, 0, true},
	}
	seen := make([]int, len(cases))
	for _, ks := range base.Scenes() {
		sc := LayoutScene(base, ks)
		for _, r := range sc.Rooms {
			for _, o := range r.Objects {
				for k, c := range cases {
					if !c.match(o) {
						continue
					}
					seen[k]++
					z := o.Box.Min[2]
					if c.top {
						z = o.Box.Max[2]
					}
					if z < c.lo-1e-9 || z > c.hi+1e-9 {
						t.Errorf("%s %s: %s at %.2f m, want %.2f–%.2f", sc.Name, c.name, o.Name, z, c.lo, c.hi)
					}
					break
				}
			}
		}
	}
	for k, c := range cases {
		if seen[k] == 0 {
			t.Errorf("no %s in any scene", c.name)
		}
	}
}

// TestContainerModelSwap: when objects fit in a container the sampler
// places itself only shrunk, another model of the container's synset is
// drawn before anything is shrunk (four apples in a small bowl).
func TestContainerModelSwap(t *testing.T) {
	base := b1k(t)
	s := New(base, predicates.Options{})
	p := defineIn(t, "kitchen", "apple.n.01_1 apple.n.01_2 apple.n.01_3 apple.n.01_4 - apple.n.01 bowl.n.01_1 - bowl.n.01 countertop.n.01_1 - countertop.n.01",
		"(inside apple.n.01_1 bowl.n.01_1)", "(inside apple.n.01_2 bowl.n.01_1)", "(inside apple.n.01_3 bowl.n.01_1)", "(inside apple.n.01_4 bowl.n.01_1)",
		"(ontop bowl.n.01_1 countertop.n.01_1)", "(inroom countertop.n.01_1 kitchen)")
	swapped := 0
	for seed := uint64(0); seed < 12; seed++ {
		scenes := s.SceneNames()
		ShuffleScenes(scenes, seed, "swap")
		for _, name := range scenes[:3] {
			sc, _ := s.Scene(name)
			// What the first draw does, shrinking deferred.
			_, fail, out := s.sampleOnce(Request{Activity: "swap", Problem: p, Seed: seed}, sc, &swapSet{}, true)
			if fail == nil || !out.deferred || out.fullModel == "" {
				continue
			}
			small, _ := base.ModelByName(out.fullModel)
			res, err := s.Sample(Request{Activity: "swap", Problem: p, Seed: seed, Scenes: []string{name}})
			if err != nil {
				continue // no bowl holds them even shrunk: as before
			}
			shrunk := false
			var bowl Object
			for _, o := range res.Objects {
				shrunk = shrunk || o.Scale != 1
				if o.Name == out.fullInst {
					bowl = o
				}
			}
			if shrunk {
				continue // no model tried held them: shrinking came last
			}
			swapped++
			m, _ := base.ModelByName(bowl.Model)
			if bowl.Model == out.fullModel || !exceedsSorted(m.Size, small.Size) {
				t.Errorf("seed %d in %s: %s is %s after %s was too small", seed, name, bowl.Name, bowl.Model, out.fullModel)
			}
			if iss, _, _ := physCheck(res, base); len(iss) > 0 {
				t.Errorf("seed %d in %s: %v", seed, name, iss)
			}
		}
	}
	if swapped == 0 {
		t.Fatal("no configuration swapped its bowl for a larger model")
	}
	t.Logf("%d configurations swapped the bowl's model instead of shrinking", swapped)
}

// TestInsideDropsOnLevels: an object inside a shelved container (a tray
// in a fridge) rests on a shelf as the reference's drop from a uniform
// point leaves it (SEMANTICS.md B §2.3): its bottom on one of the
// container's levels, never on a level its reachability filter rejects
// (below 0.3 m above the floor) while a higher one is free, and every
// reachable level taken in a fair share of seeds, not the lowest always.
func TestInsideDropsOnLevels(t *testing.T) {
	base := b1k(t)
	s := New(base, predicates.Options{})
	p := defineIn(t, "kitchen", "tray.n.01_1 - tray.n.01 electric_refrigerator.n.01_1 - electric_refrigerator.n.01",
		"(inside tray.n.01_1 electric_refrigerator.n.01_1)", "(inroom electric_refrigerator.n.01_1 kitchen)")
	const seeds = 96
	byLevel := map[int]int{}
	levelsSeen := 0
	for seed := uint64(0); seed < seeds; seed++ {
		res, err := s.Sample(Request{Activity: "physics_case", Problem: p, Scenes: []string{"Beechwood_0_int"}, Seed: seed})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		var tray, fridge, floor *Object
		for i := range res.Objects {
			switch o := &res.Objects[i]; o.Name {
			case "tray.n.01_1":
				tray = o
			case "electric_refrigerator.n.01_1":
				fridge = o
			case "floor.n.01_1":
				floor = o
			}
		}
		inner := innerBox(fridge.Box)
		h := inner.Max[2] - inner.Min[2]
		n := int(math.Round(h / shelfPitch))
		levels := []float64{inner.Min[2]}
		for k := 1; k < n; k++ {
			levels = append(levels, inner.Min[2]+h*float64(k)/float64(n))
		}
		levelsSeen = len(levels)
		at := -1
		for k, z := range levels {
			if math.Abs(tray.Box.Min[2]-z) < 1e-6 {
				at = k
			}
		}
		if at < 0 {
			t.Fatalf("seed %d: the tray's bottom at %.3f m is on no level of the fridge (%v)", seed, tray.Box.Min[2], levels)
		}
		if levels[at] < floor.Box.Max[2]+reachLow && levels[len(levels)-1] >= floor.Box.Max[2]+reachLow {
			t.Errorf("seed %d: the tray on level %.2f m, below the reachable height", seed, levels[at])
		}
		byLevel[at]++
	}
	reachable := 0
	for k := 1; k < levelsSeen; k++ {
		reachable++
		// A uniform drop gives each of the 3-5 reachable levels a fifth to
		// a third of the seeds (the top one less: the tray's height).
		if byLevel[k] < seeds/10 {
			t.Errorf("level %d taken by %d of %d seeds (%v): not a uniform drop", k, byLevel[k], seeds, byLevel)
		}
	}
	if reachable < 3 {
		t.Fatalf("the fridge has %d shelves above its floor; the test needs a tall one", reachable)
	}
}
