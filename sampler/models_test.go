package sampler

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// scaledKitchen is a kitchen with a countertop whose scene file records
// the given models loaded at scale.
func scaledKitchen(base *kb.Base, name string, scale [3]float64, models ...string) *Scene {
	fl, _ := base.SynsetOfCategory("floors")
	ct, _ := base.SynsetOfCategory("countertop")
	sc := &Scene{Name: name, Source: "test", Rooms: []*Room{{Name: "kitchen_0", Type: "kitchen",
		Floor: mkBox(0, 0, -0.05, 5, 5, 0), Height: 2.7,
		Objects: []*SceneObject{
			{Name: "floors_0", Category: "floors", Model: "floors-tmlxvd", Synset: fl, Box: mkBox(0, 0, -0.05, 5, 5, 0), Room: "kitchen_0", Kind: FloorPart},
			{Name: "countertop_0", Category: "countertop", Model: "countertop-kzpbrq", Synset: ct, Box: mkBox(0, 0, 0, 3, 1.2, 0.92), Room: "kitchen_0"},
		}}}}
	if len(models) > 0 {
		sc.ModelScales = map[string][3]float64{}
		for _, m := range models {
			sc.ModelScales[m] = scale
		}
	}
	return sc
}

// TestRecordedModelScale: a model a scene file records the reference
// loading rescaled is loaded at that scale wherever the sampler picks it
// (its box, Object.ModelScale, meta.sampler.model_scales), and without a
// record at its inventory size.
func TestRecordedModelScale(t *testing.T) {
	base := kb.Default()
	syn, ok := base.Lookup("bowl.n.01")
	if !ok {
		t.Fatal("no bowl.n.01 in the default knowledge base")
	}
	var models []string
	for _, c := range base.CategoriesOf(syn) {
		for _, m := range base.Models(c) {
			models = append(models, m.Name)
		}
	}
	if len(models) == 0 {
		t.Fatal("no bowl models in the default knowledge base")
	}
	p := problem(t, "bowl.n.01_1 - bowl.n.01", "(ontop bowl.n.01_1 countertop.n.01_1)")
	scale := [3]float64{1.5, 1.5, 2}
	for _, tc := range []struct {
		name   string
		scales []string
		want   [3]float64
	}{
		{"recorded", models, scale},
		{"not recorded", nil, [3]float64{1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(base, predicates.Options{})
			s.AddScene(scaledKitchen(base, "k", scale, tc.scales...))
			for seed := uint64(0); seed < 4; seed++ {
				res, err := s.Sample(Request{Problem: p, Scenes: []string{"k"}, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				if v := res.Program.EvalInit(readBack(t, res, "")); v != predicates.True {
					t.Fatalf(":init is %s", v)
				}
				var bowl *Object
				for k := range res.Objects {
					if res.Objects[k].Name == "bowl.n.01_1" {
						bowl = &res.Objects[k]
					}
				}
				if bowl.ModelScale != tc.want {
					t.Fatalf("seed %d: model scale %v, want %v", seed, bowl.ModelScale, tc.want)
				}
				m, _ := base.ModelByName(bowl.Model)
				h := (bowl.Box.Max[2] - bowl.Box.Min[2]) / bowl.Scale
				if want := m.Size[2] * tc.want[2]; math.Abs(h-want) > 1e-6 {
					t.Fatalf("seed %d: %s is %.3f m tall, want %.3f (inventory × recorded scale)", seed, bowl.Model, h, want)
				}
				hd, err := res.Header("")
				if err != nil {
					t.Fatal(err)
				}
				var meta struct {
					Sampler Meta `json:"sampler"`
				}
				if err := json.Unmarshal(hd.Meta, &meta); err != nil {
					t.Fatal(err)
				}
				got, ok := meta.Sampler.ModelScales["bowl.n.01_1"]
				if tc.scales == nil && ok || tc.scales != nil && got != tc.want {
					t.Fatalf("seed %d: meta.sampler.model_scales %v", seed, meta.Sampler.ModelScales)
				}
			}
		})
	}
}

// TestModelScalesMerge: scenes recording one model at different scales
// give the same table whatever order they are added in.
func TestModelScalesMerge(t *testing.T) {
	base := kb.Default()
	a := scaledKitchen(base, "a", [3]float64{2, 2, 2}, "bowl-x")
	b := scaledKitchen(base, "b", [3]float64{3, 1, 1}, "bowl-x", "cup-y")
	s1, s2 := New(base, predicates.Options{}), New(base, predicates.Options{})
	s1.AddScene(a)
	s1.AddScene(b)
	s2.AddScene(b)
	s2.AddScene(a)
	m1, m2 := s1.modelScales(), s2.modelScales()
	if len(m1) != 2 || m1["bowl-x"] != m2["bowl-x"] || m1["bowl-x"] != ([3]float64{2, 2, 2}) || m1["cup-y"] != m2["cup-y"] {
		t.Fatalf("merged scales depend on the order: %v vs %v", m1, m2)
	}
}

// TestTaskModels: the models the scene files bind to a synset's task
// instances are the ones chosen for it, in every scene; a recorded model
// outside the synset's subtree is ignored.
func TestTaskModels(t *testing.T) {
	base := kb.Default()
	// a synset of the default knowledge base with two small models
	var name string
	var bowls []string
	for id := kb.SynsetID(0); int(id) < base.NumSynsets() && name == ""; id++ {
		var ms []string
		if slices.Contains(base.CategoriesOf(id), "countertop") {
			continue
		}
		for _, c := range base.CategoriesOf(id) {
			for _, m := range base.Models(c) {
				if m.HasSize && max(m.Size[0], m.Size[1], m.Size[2]) < 0.4 {
					ms = append(ms, m.Name)
				}
			}
		}
		if len(ms) >= 2 && !strings.Contains(base.Name(id), "agent") {
			name, bowls = base.Name(id), ms
		}
	}
	if name == "" {
		t.Fatal("no synset with two small models in the default knowledge base")
	}
	p := problem(t, "thing_1 - "+name, "(ontop thing_1 countertop.n.01_1)")
	for _, tc := range []struct {
		name     string
		recorded []string
		want     func(string) bool
	}{
		{"one recorded", []string{bowls[1]}, func(m string) bool { return m == bowls[1] }},
		{"outside the subtree", []string{"countertop-kzpbrq"}, func(m string) bool { return m != "countertop-kzpbrq" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New(base, predicates.Options{})
			rec := scaledKitchen(base, "rec", [3]float64{})
			rec.TaskModels = map[string][]string{name: tc.recorded}
			s.AddScene(rec)
			s.AddScene(scaledKitchen(base, "other", [3]float64{}))
			for seed := uint64(0); seed < 8; seed++ {
				for _, scene := range []string{"rec", "other"} {
					res, err := s.Sample(Request{Problem: p, Scenes: []string{scene}, Seed: seed})
					if err != nil {
						t.Fatal(err)
					}
					for _, o := range res.Objects {
						if o.Name == "thing_1" && !tc.want(o.Model) {
							t.Fatalf("seed %d, %s: chose %s, recorded %v", seed, scene, o.Model, tc.recorded)
						}
					}
				}
			}
		})
	}
}

func TestSynsetOfInstance(t *testing.T) {
	for in, want := range map[string]string{
		"bowl.n.01_2":           "bowl.n.01",
		"can__of__soda.n.01_13": "can__of__soda.n.01",
		"Easter_egg.n.01_1":     "easter_egg.n.01",
		"bowl_73":               "",
		"bowl.n.01_":            "",
		"bowl.n.01_x":           "",
		"_1":                    "",
		"floor.n.01":            "",
	} {
		if got := synsetOfInstance(in); got != want {
			t.Errorf("synsetOfInstance(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSceneFileBindings: an in-room instance is bound to the scene
// object the scene file binds it to (SceneObject.Binding), in the room
// that holds it, whatever the seed.
func TestSceneFileBindings(t *testing.T) {
	base := kb.Default()
	fl, _ := base.SynsetOfCategory("floors")
	ct, _ := base.SynsetOfCategory("countertop")
	kitchen := func(name string, x float64, binding string) *Room {
		return &Room{Name: name, Type: "kitchen", Floor: mkBox(x, 0, -0.05, x+4, 4, 0), Height: 2.7,
			Objects: []*SceneObject{
				{Name: "floors_" + name, Category: "floors", Model: "floors-tmlxvd", Synset: fl, Box: mkBox(x, 0, -0.05, x+4, 4, 0), Room: name, Kind: FloorPart},
				{Name: "countertop_a_" + name, Category: "countertop", Model: "countertop-kzpbrq", Synset: ct, Box: mkBox(x, 0, 0, x+1.5, 0.65, 0.92), Room: name},
				{Name: "countertop_b_" + name, Category: "countertop", Model: "countertop-kzpbrq", Synset: ct, Box: mkBox(x+2, 0, 0, x+3.5, 0.65, 0.92), Room: name,
					Binding: binding, Task: binding != ""},
			}}
	}
	s := New(base, predicates.Options{})
	s.AddScene(&Scene{Name: "two", Source: "test", Rooms: []*Room{kitchen("kitchen_0", 0, ""), kitchen("kitchen_1", 5, "countertop.n.01_1")}})
	p := problem(t, "bowl.n.01_1 - bowl.n.01", "(ontop bowl.n.01_1 countertop.n.01_1)")
	for seed := uint64(0); seed < 12; seed++ {
		res, err := s.Sample(Request{Problem: p, Scenes: []string{"two"}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range res.Objects {
			if o.Name == "countertop.n.01_1" && o.SceneObject != "countertop_b_kitchen_1" {
				t.Fatalf("seed %d: countertop.n.01_1 bound to %s, the scene file binds it to countertop_b_kitchen_1", seed, o.SceneObject)
			}
		}
	}
}
