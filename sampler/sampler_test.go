package sampler

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// problem builds a definition in the kitchen of the default knowledge
// base's scenes from its objects and :init lines.
func problem(t testing.TB, objects string, init ...string) *bddl.Problem {
	t.Helper()
	src := "(define (problem sampler_test-0)\n (:domain omnigibson)\n (:objects " + objects +
		" floor.n.01_1 - floor.n.01 countertop.n.01_1 - countertop.n.01 agent.n.01_1 - agent.n.01)\n (:init\n  " +
		strings.Join(init, "\n  ") +
		"\n  (inroom floor.n.01_1 kitchen) (inroom countertop.n.01_1 kitchen) (ontop agent.n.01_1 floor.n.01_1))\n (:goal (and (real agent.n.01_1))))\n"
	p, diags := bddl.ParseProblem("sampler_test.bddl", []byte(src))
	if diags.HasErrors() {
		t.Fatalf("test definition does not parse: %v\n%s", diags, src)
	}
	return p
}

// readBack reads a written episode into a state of the result's program,
// so checks see exactly what the file says.
func readBack(t testing.TB, res *Result, digest string) *predicates.State {
	t.Helper()
	var buf bytes.Buffer
	if err := res.WriteEpisode(&buf, digest); err != nil {
		t.Fatal(err)
	}
	r, err := episode.NewReader(&buf, "sampled.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	st := res.Program.NewState()
	if err := r.Bind(st); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Next(); err != nil {
		t.Fatal(err)
	}
	return st
}

// noOverlaps fails when two placed objects, or a placed object and a
// scene object, share volume, except an object and the containers it is
// in.
func noOverlaps(t testing.TB, res *Result) {
	t.Helper()
	byName := map[string]*Object{}
	for i := range res.Objects {
		byName[res.Objects[i].Name] = &res.Objects[i]
	}
	held := func(o *Object, c string) bool { // o is in c, or on something in c
		for o != nil && o.Parent != "" {
			if o.Parent == c {
				return o.Relation == "inside" || o.Relation == "draped"
			}
			o = byName[o.Parent]
		}
		return false
	}
	type item struct {
		name string
		box  predicates.Box
		inst *Object
	}
	var items []item
	bound := map[string]string{}
	for _, o := range res.Objects {
		if o.SceneObject != "" {
			bound[o.SceneObject] = o.Name
		}
	}
	for _, r := range res.rooms {
		for _, so := range r.Objects {
			name := so.Name
			if b, ok := bound[so.Name]; ok {
				name = b
			}
			items = append(items, item{name: name, box: so.Box, inst: byName[name]})
		}
	}
	for i := range res.Objects {
		o := &res.Objects[i]
		if o.Placed && o.SceneObject == "" {
			items = append(items, item{name: o.Name, box: o.Box, inst: o})
		}
	}
	for i := range items {
		for j := i + 1; j < len(items); j++ {
			a, b := items[i], items[j]
			if !overlaps(a.box, b.box) {
				continue
			}
			if (a.inst != nil && held(a.inst, b.name)) || (b.inst != nil && held(b.inst, a.name)) {
				continue
			}
			t.Errorf("%s %v overlaps %s %v", a.name, a.box, b.name, b.box)
		}
	}
}

// inRooms fails when a placed object's centre is not over the floor of
// the room it is recorded in.
func inRooms(t testing.TB, res *Result) {
	t.Helper()
	for _, o := range res.Objects {
		if !o.Placed {
			continue
		}
		r := res.scene.Room(o.Room)
		if r == nil {
			t.Errorf("%s is in no room of the scene (%q)", o.Name, o.Room)
			continue
		}
		c := o.Box.Center()
		if c[0] < r.Floor.Min[0] || c[0] > r.Floor.Max[0] || c[1] < r.Floor.Min[1] || c[1] > r.Floor.Max[1] {
			t.Errorf("%s's centre %v is outside %s %v", o.Name, c, r.Name, r.Floor)
		}
	}
}

func TestEveryPredicateSampler(t *testing.T) {
	s := New(kb.Default(), predicates.Options{})
	cases := []struct {
		name, objects string
		init          []string
	}{
		{"ontop", "apple.n.01_1 - apple.n.01", []string{"(ontop apple.n.01_1 countertop.n.01_1)"}},
		{"ontop floor", "bowl.n.01_1 - bowl.n.01", []string{"(ontop bowl.n.01_1 floor.n.01_1)"}},
		{"inside", "apple.n.01_1 - apple.n.01 bowl.n.01_1 - bowl.n.01", []string{"(ontop bowl.n.01_1 countertop.n.01_1)", "(inside apple.n.01_1 bowl.n.01_1)"}},
		{"inside in-room", "cabinet.n.01_1 - cabinet.n.01 mug.n.04_1 - mug.n.04", []string{"(inroom cabinet.n.01_1 kitchen)", "(inside mug.n.04_1 cabinet.n.01_1)"}},
		{"nextto", "apple.n.01_1 - apple.n.01 bowl.n.01_1 - bowl.n.01", []string{"(ontop bowl.n.01_1 countertop.n.01_1)", "(nextto apple.n.01_1 bowl.n.01_1)"}},
		{"nextto and ontop", "apple.n.01_1 - apple.n.01 bowl.n.01_1 - bowl.n.01", []string{"(ontop bowl.n.01_1 countertop.n.01_1)", "(ontop apple.n.01_1 countertop.n.01_1)", "(nextto apple.n.01_1 bowl.n.01_1)"}},
		{"touching", "apple.n.01_1 - apple.n.01 bowl.n.01_1 - bowl.n.01", []string{"(ontop bowl.n.01_1 floor.n.01_1)", "(touching apple.n.01_1 bowl.n.01_1)"}},
		{"overlaid", "tablecloth.n.01_1 - tablecloth.n.01", []string{"(overlaid tablecloth.n.01_1 countertop.n.01_1)"}},
		{"overlaid then ontop", "tablecloth.n.01_1 - tablecloth.n.01 apple.n.01_1 - apple.n.01", []string{"(overlaid tablecloth.n.01_1 countertop.n.01_1)", "(ontop apple.n.01_1 countertop.n.01_1)"}},
		{"draped", "rag.n.01_1 - rag.n.01", []string{"(draped rag.n.01_1 countertop.n.01_1)"}},
		{"attached", "light_bulb.n.01_1 - light_bulb.n.01 table_lamp.n.01_1 - table_lamp.n.01", []string{"(ontop table_lamp.n.01_1 countertop.n.01_1)", "(attached light_bulb.n.01_1 table_lamp.n.01_1)"}},
		{"cooked", "apple.n.01_1 - apple.n.01", []string{"(ontop apple.n.01_1 countertop.n.01_1)", "(cooked apple.n.01_1)"}},
		{"not cooked, hot", "apple.n.01_1 - apple.n.01", []string{"(ontop apple.n.01_1 countertop.n.01_1)", "(not (cooked apple.n.01_1))", "(hot apple.n.01_1)"}},
		{"frozen", "apple.n.01_1 - apple.n.01", []string{"(ontop apple.n.01_1 countertop.n.01_1)", "(frozen apple.n.01_1)"}},
		{"on_fire", "apple.n.01_1 - apple.n.01", []string{"(ontop apple.n.01_1 countertop.n.01_1)", "(on_fire apple.n.01_1)"}},
		{"open", "cabinet.n.01_1 - cabinet.n.01", []string{"(inroom cabinet.n.01_1 kitchen)", "(open cabinet.n.01_1)"}},
		{"not open", "cabinet.n.01_1 - cabinet.n.01", []string{"(inroom cabinet.n.01_1 kitchen)", "(not (open cabinet.n.01_1))"}},
		{"toggled_on", "stove.n.01_1 - stove.n.01", []string{"(inroom stove.n.01_1 kitchen)", "(toggled_on stove.n.01_1)"}},
		{"filled", "bowl.n.01_1 - bowl.n.01 water.n.06_1 - water.n.06", []string{"(ontop bowl.n.01_1 countertop.n.01_1)", "(filled bowl.n.01_1 water.n.06_1)"}},
		{"contains, not filled", "bowl.n.01_1 - bowl.n.01 water.n.06_1 - water.n.06", []string{"(ontop bowl.n.01_1 countertop.n.01_1)", "(contains bowl.n.01_1 water.n.06_1)", "(not (filled bowl.n.01_1 water.n.06_1))"}},
		{"covered", "apple.n.01_1 - apple.n.01 dust.n.01_1 - dust.n.01", []string{"(ontop apple.n.01_1 countertop.n.01_1)", "(covered apple.n.01_1 dust.n.01_1)"}},
		{"not covered", "apple.n.01_1 - apple.n.01 dust.n.01_1 - dust.n.01", []string{"(ontop apple.n.01_1 countertop.n.01_1)", "(not (covered apple.n.01_1 dust.n.01_1))", "(covered countertop.n.01_1 dust.n.01_1)"}},
		{"saturated", "sponge.n.01_1 - sponge.n.01 water.n.06_1 - water.n.06", []string{"(ontop sponge.n.01_1 countertop.n.01_1)", "(saturated sponge.n.01_1 water.n.06_1)"}},
		{"folded", "jersey.n.03_1 - jersey.n.03", []string{"(ontop jersey.n.03_1 countertop.n.01_1)", "(folded jersey.n.03_1)"}},
		{"unfolded", "jersey.n.03_1 - jersey.n.03", []string{"(ontop jersey.n.03_1 countertop.n.01_1)", "(unfolded jersey.n.03_1)"}},
		{"future", "apple.n.01_1 - apple.n.01 half__apple.n.01_1 - half__apple.n.01", []string{"(ontop apple.n.01_1 countertop.n.01_1)", "(future half__apple.n.01_1)"}},
		{"real", "apple.n.01_1 - apple.n.01", []string{"(ontop apple.n.01_1 countertop.n.01_1)", "(real apple.n.01_1)"}},
		{"insource", "sink.n.01_1 - sink.n.01 water.n.06_1 - water.n.06", []string{"(inroom sink.n.01_1 kitchen)", "(insource sink.n.01_1 water.n.06_1)"}},
		{"negated kinematic", "apple.n.01_1 - apple.n.01 bowl.n.01_1 - bowl.n.01", []string{"(ontop bowl.n.01_1 countertop.n.01_1)", "(ontop apple.n.01_1 countertop.n.01_1)", "(not (touching apple.n.01_1 bowl.n.01_1))"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := problem(t, c.objects, c.init...)
			for seed := uint64(0); seed < 5; seed++ {
				res, err := s.Sample(Request{Activity: "sampler_test", Problem: p, Scenes: []string{"Small_house_0"}, Seed: seed})
				if err != nil {
					t.Fatalf("seed %d: %v", seed, err)
				}
				st := readBack(t, res, s.Digest())
				if v := res.Program.EvalInit(st); v != predicates.True {
					t.Fatalf("seed %d: :init is %s on the written episode: %v", seed, v, res.Program.ExplainInit(st).Reasons())
				}
				noOverlaps(t, res)
				inRooms(t, res)
			}
		})
	}
}

// TestUnderNeedsRoomBelow: under is sampled below a raised object of a
// simulator-like scene, and explained as no-space below one standing on
// the floor.
func TestUnder(t *testing.T) {
	base := kb.Default()
	s := New(base, predicates.Options{})
	cab, _ := base.SynsetOfCategory("top_cabinet")
	fl, _ := base.SynsetOfCategory("floors")
	ct, _ := base.SynsetOfCategory("countertop")
	s.AddScene(&Scene{Name: "raised", Source: "test", Rooms: []*Room{{Name: "kitchen_0", Type: "kitchen",
		Floor: mkBox(0, 0, -0.05, 4, 4, 0), Height: 2.7,
		Objects: []*SceneObject{
			{Name: "floors_0", Category: "floors", Model: "floors-tmlxvd", Synset: fl, Box: mkBox(0, 0, -0.05, 4, 4, 0), Room: "kitchen_0", Kind: FloorPart},
			{Name: "countertop_0", Category: "countertop", Model: "countertop-kzpbrq", Synset: ct, Box: mkBox(0, 0, 0, 2.4, 0.65, 0.92), Room: "kitchen_0"},
			{Name: "top_cabinet_0", Category: "top_cabinet", Model: "top_cabinet-lsyzkh", Synset: cab, Box: mkBox(2.6, 0, 1.5, 3.6, 0.4, 2.2), Room: "kitchen_0"},
		}}}})
	p := problem(t, "cabinet.n.01_1 - cabinet.n.01 bowl.n.01_1 - bowl.n.01", "(inroom cabinet.n.01_1 kitchen)", "(under bowl.n.01_1 cabinet.n.01_1)")
	res, err := s.Sample(Request{Problem: p, Scenes: []string{"raised"}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if v := res.Program.EvalInit(readBack(t, res, "")); v != predicates.True {
		t.Fatalf(":init is %s", v)
	}
	noOverlaps(t, res)
	p = problem(t, "bowl.n.01_1 - bowl.n.01", "(under bowl.n.01_1 countertop.n.01_1)")
	_, err = s.Sample(Request{Problem: p, Scenes: []string{"raised"}, Seed: 3})
	if f, ok := err.(*Failure); !ok || f.Kind != NoSpace || !strings.Contains(f.Message, "no room below") {
		t.Fatalf("under a countertop standing on the floor: got %v, want a no-space failure explaining it", err)
	}
}

// modelless is a physical synset of the default knowledge base with no
// object model in its subtree.
func modelless(t testing.TB) string {
	b := kb.Default()
	obj, _ := b.Lookup("object.n.01")
	for _, id := range b.Descendants(obj) {
		if b.IsLeaf(id) && !b.IsSubstance(id) && len(b.ModelsOf(id)) == 0 {
			return b.Name(id)
		}
	}
	t.Skip("every synset of the default knowledge base has a model")
	return ""
}

func TestFailures(t *testing.T) {
	s := New(kb.Default(), predicates.Options{})
	cases := []struct {
		name, objects string
		init          []string
		scenes        []string
		kind          Kind
		literal, msg  string
	}{
		{"no-room", "washer.n.03_1 - washer.n.03", []string{"(inroom washer.n.03_1 utility_room)"}, []string{"Studio_0"}, NoRoom, "", "no utility_room"},
		{"no-room object", "washer.n.03_1 - washer.n.03", []string{"(inroom washer.n.03_1 kitchen)"}, []string{"Studio_0"}, NoRoom, "", "washer.n.03_1"},
		{"no-room fixed", "", []string{"(inside countertop.n.01_1 floor.n.01_1)"}, []string{"Studio_0"}, NoRoom, "(inside countertop.n.01_1 floor.n.01_1)", "stay where they are"},
		{"no-scene", "washer.n.03_1 - washer.n.03", []string{"(inroom washer.n.03_1 kitchen)"}, nil, NoScene, "", "none of 3 scenes"},
		{"no-model", modelless(t) + "_1 - " + modelless(t), []string{"(ontop " + modelless(t) + "_1 countertop.n.01_1)"}, []string{"Studio_0"}, NoModel, "", "no object model of " + modelless(t)},
		{"no-model container", "apple.n.01_1 - apple.n.01 mug.n.04_1 - mug.n.04", []string{"(ontop mug.n.04_1 countertop.n.01_1)", "(ontop apple.n.01_1 countertop.n.01_1)", "(filled apple.n.01_1 water.n.06_1)"}, []string{"Studio_0"}, NoModel, "(filled apple.n.01_1 water.n.06_1)", "container volume"},
		{"no-space", "bed.n.01_1 - bed.n.01 mug.n.04_1 - mug.n.04", []string{"(ontop mug.n.04_1 countertop.n.01_1)", "(inside bed.n.01_1 mug.n.04_1)"}, []string{"Studio_0"}, NoSpace, "(inside bed.n.01_1 mug.n.04_1)", "does not fit inside mug.n.04_1"},
		{"contradiction", "apple.n.01_1 - apple.n.01", []string{"(ontop apple.n.01_1 countertop.n.01_1)", "(cooked apple.n.01_1)", "(not (cooked apple.n.01_1))"}, []string{"Studio_0"}, Contradiction, "(not (cooked apple.n.01_1))", "apple.n.01_1"},
		{"contradiction future", "apple.n.01_1 - apple.n.01", []string{"(future apple.n.01_1)", "(ontop apple.n.01_1 countertop.n.01_1)"}, []string{"Studio_0"}, Contradiction, "(ontop apple.n.01_1 countertop.n.01_1)", "future"},
		{"contradiction cycle", "apple.n.01_1 - apple.n.01 bowl.n.01_1 - bowl.n.01", []string{"(ontop apple.n.01_1 bowl.n.01_1)", "(ontop bowl.n.01_1 apple.n.01_1)"}, []string{"Studio_0"}, Contradiction, "", "cycle"},
		{"unsupported inroom", "apple.n.01_1 - apple.n.01", []string{"(ontop apple.n.01_1 countertop.n.01_1)", "(not (inroom apple.n.01_1 kitchen))"}, []string{"Studio_0"}, Unsupported, "(not (inroom apple.n.01_1 kitchen))", "negated inroom"},
		{"unsupported connective", "apple.n.01_1 - apple.n.01", []string{"(or (ontop apple.n.01_1 countertop.n.01_1) (ontop apple.n.01_1 floor.n.01_1))"}, []string{"Studio_0"}, Unsupported, "", "only atoms"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			objs := c.objects
			if strings.Contains(strings.Join(c.init, " "), "water.n.06_1") && !strings.Contains(objs, "water") {
				objs += " water.n.06_1 - water.n.06"
			}
			p := problem(t, objs, c.init...)
			_, err := s.Sample(Request{Problem: p, Scenes: c.scenes, Seed: 1})
			f, ok := err.(*Failure)
			if !ok {
				t.Fatalf("got %v, want a %s failure", err, c.kind)
			}
			if f.Kind != c.kind || !strings.Contains(f.Error(), c.msg) || (c.literal != "" && f.Literal != c.literal) {
				t.Fatalf("got %s (literal %q), want kind %s with literal %q mentioning %q", f.Error(), f.Literal, c.kind, c.literal, c.msg)
			}
			if len(f.Objects) == 0 && f.Kind != NoScene && f.Kind != Unsupported {
				t.Errorf("the failure names no object: %v", f)
			}
		})
	}
}

func TestWildcardExpansion(t *testing.T) {
	base := kb.Default()
	s := New(base, predicates.Options{})
	src := `(define (problem wild-0) (:domain omnigibson)
 (:objects cabinet.n.01_1 cabinet.n.01_* - cabinet.n.01 floor.n.01_1 - floor.n.01 apple.n.01_1 - apple.n.01)
 (:init (inroom cabinet.n.01_1 kitchen) (inroom cabinet.n.01_* kitchen) (inroom floor.n.01_1 kitchen)
  (inside apple.n.01_1 cabinet.n.01_1) (not (open cabinet.n.01_*)))
 (:goal (forall (?c - cabinet.n.01) (not (open ?c)))))`
	p, diags := bddl.ParseProblem("wild.bddl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	res, err := s.Sample(Request{Problem: p, Scenes: []string{"Small_house_0"}, Seed: 2})
	if err != nil {
		t.Fatal(err)
	}
	sc, _ := s.Scene("Small_house_0")
	cabs := 0
	for _, o := range sc.Room("kitchen_0").Objects {
		if o.Category == "bottom_cabinet" || o.Category == "top_cabinet" {
			cabs++
		}
	}
	var names []string
	for _, o := range res.Objects {
		if strings.HasPrefix(o.Name, "cabinet.n.01_") {
			names = append(names, o.Name)
			if o.SceneObject == "" || o.Room != "kitchen_0" {
				t.Errorf("%s is not bound to a kitchen cabinet: %+v", o.Name, o)
			}
		}
	}
	if len(names) != cabs {
		t.Fatalf("cabinet instances %v, want one per kitchen cabinet (%d)", names, cabs)
	}
	if names[1] != "cabinet.n.01_2" || names[len(names)-1] != fmt.Sprintf("cabinet.n.01_%d", cabs) {
		t.Errorf("expansion is numbered %v, want cabinet.n.01_2 … cabinet.n.01_%d", names, cabs)
	}
	// The file names the expansion, so the checker expands it the same way.
	h, err := res.Header(s.Digest())
	if err != nil {
		t.Fatal(err)
	}
	if w := episode.Wildcards(p, h)["cabinet.n.01_*"]; len(w) != cabs-1 {
		t.Fatalf("the header expands the wildcard to %v", w)
	}
	if v := res.Program.EvalInit(readBack(t, res, "")); v != predicates.True {
		t.Fatalf(":init is %s", v)
	}
}

func TestGoal(t *testing.T) {
	s := New(kb.Default(), predicates.Options{})
	src := `(define (problem goal-0) (:domain omnigibson)
 (:objects apple.n.01_1 apple.n.01_2 - apple.n.01 bowl.n.01_1 - bowl.n.01 countertop.n.01_1 - countertop.n.01 floor.n.01_1 - floor.n.01 stove.n.01_1 - stove.n.01)
 (:init (inroom countertop.n.01_1 kitchen) (inroom floor.n.01_1 kitchen) (inroom stove.n.01_1 kitchen)
  (ontop apple.n.01_1 countertop.n.01_1) (ontop apple.n.01_2 countertop.n.01_1) (ontop bowl.n.01_1 floor.n.01_1))
 (:goal (and (forall (?a - apple.n.01) (and (inside ?a bowl.n.01_1) (cooked ?a))) (ontop bowl.n.01_1 countertop.n.01_1) (not (toggled_on stove.n.01_1)))))`
	p, diags := bddl.ParseProblem("goal.bddl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	res, err := s.Sample(Request{Problem: p, Seed: 5, Goal: true})
	if err != nil {
		t.Fatal(err)
	}
	st := readBack(t, res, "")
	if v := res.Program.Eval(st); v != predicates.True {
		t.Fatalf("goal is %s on the sampled goal state: %v", v, res.Program.Explain(st).Reasons())
	}
	noOverlaps(t, res)
}

// TestDeterminism: the same request gives the same bytes, whether the
// configurations are sampled one after another or concurrently.
func TestDeterminism(t *testing.T) {
	base := kb.Default()
	p := problem(t, "apple.n.01_1 apple.n.01_2 - apple.n.01 bowl.n.01_1 - bowl.n.01 water.n.06_1 - water.n.06",
		"(ontop bowl.n.01_1 countertop.n.01_1)", "(inside apple.n.01_1 bowl.n.01_1)", "(ontop apple.n.01_2 floor.n.01_1)", "(filled bowl.n.01_1 water.n.06_1)", "(hot apple.n.01_2)")
	run := func(workers int) []string {
		s := New(base, predicates.Options{})
		out := make([]string, 16)
		var wg sync.WaitGroup
		next := make(chan int)
		for range workers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range next {
					res, err := s.Sample(Request{Activity: "det", Problem: p, Seed: 9, Index: k})
					if err != nil {
						t.Error(err)
						continue
					}
					var b bytes.Buffer
					if err := res.WriteEpisode(&b, s.Digest()); err != nil {
						t.Error(err)
					}
					out[k] = b.String()
				}
			}()
		}
		for k := range out {
			next <- k
		}
		close(next)
		wg.Wait()
		return out
	}
	one, many := run(1), run(4)
	distinct := map[string]bool{}
	for k := range one {
		if one[k] != many[k] {
			t.Fatalf("configuration %d differs between 1 and 4 workers", k)
		}
		distinct[one[k]] = true
	}
	if len(distinct) < 8 {
		t.Errorf("only %d distinct configurations of 16: the index does not vary them", len(distinct))
	}
}

func TestLayoutHasNoOverlaps(t *testing.T) {
	base := kb.Default()
	for _, ks := range base.Scenes() {
		sc := LayoutScene(base, ks)
		var all []*SceneObject
		for ri, r := range sc.Rooms {
			for _, q := range sc.Rooms[ri+1:] {
				if overlaps(r.Floor, q.Floor) {
					t.Errorf("%s: rooms %s and %s overlap", sc.Name, r.Name, q.Name)
				}
			}
			all = append(all, r.Objects...)
			for _, o := range r.Objects {
				if o.Kind == Furniture || o.Kind == Opening {
					c := o.Box.Center()
					if c[0] < r.Floor.Min[0] || c[0] > r.Floor.Max[0] || c[1] < r.Floor.Min[1] || c[1] > r.Floor.Max[1] {
						t.Errorf("%s: %s stands outside %s", sc.Name, o.Name, r.Name)
					}
					for _, k := range r.Keepout {
						if o.Kind == Furniture && overlaps(o.Box, k) {
							t.Errorf("%s: %s blocks a door", sc.Name, o.Name)
						}
					}
				}
			}
		}
		for i, a := range all {
			for _, b := range all[i+1:] {
				if overlaps(a.Box, b.Box) {
					t.Errorf("%s: %s %v overlaps %s %v", sc.Name, a.Name, a.Box, b.Name, b.Box)
				}
			}
		}
	}
}

// TestTemplateScene samples the reference's own tasks in the scenes their
// template files describe.
func TestTemplateScene(t *testing.T) {
	tasks, _ := filepath.Glob(filepath.Join(corpus.OmniGibsonDir(t), "*", "*_template-partial_rooms.json"))
	if len(tasks) == 0 {
		t.Fatal("no OmniGibson scene files in " + corpus.OmniGibsonDir(t))
	}
	base, err := kb.Load(corpus.KBDir(t))
	if err != nil {
		t.Fatal(err)
	}
	s := New(base, predicates.Options{})
	ok := 0
	for _, path := range tasks {
		sc, err := ReadTemplate(base, path)
		if err != nil {
			t.Fatal(err)
		}
		s.AddScene(sc)
		// Every task object the file loads rescaled is in the scene's
		// model scales, at least that large.
		tm, err := omnigibson.ReadTemplate(path)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range tm.Bindings {
			o, ok := tm.Object(b.Name)
			if !ok || o.Scale == ([3]float64{1, 1, 1}) {
				continue
			}
			if got, ok := sc.ModelScales[o.Category+"-"+o.Model]; !ok || scaleLess(got, o.Scale) {
				t.Errorf("%s: %s loaded at %v, the scene's model scales say %v", path, b.Name, o.Scale, got)
			}
		}
		src, err := os.ReadFile(filepath.Join(corpus.OmniGibsonPackage(t).Activities, filepath.Base(filepath.Dir(path)), "problem0.bddl"))
		if err != nil {
			t.Fatal(err)
		}
		p, diags := bddl.ParseProblem("problem0.bddl", src)
		if diags.HasErrors() {
			t.Fatal(diags)
		}
		res, err := s.Sample(Request{Activity: filepath.Base(filepath.Dir(path)), Problem: p, Scenes: []string{sc.Name}})
		if err != nil {
			if f, isF := err.(*Failure); isF && f.Kind == Internal {
				t.Errorf("%s: %v", path, err)
			}
			t.Logf("%s: %v", filepath.Base(filepath.Dir(path)), err)
			continue
		}
		ok++
		if v := res.Program.EvalInit(readBack(t, res, "")); v != predicates.True {
			t.Errorf("%s: :init is %s", path, v)
		}
	}
	t.Logf("sampled %d of %d tasks in their own scenes", ok, len(tasks))
	if ok < len(tasks)/2 {
		t.Errorf("sampled only %d of %d tasks in their template scenes", ok, len(tasks))
	}
}

// TestExamplesEverySeed: the embedded examples, :init and goal, over many
// seeds, sample to states the evaluator accepts or fail with a typed
// reason; never an internal failure.
func TestExamplesEverySeed(t *testing.T) {
	s := New(kb.Default(), predicates.Options{})
	for _, a := range activities.Examples().Activities {
		for seed := uint64(0); seed < 20; seed++ {
			for _, goal := range []bool{false, true} {
				res, err := s.Sample(Request{Activity: a.Name, Problem: a.Problem, Seed: seed, Goal: goal})
				if err != nil {
					f, ok := err.(*Failure)
					if !ok {
						t.Fatalf("%s: untyped failure %v", a.Name, err)
					}
					for _, x := range append([]*Failure{f}, f.Tried...) {
						if x.Kind == Internal {
							t.Errorf("%s seed %d goal %v: %v", a.Name, seed, goal, x)
						}
					}
					continue
				}
				v := res.Program.EvalInit(res.State)
				if goal {
					v = res.Program.Eval(res.State)
				}
				if v != predicates.True {
					t.Errorf("%s seed %d goal %v: %s", a.Name, seed, goal, v)
				}
				noOverlaps(t, res)
			}
		}
	}
}
