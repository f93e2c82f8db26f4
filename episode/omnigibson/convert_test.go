package omnigibson

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/spatial/r3"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/predicates"
)

const tinyDir = "testdata/tiny"

// tinyTemplate reads the tiny task's template.
func tinyTemplate(t *testing.T) (*Template, *Task) {
	t.Helper()
	task, err := FindTask(tinyDir)
	if err != nil {
		t.Fatal(err)
	}
	tmpl, err := ReadTemplate(task.Template)
	if err != nil {
		t.Fatal(err)
	}
	return tmpl, task
}

func tinyConverter(t *testing.T, opts Options) (*Converter, *Task) {
	t.Helper()
	tmpl, task := tinyTemplate(t)
	c, err := NewConverter(tmpl, readProblem(t, task.Definition), task.Definition, nil, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c, task
}

func fixtureDataset(t *testing.T) *Dataset {
	t.Helper()
	ds, err := OpenDataset("testdata/og_dataset")
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// TestTinyDataset converts the fixture task with the dataset fixture:
// exact offsets put the apple on the table, whose root link sits near its
// top, and the cabinet's annotated door joint with its URDF limits
// decides open.
func TestTinyDataset(t *testing.T) {
	c, task := tinyConverter(t, Options{Dataset: fixtureDataset(t), Offsets: OffsetsNone})
	prob := readProblem(t, task.Definition)
	in, err := ReadInstance(task.Instances[0])
	if err != nil {
		t.Fatal(err)
	}
	for name, convert := range map[string]func(t *testing.T) ([]InitLiteral, *Report){
		"template": func(t *testing.T) ([]InitLiteral, *Report) {
			h, rep, err := c.ConvertTemplate()
			if err != nil {
				t.Fatal(err)
			}
			l, err := EvalInit(prob, nil, h)
			if err != nil {
				t.Fatal(err)
			}
			return l, rep
		},
		"instance": func(t *testing.T) ([]InitLiteral, *Report) {
			h, rep, err := c.Convert(in)
			if err != nil {
				t.Fatal(err)
			}
			if got := h.Objects["agent.n.01_1"].Pos; got != [3]float64{2.5, 0.5, 0.001} {
				t.Errorf("agent at %v, want the instance's Tiago pose", got)
			}
			l, err := EvalInit(prob, nil, h)
			if err != nil {
				t.Fatal(err)
			}
			return l, rep
		},
	} {
		t.Run(name, func(t *testing.T) {
			lits, rep := convert(t)
			if len(lits) != 10 {
				t.Errorf("%d literals, want 10", len(lits))
			}
			for _, l := range lits {
				if l.Value != predicates.True {
					t.Errorf("%s is %s: %s", l.Literal, l.Value, l.Detail)
				}
			}
			if rep.IsApproximate("ontop", []string{"apple.n.01_1", "table.n.02_1"}) || !rep.IsApproximate("ontop", []string{"agent.n.01_1", "floor.n.01_1"}) ||
				rep.IsApproximate("open", []string{"cabinet.n.01_1"}) {
				t.Errorf("approximate: %v boxes, %v joints: want only the agent's box", rep.ApproxBoxes, rep.ApproxJoints)
			}
			if rep.BoxesExact != 6 || rep.JointsAssumed != 0 || len(rep.Future) != 1 || rep.Substances != 1 {
				t.Errorf("report %+v: want 6 exact boxes, no assumed joints, one future instance, one substance", rep)
			}
		})
	}
}

// TestTinyWithoutDataset shows what the dataset fixes: centred on its root
// link the table's box swallows the apple, and with assumed limits the
// drawer (not openable, but unknown as such) counts as open.
func TestTinyWithoutDataset(t *testing.T) {
	c, task := tinyConverter(t, Options{Offsets: OffsetsNone})
	prob := readProblem(t, task.Definition)
	// Without a knowledge base or dataset there are no sizes: no boxes,
	// and geometry stays undetermined.
	h, rep, err := c.ConvertTemplate()
	if err != nil {
		t.Fatal(err)
	}
	if !rep.IsApproximate("open", []string{"cabinet.n.01_1"}) {
		t.Errorf("open on assumed joint limits not counted approximate: %v", rep.ApproxJoints)
	}
	if rep.Boxes != 0 || len(rep.NoSize) != 6 || rep.JointsAssumed != 1 {
		t.Errorf("report %+v: want no boxes, 6 objects without size, 1 object with assumed joints", rep)
	}
	lits, err := EvalInit(prob, nil, h)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]predicates.Truth{}
	for _, l := range lits {
		got[l.Literal] = l.Value
	}
	want := map[string]predicates.Truth{
		"(ontop apple.n.01_1 table.n.02_1)": predicates.Unknown,
		"(not (open cabinet.n.01_1))":       predicates.False,
		"(inroom table.n.02_1 kitchen)":     predicates.True,
		"(ontop agent.n.01_1 floor.n.01_1)": predicates.Unknown,
	}
	for lit, v := range want {
		if got[lit] != v {
			t.Errorf("%s = %s, want %s", lit, got[lit], v)
		}
	}
}

// forgetOffsets drops the offsets the fixture's dataset gives, so that
// the estimate decides.
func forgetOffsets(t *testing.T, ds *Dataset) {
	t.Helper()
	for _, key := range []string{"coffee_table/tbl001", "apple/apl001", "floors/flr001", "bottom_cabinet/cab001", "sponge/spg001", "bow/bow001"} {
		cat, model, _ := strings.Cut(key, "/")
		m, err := ds.Model(cat, model)
		if err != nil || m == nil {
			t.Fatalf("%s: %v", key, err)
		}
		m.HasOffset = false
	}
}

// TestSupportEstimate checks the support estimate on the fixture: with
// the dataset's sizes but not its offsets, the table's offset is found
// from its resting on the floor.
func TestSupportEstimate(t *testing.T) {
	ds := fixtureDataset(t)
	c, task := tinyConverter(t, Options{Dataset: ds, Offsets: OffsetsSupport})
	forgetOffsets(t, ds)
	h, rep, err := c.ConvertTemplate()
	if err != nil {
		t.Fatal(err)
	}
	if rep.BoxesEstimated != 6 {
		t.Errorf("report %+v: want 6 estimated boxes", rep)
	}
	table := h.Objects["table.n.02_1"].OBB
	// The floor's top is where the robots stand (z 0.001), and the table
	// stands on it.
	if top := table[4][2]; math.Abs(top-0.751) > 1e-6 {
		t.Errorf("table top at %.4f, want 0.751 (its root 0.7 sits 0.325 above its centre, on a floor at 0.001)", top)
	}
	lits, err := EvalInit(readProblem(t, task.Definition), nil, h)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range lits {
		if l.Pred == "ontop" && l.Value != predicates.True {
			t.Errorf("%s is %s: %s", l.Literal, l.Value, l.Detail)
		}
	}
}

func TestErrors(t *testing.T) {
	c, _ := tinyConverter(t, Options{})
	for _, tc := range []struct {
		name string
		run  func() error
		want []string
	}{
		{"missing template", func() error {
			_, err := FindTask("testdata/errors/missing_template/x_instances/x_0_1_template-tro_state.json")
			return err
		}, []string{"x_0_1_template-tro_state.json", "missing template"}},
		{"unknown instance", func() error {
			in, err := ReadInstance("testdata/errors/unknown_instance-tro_state.json")
			if err != nil {
				return err
			}
			_, _, err = c.Convert(in)
			return err
		}, []string{"unknown_instance-tro_state.json", "ghost.n.01_1", "problem0.bddl", "does not declare"}},
		{"undeclared binding", func() error {
			tmpl, err := ReadTemplate("testdata/errors/undeclared_template-partial_rooms.json")
			if err != nil {
				return err
			}
			_, err = NewConverter(tmpl, readProblem(t, filepath.Join(tinyDir, "problem0.bddl")), "testdata/tiny/problem0.bddl", nil, Options{})
			return err
		}, []string{"undeclared_template-partial_rooms.json", "hotdog.n.02_1", "problem0.bddl"}},
		{"truncated JSON", func() error {
			_, err := ReadTemplate("testdata/errors/truncated_template-partial_rooms.json")
			return err
		}, []string{"truncated_template-partial_rooms.json", "truncated"}},
		{"NaN", func() error {
			_, err := ReadInstance("testdata/errors/nan-tro_state.json")
			return err
		}, []string{"nan-tro_state.json", "apple.n.01_1", "NaN"}},
		{"not a task", func() error {
			_, err := FindTask("testdata/tiny/problem0.bddl")
			return err
		}, []string{"problem0.bddl", "not a task folder"}},
		{"unknown robot", func() error {
			tmpl, err := ReadTemplate(filepath.Join(tinyDir, "tiny_task_put_apple_0_0_template-partial_rooms.json"))
			if err != nil {
				return err
			}
			_, err = NewConverter(tmpl, readProblem(t, filepath.Join(tinyDir, "problem0.bddl")), "p", nil, Options{Robot: "Spot"})
			return err
		}, []string{"Spot", "Tiago, R1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

// FuzzReadInstance feeds arbitrary bytes to the instance reader: it must
// return a located error or a state, never panic or hang.
func FuzzReadInstance(f *testing.F) {
	for _, p := range []string{
		"testdata/tiny/tiny_task_put_apple_instances/tiny_task_put_apple_0_1_template-tro_state.json",
		"testdata/errors/nan-tro_state.json",
	} {
		data, err := readFileForTest(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := readInstance(bytes.NewReader(data), "fuzz.json")
		if err == nil && in == nil {
			t.Fatal("nil instance without an error")
		}
		if err != nil && !strings.HasPrefix(err.Error(), "fuzz.json") {
			t.Fatalf("error not located in the file: %v", err)
		}
	})
}

// FuzzReadTemplate does the same for templates.
func FuzzReadTemplate(f *testing.F) {
	data, err := readFileForTest(filepath.Join(tinyDir, "tiny_task_put_apple_0_0_template-partial_rooms.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(data)
	f.Fuzz(func(t *testing.T, data []byte) {
		tm, err := readTemplate(bytes.NewReader(data), "fuzz.json")
		if err == nil && tm == nil {
			t.Fatal("nil template without an error")
		}
		if err != nil && !strings.HasPrefix(err.Error(), "fuzz.json") {
			t.Fatalf("error not located in the file: %v", err)
		}
	})
}

// TestSimUUID checks the simulator's object ids against one the sample
// data pairs with its name (a visual particle group's parent).
func TestSimUUID(t *testing.T) {
	for name, want := range map[string]int64{"trumpet_87": 64370736} {
		if got := simUUID(name); got != want {
			t.Errorf("simUUID(%q) = %d, want %d", name, got, want)
		}
	}
}

// TestLayout reads the fixture's room layout: one kitchen with every
// object, boxes placed with the dataset's offsets.
func TestLayout(t *testing.T) {
	l, err := ReadLayout(filepath.Join(tinyDir, "tiny_task_put_apple_0_0_template-partial_rooms.json"), nil, Options{Dataset: fixtureDataset(t)})
	if err != nil {
		t.Fatal(err)
	}
	if l.Scene != "tiny" || len(l.Rooms) != 1 || l.Rooms[0].Name != "kitchen_0" || l.Rooms[0].Type != "kitchen" {
		t.Fatalf("layout %+v: want scene tiny with one room kitchen_0 of type kitchen", l)
	}
	objs := l.Rooms[0].Objects
	if len(objs) != 6 {
		t.Fatalf("%d objects in the kitchen, want 6", len(objs))
	}
	for _, o := range objs {
		if !o.HasBox || !o.Exact {
			t.Errorf("%s: want an exact box", o.Name)
		}
		if o.Name == "coffee_table_tbl001_0" && math.Abs(o.Box.Center.Z-0.375) > 1e-9 {
			t.Errorf("table box centre z %.4f, want 0.375", o.Box.Center.Z)
		}
	}
}

// TestObjectWithoutRootLink: an object entry of a kind this package does
// not know (no root_link) still converts: the object exists, unplaced.
func TestObjectWithoutRootLink(t *testing.T) {
	c, _ := tinyConverter(t, Options{})
	in, err := readInstance(strings.NewReader(`{"apple.n.01_1": {"non_kin": {"Temperature": {"temperature": 5}}},
		"bow.n.08_1": {"root_link": {"pos": [0, 0, 1], "ori": [0, 0, 0, 1]}, "non_kin": {"AttachedTo": {"attached_obj_uuid": -1.0}}}}`), "x-tro_state.json")
	if err != nil {
		t.Fatal(err)
	}
	h, _, err := c.Convert(in)
	if err != nil {
		t.Fatal(err)
	}
	a := h.Objects["apple.n.01_1"]
	if !a.Exists || a.Has(predicates.FieldPosition) || !a.Has(predicates.FieldTemperature) || a.Temperature != 5 {
		t.Errorf("apple %+v: want an existing, unplaced apple at 5 °C", a)
	}
	if b := h.Objects["bow.n.08_1"]; !b.Has(predicates.FieldAttachedTo) || b.AttachedTo != "" {
		t.Errorf("bow %+v: want attached to nothing", b)
	}
}

// TestRoomChoice: of an object's several rooms, the one :init names.
func TestRoomChoice(t *testing.T) {
	c := &Converter{roomTypes: map[string][]string{"table.n.02_1": {"kitchen"}, "tree.n.01_": {"garden"}}}
	for _, tc := range []struct {
		inst  string
		rooms []string
		want  string
	}{
		{"table.n.02_1", []string{"living_room_0", "kitchen_0"}, "kitchen_0"},
		{"table.n.02_1", []string{"living_room_0", "bedroom_1"}, "living_room_0"},
		{"tree.n.01_7", []string{"corridor_0", "garden_0"}, "garden_0"},
		{"chair.n.01_1", []string{"corridor_0", "garden_0"}, "corridor_0"},
	} {
		if got := c.room(tc.inst, tc.rooms); got != tc.want {
			t.Errorf("room(%s, %v) = %s, want %s", tc.inst, tc.rooms, got, tc.want)
		}
	}
}

// TestBoxErrors: a box placed by the dataset's offset carries no error
// (today's thresholds decide on it); an estimated one carries the error of
// its evidence, and it travels in the episode as box_error.
func TestBoxErrors(t *testing.T) {
	ds := fixtureDataset(t)
	c, _ := tinyConverter(t, Options{Dataset: ds, Offsets: OffsetsSupport})
	h, _, err := c.ConvertTemplate()
	if err != nil {
		t.Fatal(err)
	}
	for k, o := range h.Objects {
		if o.Has(predicates.FieldOBB) && o.Has(predicates.FieldBoxError) && k != "agent.n.01_1" {
			t.Errorf("%s: exact box with an error %v", k, o.BoxError)
		}
	}
	ds = fixtureDataset(t)
	forgetOffsets(t, ds)
	c, _ = tinyConverter(t, Options{Dataset: ds, Offsets: OffsetsSupport})
	h, _, err = c.ConvertTemplate()
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, err := episode.NewWriter(&buf, h)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.WriteStep(&episode.Step{}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"table.n.02_1", "apple.n.01_1", "floor.n.01_1"} {
		o := h.Objects[k]
		if !o.Has(predicates.FieldBoxError) || !(o.BoxError[1] >= errFloor && o.BoxError[1] < 0.05) || o.BoxError[0] < errFloor {
			t.Errorf("%s: box error %v (set %v), want at least %v and below 5 cm", k, o.BoxError, o.Has(predicates.FieldBoxError), errFloor)
		}
	}
	if !strings.Contains(buf.String(), `"box_error":[`) {
		t.Errorf("the episode does not carry box_error:\n%s", buf.String())
	}
}

// TestRestEvidence: per instance, a bound object floating a little above
// the box under its centre is put down onto it; floating far, its error
// grows to the gap; a flat object in a level thin box is put on its top.
func TestRestEvidence(t *testing.T) {
	mk := func(name, key string, center, size [3]float64) sceneItem {
		o := &SceneObject{Name: name, Scale: [3]float64{1, 1, 1}}
		b := NewBox(vec(center), r3.Scale(0.5, vec(size)), [4]float64{0, 0, 0, 1})
		return sceneItem{obj: o, box: b, hasBox: true, instKey: key, errV: singleVote, errH: errFloor}
	}
	table := func() sceneItem { return mk("table", "", [3]float64{0, 0, 0.4}, [3]float64{1, 1, 0.8}) }
	fixed := func(it sceneItem) sceneItem { it.obj.FixedBase = true; return it }
	rooted := func(it sceneItem, z float64) sceneItem { it.state.Pos = [3]float64{0, 0, z}; return it }
	for _, tc := range []struct {
		name       string
		obj        sceneItem
		extra      []sceneItem
		wantBottom float64
		wantErrV   float64
	}{
		{"snapped", mk("cup", "cup.n.01_1", [3]float64{0, 0, 0.865}, [3]float64{0.1, 0.1, 0.1}), nil, 0.8, errFloor},
		{"floating far", mk("cup", "cup.n.01_1", [3]float64{0, 0, 0.95}, [3]float64{0.1, 0.1, 0.1}), nil, 0.9, 0.1},
		{"sinking", mk("cup", "cup.n.01_1", [3]float64{0, 0, 0.84}, [3]float64{0.1, 0.1, 0.1}), nil, 0.79, singleVote},
		{"thin support", rooted(mk("dough", "dough.n.01_1", [3]float64{0, 0, 0.81}, [3]float64{0.25, 0.25, 0.01}), 0.81),
			[]sceneItem{rooted(mk("sheet", "", [3]float64{0, 0, 0.815}, [3]float64{0.27, 0.3, 0.03}), 0.80)}, 0.83, singleVote},
		// A roof's box, taller than a storey, holds the table as well:
		// it is not what holds the cup.
		{"floating far under a roof", mk("cup", "cup.n.01_1", [3]float64{0, 0, 0.95}, [3]float64{0.1, 0.1, 0.1}),
			[]sceneItem{mk("roof", "", [3]float64{0, 0, 3}, [3]float64{10, 10, 6})}, 0.9, 0.1},
		// A shelf's box around it does hold it.
		{"floating far in a shelf", mk("cup", "cup.n.01_1", [3]float64{0, 0, 0.95}, [3]float64{0.1, 0.1, 0.1}),
			[]sceneItem{mk("shelf", "", [3]float64{0, 0, 1.5}, [3]float64{1, 1, 1.8})}, 0.9, singleVote},
		// Its centre just past the table's edge, its bottom at the
		// table's top: it rests on the table (whose footprint is
		// extended under it later), not floating over the floor.
		{"beside a support's edge", mk("cup", "cup.n.01_1", [3]float64{0.55, 0, 0.85}, [3]float64{0.1, 0.1, 0.1}), nil, 0.8, singleVote},
		// Sunk 5 mm into a solid fixture (a countertop): put back on it.
		{"sunk into a fixture", mk("cup", "cup.n.01_1", [3]float64{0, 0, 0.865}, [3]float64{0.1, 0.1, 0.1}),
			[]sceneItem{fixed(mk("counter", "", [3]float64{0, 0, 0.41}, [3]float64{1.2, 1.2, 0.82}))}, 0.82, errFloor},
		// A plate level with a pie's box bottom, its root link below the
		// pie's: the pie lies on the plate, the plate is not put on the pie.
		{"thin support above its root", rooted(mk("plate", "plate.n.04_1", [3]float64{0, 0, 0.804}, [3]float64{0.25, 0.25, 0.008}), 0.80),
			[]sceneItem{rooted(mk("pie", "pie.n.01_1", [3]float64{0, 0, 0.8205}, [3]float64{0.24, 0.24, 0.04}), 0.81)}, 0.8, singleVote},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items := append([]sceneItem{table(), tc.obj}, tc.extra...)
			rest(items, 0, true)
			lo, _ := items[1].box.Enclosing()
			if math.Abs(lo.Z-tc.wantBottom) > 1e-9 || math.Abs(items[1].errV-tc.wantErrV) > 1e-9 {
				t.Errorf("bottom %.4f error %.4f, want %.4f and %.4f", lo.Z, items[1].errV, tc.wantBottom, tc.wantErrV)
			}
		})
	}
}

// TestUnboundInitObject: a definition whose :init places an object the
// template binds to nothing (the template was sampled from another
// version of it) makes every state of the task an error naming the
// object and the literal, not a false literal; a declared object only
// in the goal or under future stays unbound quietly.
func TestUnboundInitObject(t *testing.T) {
	tmpl, task := tinyTemplate(t)
	src, err := os.ReadFile(task.Definition)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, init string
		wantErr    bool
	}{
		{"in :init", "(ontop soup_ladle.n.01_1 table.n.02_1)", true},
		{"future", "(future soup_ladle.n.01_1)", false},
		{"goal only", "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			def := strings.Replace(string(src), "agent.n.01_1 - agent.n.01", "agent.n.01_1 - agent.n.01\n        soup_ladle.n.01_1 - soup_ladle.n.01", 1)
			def = strings.Replace(def, "(:init", "(:init\n        "+c.init, 1)
			path := filepath.Join(t.TempDir(), "problem0.bddl")
			p, diags := bddl.ParseProblem(path, []byte(def))
			if diags.HasErrors() {
				t.Fatal(diags)
			}
			conv, err := NewConverter(tmpl, p, path, nil, Options{Offsets: OffsetsNone})
			if err != nil {
				t.Fatal(err)
			}
			_, _, err = conv.ConvertTemplate()
			if !c.wantErr {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), "binds no object for soup_ladle.n.01_1") ||
				!strings.Contains(err.Error(), "(ontop soup_ladle.n.01_1 table.n.02_1)") || !errors.Is(err, ErrOtherDefinition) {
				t.Fatalf("error %v, want one naming the unbound object, its literal and the cause", err)
			}
		})
	}
}

// TestPoolKeepsOwnVotes: converters sharing a Pool keep their template's
// own estimate where it has votes (the table stands on this scene's
// floor), and one added after the pool's estimate ran gets its own.
func TestPoolKeepsOwnVotes(t *testing.T) {
	ds := fixtureDataset(t)
	forgetOffsets(t, ds)
	solo, _ := tinyConverter(t, Options{Dataset: ds, Offsets: OffsetsSupport})
	want, _, err := solo.ConvertTemplate()
	if err != nil {
		t.Fatal(err)
	}
	pool := NewPool()
	a, _ := tinyConverter(t, Options{Dataset: ds, Offsets: OffsetsSupport, Pool: pool})
	b, _ := tinyConverter(t, Options{Dataset: ds, Offsets: OffsetsSupport, Pool: pool})
	for i, c := range []*Converter{a, b} {
		got, _, err := c.ConvertTemplate()
		if err != nil {
			t.Fatal(err)
		}
		if g, w := got.Objects["table.n.02_1"].OBB, want.Objects["table.n.02_1"].OBB; g != w {
			t.Errorf("converter %d: table %v, want the template's own %v", i, g, w)
		}
	}
	late, _ := tinyConverter(t, Options{Dataset: ds, Offsets: OffsetsSupport, Pool: pool})
	got, _, err := late.ConvertTemplate()
	if err != nil {
		t.Fatal(err)
	}
	if g, w := got.Objects["table.n.02_1"].OBB, want.Objects["table.n.02_1"].OBB; g != w {
		t.Errorf("late converter: table %v, want %v", g, w)
	}
}

// TestRestTiltedSupport: a cup at rest on a desk tilted by about a
// degree is put down onto the desk's top face under it, which lies below
// the top of the desk's enclosure.
func TestRestTiltedSupport(t *testing.T) {
	const sin = 0.02
	th := math.Asin(sin)
	tilt := [4]float64{math.Sin(th / 2), 0, 0, math.Cos(th / 2)} // about x: +y is the high side
	desk := sceneItem{obj: &SceneObject{Name: "desk", Scale: [3]float64{1, 1, 1}, FixedBase: true}, hasBox: true,
		box: NewBox(r3.Vec{Z: 0.4}, r3.Vec{X: 0.5, Y: 0.5, Z: 0.4}, tilt), errV: singleVote, errH: errFloor}
	_, deskTop := desk.box.Enclosing()
	// The cup (0.1 m cube at y = 0.3) with its bottom on the enclosure's top.
	cup := sceneItem{obj: &SceneObject{Name: "cup", Scale: [3]float64{1, 1, 1}}, hasBox: true, instKey: "cup.n.01_1",
		box: NewBox(r3.Vec{Y: 0.3, Z: deskTop.Z + 0.05}, r3.Vec{X: 0.05, Y: 0.05, Z: 0.05}, upright), errV: singleVote, errH: errFloor}
	items := []sceneItem{desk, cup}
	rest(items, 0, true)
	// The face under the cup's high edge (y = 0.35), analytically.
	p0y, p0z := -0.4*sin, 0.4+0.4*math.Cos(th)
	want := p0z + math.Tan(th)*(0.35-p0y)
	lo, _ := items[1].box.Enclosing()
	if deskTop.Z-want < 0.002 {
		t.Fatalf("the case does not tell face and enclosure apart: %.4f vs %.4f", want, deskTop.Z)
	}
	if math.Abs(lo.Z-want) > 1e-9 || items[1].errV != errFloor {
		t.Errorf("cup bottom %.5f error %.4f, want the face %.5f and %.4f (enclosure top %.5f)", lo.Z, items[1].errV, want, errFloor, deskTop.Z)
	}
}

// TestRestSunkBelowRoot: an object whose root link lies above a solid
// fixture's top while its box's centre lies below it (its inventory box
// taller than its mesh, lying upside down) may lie anywhere around its
// root: its errors grow to that; a container's box, a root inside the
// fixture or a support that is not fixed leave them alone.
func TestRestSunkBelowRoot(t *testing.T) {
	for _, tc := range []struct {
		name      string
		container bool
		fixed     bool
		rootZ     float64
		grows     bool
	}{
		{"fixture, root above its top", false, true, 0.83, true},
		{"container", true, true, 0.83, false},
		{"root below the top", false, true, 0.79, false},
		{"support not fixed", false, false, 0.83, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			counter := sceneItem{obj: &SceneObject{Name: "counter", Scale: [3]float64{1, 1, 1}, FixedBase: tc.fixed}, hasBox: true,
				container: tc.container, box: NewBox(r3.Vec{Z: 0.4}, r3.Vec{X: 0.5, Y: 0.5, Z: 0.4}, upright), errV: singleVote, errH: errFloor}
			dough := sceneItem{obj: &SceneObject{Name: "dough", Scale: [3]float64{1, 1, 1}}, hasBox: true, instKey: "dough.n.01_1",
				box: NewBox(r3.Vec{Z: 0.78}, r3.Vec{X: 0.15, Y: 0.15, Z: 0.05}, upright), errV: singleVote, errH: errFloor}
			dough.state.Pos = [3]float64{0.01, 0, tc.rootZ}
			items := []sceneItem{counter, dough}
			rest(items, 0, true)
			got := items[1]
			wantV, wantH := singleVote, errFloor
			if tc.grows {
				wantV, wantH = math.Abs(0.78-tc.rootZ)+0.05, 0.01+0.15
			}
			if math.Abs(got.errV-wantV) > 1e-9 || math.Abs(got.errH-wantH) > 1e-9 {
				t.Errorf("errors (%.4f, %.4f), want (%.4f, %.4f)", got.errH, got.errV, wantH, wantV)
			}
		})
	}
}

// TestRestBesideBox: a brush floating far above the floor, its centre 8 mm
// past the edge of a desk whose box spans its bottom's height (it lies on
// a shelf board inside the desk), gets the gap as vertical error and the
// distance to the desk's box as horizontal error; far from any box, only
// the vertical error grows.
func TestRestBesideBox(t *testing.T) {
	for _, tc := range []struct {
		name  string
		x     float64
		wantH float64
	}{
		{"beside the desk", 0.508, 0.008 + errFloor},
		{"far from it", 0.7, errFloor},
	} {
		t.Run(tc.name, func(t *testing.T) {
			desk := sceneItem{obj: &SceneObject{Name: "desk", Scale: [3]float64{1, 1, 1}, FixedBase: true}, hasBox: true,
				box: NewBox(r3.Vec{Z: 0.4}, r3.Vec{X: 0.5, Y: 0.5, Z: 0.4}, upright), errV: singleVote, errH: errFloor}
			brush := sceneItem{obj: &SceneObject{Name: "brush", Scale: [3]float64{1, 1, 1}}, hasBox: true, instKey: "brush.n.01_1",
				box: NewBox(r3.Vec{X: tc.x, Z: 0.75}, r3.Vec{X: 0.06, Y: 0.02, Z: 0.01}, upright), errV: singleVote, errH: errFloor}
			items := []sceneItem{desk, brush}
			rest(items, 0, true)
			if got := items[1]; math.Abs(got.errV-0.74) > 1e-9 || math.Abs(got.errH-tc.wantH) > 1e-9 {
				t.Errorf("errors (%.4f, %.4f), want (%.4f, 0.74)", got.errH, got.errV, tc.wantH)
			}
		})
	}
}
