package sampler

import (
	"testing"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// TestGroundUnderfoot: a simulator scene's ground covers (a lawn, a paver
// set into the ground) have approximate boxes whose top may stand a few
// millimetres above the floor piece the agent is to stand on; what is
// sunk into the ground and rises at most groundTol above the spot's
// bottom is under the object, not in its way. A slab that rises higher,
// or a thin thing lying on the floor, still is. (clean_a_patio's garden:
// its lawn's box, 2 mm above the bound floor piece, covers the whole
// piece, and no spot was free for the agent.)
func TestGroundUnderfoot(t *testing.T) {
	base := kb.Default()
	fl, _ := base.SynsetOfCategory("floors")
	p := defineIn(t, "garden", "")
	for _, tc := range []struct {
		name   string
		ground predicates.Box // covers the whole floor piece
		ok     bool
	}{
		{"lawn 2 mm above the floor piece, sunk into the ground", mkBox(-1, -1, -0.28, 7, 7, 0.002), true},
		{"lawn level with the floor piece", mkBox(-1, -1, -0.28, 7, 7, 0), true},
		{"platform 2 cm above the floor piece", mkBox(-1, -1, -0.28, 7, 7, 0.02), false},
		{"mat 4 mm thick lying on the floor piece", mkBox(-1, -1, 0, 7, 7, 0.004), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc := &Scene{Name: "yard", Source: "test", Rooms: []*Room{{Name: "garden_0", Type: "garden",
				Floor: mkBox(-1, -1, -0.05, 7, 7, 0), Height: 2.7,
				Objects: []*SceneObject{
					{Name: "floors_0", Category: "floors", Model: "floors-tmlxvd", Synset: fl, Box: mkBox(0, 0, -0.4, 6, 6, 0), Room: "garden_0", Kind: FloorPart},
					{Name: "lawn_0", Category: "lawn", Model: "lawn-aztwla", Box: tc.ground, Room: "garden_0"},
				}}}}
			s := New(base, predicates.Options{})
			s.AddScene(sc)
			for seed := uint64(0); seed < 4; seed++ {
				res, err := s.Sample(Request{Activity: "ground", Problem: p, Scenes: []string{"yard"}, Seed: seed})
				if !tc.ok {
					if f, isF := err.(*Failure); !isF || f.Kind != NoSpace {
						t.Fatalf("seed %d: want a no-space failure, got %v", seed, err)
					}
					continue
				}
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				iss, _, counts := physCheck(res, base)
				for _, is := range iss {
					t.Errorf("seed %d: %s", seed, is)
				}
				if counts[3] == 0 {
					t.Fatalf("seed %d: nothing placed", seed)
				}
				for _, o := range res.Objects {
					if o.Name == "agent.n.01_1" && (o.Box.Min[2] != 0 || o.Box.Min[0] < 0 || o.Box.Max[0] > 6 || o.Box.Min[1] < 0 || o.Box.Max[1] > 6) {
						t.Errorf("seed %d: the agent at %v, not on the floor piece", seed, o.Box)
					}
				}
			}
		})
	}
}
