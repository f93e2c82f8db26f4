package sampler

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

const listsGood = `{
 "task_a": {"room_types": ["kitchen"],
  "scene_1": {"whitelist": {"bowl.n.01": {"bowl": {"m1": null, "m2": 1.5, "m3": [0.2, 0.3, 0.1]}}},
              "blacklist": {"cup.n.01": {"cup": {"c1": null}}}},
  "scene_2": {"whitelist": {"bowl.n.01": {"mixing_bowl": {"m4": 2}}}, "blacklist": null}},
 "task_b": {"room_types": [], "scene_1": {"whitelist": null, "blacklist": {}}}
}`

// TestParseLists: the loader reads the reference's layout, tells a
// scale from a bounding box from null, pools a task's scenes for a scene
// it does not name, and refuses every other shape naming file and key.
func TestParseLists(t *testing.T) {
	l, err := ParseLists("good.json", []byte(listsGood))
	if err != nil {
		t.Fatal(err)
	}
	if l.Tasks() != 2 {
		t.Fatalf("%d tasks, want 2", l.Tasks())
	}
	own := l.forTask("task_a", "scene_1").of("bowl.n.01")
	for _, c := range []struct {
		model string
		want  listSize
		ok    bool
	}{
		{"bowl-m1", listSize{}, true},
		{"bowl-m2", listSize{kind: sizeScale, v: [3]float64{1.5, 1.5, 1.5}}, true},
		{"bowl-m3", listSize{kind: sizeBox, v: [3]float64{0.2, 0.3, 0.1}}, true},
		{"mixing_bowl-m4", listSize{}, false},
	} {
		z, ok := own.white[c.model]
		if ok != c.ok || z != c.want {
			t.Errorf("scene_1 %s: %v %v, want %v %v", c.model, z, ok, c.want, c.ok)
		}
		if own.allows(c.model) != c.ok {
			t.Errorf("scene_1 allows %s = %v", c.model, !c.ok)
		}
	}
	if cup := l.forTask("task_a", "scene_1").of("cup.n.01"); cup.narrows() || cup.allows("cup-c1") || !cup.allows("cup-c2") {
		t.Errorf("blacklist: narrows %v, allows c1 %v, c2 %v", cup.narrows(), cup.allows("cup-c1"), cup.allows("cup-c2"))
	}
	pool := l.forTask("task_a", "elsewhere").of("bowl.n.01")
	for _, m := range []string{"bowl-m1", "bowl-m3", "mixing_bowl-m4"} {
		if !pool.allows(m) {
			t.Errorf("the pool of task_a's scenes refuses %s", m)
		}
	}
	if pool.allows("bowl-other") {
		t.Error("the pool allows a model no scene lists")
	}
	if z, ok := l.forTask("task_a", "elsewhere").size("mixing_bowl-m4"); !ok || z.kind != sizeScale {
		t.Errorf("pooled size of mixing_bowl-m4: %v %v", z, ok)
	}
	if l.forTask("task_c", "scene_1") != nil {
		t.Error("a task the file does not name has lists")
	}
	if s := l.forTask("task_b", "scene_1").of("bowl.n.01"); s != nil || !s.allows("bowl-m1") || s.narrows() {
		t.Error("a null whitelist narrows")
	}
	var nilLists *Lists
	if nilLists.forTask("task_a", "scene_1") != nil {
		t.Error("nil lists list something")
	}

	for _, tc := range []struct {
		name, src, key string
	}{
		{"not an object", `[1]`, ""},
		{"null", `null`, ""},
		{"not JSON", `{"a":`, ""},
		{"task not an object", `{"t": 3}`, `"t"`},
		{"room_types not a list", `{"t": {"room_types": "kitchen"}}`, `"t".room_types`},
		{"room_types null", `{"t": {"room_types": null}}`, `"t".room_types`},
		{"scene not an object", `{"t": {"s": []}}`, `"t"."s"`},
		{"unknown key", `{"t": {"s": {"whitelist": null, "blacklist": null, "whitelst": {}}}}`, `"t"."s"."whitelst"`},
		{"missing whitelist", `{"t": {"s": {"blacklist": null}}}`, `"t"."s".whitelist`},
		{"missing blacklist", `{"t": {"s": {"whitelist": null}}}`, `"t"."s".blacklist`},
		{"whitelist a string", `{"t": {"s": {"whitelist": "x", "blacklist": null}}}`, `"t"."s".whitelist`},
		{"synset not an object", `{"t": {"s": {"whitelist": {"a.n.01": [1]}, "blacklist": null}}}`, `"t"."s".whitelist."a.n.01"`},
		{"category not an object", `{"t": {"s": {"whitelist": {"a.n.01": {"c": 1}}, "blacklist": null}}}`, `"t"."s".whitelist."a.n.01"."c"`},
		{"size a string", `{"t": {"s": {"whitelist": {"a.n.01": {"c": {"m": "big"}}}, "blacklist": null}}}`, `"t"."s".whitelist."a.n.01"."c"."m"`},
		{"box of two", `{"t": {"s": {"whitelist": null, "blacklist": {"a.n.01": {"c": {"m": [1, 2]}}}}}}`, `"t"."s".blacklist."a.n.01"."c"."m"`},
		{"negative scale", `{"t": {"s": {"whitelist": {"a.n.01": {"c": {"m": -1}}}, "blacklist": null}}}`, `"t"."s".whitelist."a.n.01"."c"."m"`},
		{"zero in a box", `{"t": {"s": {"whitelist": {"a.n.01": {"c": {"m": [0.1, 0, 0.1]}}}, "blacklist": null}}}`, `"t"."s".whitelist."a.n.01"."c"."m"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseLists("bad.json", []byte(tc.src))
			var le *ListsError
			if !errors.As(err, &le) {
				t.Fatalf("error %v, want a *ListsError", err)
			}
			if le.File != "bad.json" || le.Key != tc.key || !strings.HasPrefix(err.Error(), "bad.json: "+tc.key) {
				t.Fatalf("error %q: file %q key %q, want key %q", err, le.File, le.Key, tc.key)
			}
		})
	}
}

// TestReadLists: a file is read whole; a directory is refused.
func TestReadLists(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lists.json")
	if err := os.WriteFile(path, []byte(listsGood), 0o644); err != nil {
		t.Fatal(err)
	}
	if l, err := ReadLists(path); err != nil || l.Tasks() != 2 {
		t.Fatalf("ReadLists: %v", err)
	}
	if _, err := ReadLists(dir); err == nil {
		t.Fatal("ReadLists read a directory")
	}
}

// TestDefaultLists: the embedded table is the reference's file (77
// tasks at the recorded commit) and encodes back to itself.
func TestDefaultLists(t *testing.T) {
	l := DefaultLists()
	if l.Tasks() != 77 {
		t.Fatalf("%d tasks embedded, want the reference's 77", l.Tasks())
	}
	if string(l.Encode()) != defaultListsJSON {
		t.Fatal("the embedded table is not in the generator's canonical form: run go generate ./sampler")
	}
}

// listModels finds a synset of the default knowledge base with at least
// two small models with a size, and those models.
func listModels(t *testing.T, base *kb.Base) (syn string, models []kb.Model) {
	t.Helper()
	for id := kb.SynsetID(0); int(id) < base.NumSynsets(); id++ {
		if slices.Contains(base.CategoriesOf(id), "countertop") || strings.Contains(base.Name(id), "agent") || base.Has(id, kb.Cloth) {
			continue
		}
		var ms []kb.Model
		for _, c := range base.CategoriesOf(id) {
			for _, m := range base.Models(c) {
				if m.HasSize && m.Size[0] > 0 && m.Size[1] > 0 && m.Size[2] > 0 && max(m.Size[0], m.Size[1], m.Size[2]) < 0.4 {
					ms = append(ms, m)
				}
			}
		}
		if len(ms) >= 2 {
			return base.Name(id), ms
		}
	}
	t.Fatal("no synset with two small models in the default knowledge base")
	return "", nil
}

func listEntry(m kb.Model, size string) string {
	cat, model, _ := strings.Cut(m.Name, "-")
	return `{"` + cat + `": {"` + model + `": ` + size + `}}`
}

// TestListsApply: for the task it names, in the scene it names (and, pooled,
// in others), a whitelist narrows the models, a blacklist removes some, a
// bounding box scales the model to it per axis (recorded as
// meta.sampler.model_scales is), a scale scales it; a task the lists do
// not name samples as without lists.
func TestListsApply(t *testing.T) {
	base := kb.Default()
	syn, models := listModels(t, base)
	a, b := models[0], models[len(models)-1]
	box := [3]float64{0.3, 0.25, 0.12}
	var black []string
	for _, m := range models[1:] {
		cat, model, _ := strings.Cut(m.Name, "-")
		black = append(black, `"`+cat+`": {"`+model+`": null}`)
	}
	p := problem(t, "thing_1 - "+syn, "(ontop thing_1 countertop.n.01_1)")
	for _, tc := range []struct {
		name, lists, task, scene string
		model                    string     // the model drawn, "" any
		scale                    [3]float64 // zero: none
	}{
		{"whitelist with a box", `{"t": {"k": {"whitelist": {"` + syn + `": ` + listEntry(b, "[0.3, 0.25, 0.12]") + `}, "blacklist": {}}}}`, "t", "k", b.Name,
			[3]float64{box[0] / b.Size[0], box[1] / b.Size[1], box[2] / b.Size[2]}},
		{"whitelist with a scale", `{"t": {"k": {"whitelist": {"` + syn + `": ` + listEntry(a, "1.5") + `}, "blacklist": null}}}`, "t", "k", a.Name, [3]float64{1.5, 1.5, 1.5}},
		{"whitelist, null size", `{"t": {"k": {"whitelist": {"` + syn + `": ` + listEntry(a, "null") + `}, "blacklist": null}}}`, "t", "k", a.Name, [3]float64{}},
		{"pooled in an unnamed scene", `{"t": {"elsewhere": {"whitelist": {"` + syn + `": ` + listEntry(b, "null") + `}, "blacklist": null}}}`, "t", "k", b.Name, [3]float64{}},
		{"blacklist", `{"t": {"k": {"whitelist": null, "blacklist": {"` + syn + `": {` + strings.Join(mergeCats(black), ", ") + `}}}}}`, "t", "k", a.Name, [3]float64{}},
		{"a listed model the knowledge base lacks", `{"t": {"k": {"whitelist": {"` + syn + `": {"nosuchcategory": {"nosuchmodel": null}}}, "blacklist": null}}}`, "t", "k", "", [3]float64{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := ParseLists("test.json", []byte(tc.lists))
			if err != nil {
				t.Fatal(err)
			}
			s := New(base, predicates.Options{})
			s.SetLists(l)
			s.AddScene(scaledKitchen(base, "k", [3]float64{}))
			for seed := uint64(0); seed < 8; seed++ {
				res, err := s.Sample(Request{Activity: tc.task, Problem: p, Scenes: []string{tc.scene}, Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				bowl := objectNamed(res, "thing_1")
				if tc.model != "" && bowl.Model != tc.model {
					t.Fatalf("seed %d: drew %s, want %s", seed, bowl.Model, tc.model)
				}
				if tc.scale != ([3]float64{}) {
					for k := range 3 {
						if math.Abs(bowl.ModelScale[k]-tc.scale[k]) > 1e-9 {
							t.Fatalf("seed %d: model scale %v, want %v", seed, bowl.ModelScale, tc.scale)
						}
					}
				} else if bowl.ModelScale != ([3]float64{1, 1, 1}) {
					t.Fatalf("seed %d: model scale %v, want none (1, 1, 1)", seed, bowl.ModelScale)
				}
				if tc.name == "whitelist with a box" {
					e := bowl.Box.Extent()
					h := e[2] / bowl.Scale
					if math.Abs(h-box[2]) > 1e-6 {
						t.Fatalf("seed %d: %.3f m tall, want the box's %.3f", seed, h, box[2])
					}
				}
				if v := res.Program.EvalInit(readBack(t, res, "")); v != predicates.True {
					t.Fatalf(":init is %s", v)
				}
			}
		})
	}

	// A task the lists do not name samples byte-identically with and
	// without them.
	l, _ := ParseLists("test.json", []byte(`{"t": {"k": {"whitelist": {"`+syn+`": `+listEntry(b, "2")+`}, "blacklist": null}}}`))
	with, without := New(base, predicates.Options{}), New(base, predicates.Options{})
	with.SetLists(l)
	without.SetLists(nil)
	for _, s := range []*Sampler{with, without} {
		s.AddScene(scaledKitchen(base, "k", [3]float64{}))
	}
	for seed := uint64(0); seed < 8; seed++ {
		r1, err1 := with.Sample(Request{Activity: "other", Problem: p, Scenes: []string{"k"}, Seed: seed})
		r2, err2 := without.Sample(Request{Activity: "other", Problem: p, Scenes: []string{"k"}, Seed: seed})
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !reflect.DeepEqual(objectNamed(r1, "thing_1"), objectNamed(r2, "thing_1")) {
			t.Fatalf("seed %d: an unlisted task's bowl differs with the lists", seed)
		}
		if r1.SamplingLists != "" {
			t.Fatalf("an unlisted task records lists %q", r1.SamplingLists)
		}
		r3, err := with.Sample(Request{Activity: "t", Problem: p, Scenes: []string{"k"}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		if r3.SamplingLists != l.Digest() || !strings.HasPrefix(l.Digest(), "sha256:") {
			t.Fatalf("a listed task records lists %q, want %q", r3.SamplingLists, l.Digest())
		}
	}
}

// mergeCats joins "cat": {...} entries of one category into one.
func mergeCats(entries []string) []string {
	byCat := map[string][]string{}
	var order []string
	for _, e := range entries {
		cat, rest, _ := strings.Cut(e, ": {")
		if _, ok := byCat[cat]; !ok {
			order = append(order, cat)
		}
		byCat[cat] = append(byCat[cat], strings.TrimSuffix(rest, "}"))
	}
	var out []string
	for _, c := range order {
		out = append(out, c+": {"+strings.Join(byCat[c], ", ")+"}")
	}
	return out
}

func objectNamed(res *Result, name string) Object {
	for _, o := range res.Objects {
		if o.Name == name {
			o.st = objectStates{}
			return o
		}
	}
	return Object{}
}

// TestListsMatchSceneFiles compares the embedded lists with what the
// reference recorded: in each OmniGibson task's own scene file, every
// model bound to a task instance of a synset the task's whitelist names
// is one it lists, and a model it gives a scale or bounding box is loaded
// at the scale the file records (bounding box / inventory box per axis).
func TestListsMatchSceneFiles(t *testing.T) {
	base, err := kb.Load(corpus.KBDir(t))
	if err != nil {
		t.Fatal(err)
	}
	checked, otherBox := 0, 0
	for _, task := range ogTasks(t) {
		sc, err := ReadTemplate(base, task.template)
		if err != nil {
			t.Fatal(err)
		}
		sl := DefaultLists().forTask(task.name, sc.Name)
		if sl == nil {
			continue
		}
		tm, err := omnigibson.ReadTemplate(task.template)
		if err != nil {
			t.Fatal(err)
		}
		synOf := map[string]string{}
		for _, d := range task.problem.Objects {
			for _, in := range d.Instances {
				synOf[in.Key()] = d.Type.Key()
			}
		}
		for _, bd := range tm.Bindings {
			o, ok := tm.Object(bd.Name)
			syn := sl.of(synOf[strings.ToLower(bd.Instance)])
			if !ok || !syn.narrows() {
				continue
			}
			name := o.Category + "-" + o.Model
			if !syn.allows(name) {
				t.Errorf("%s: %s is bound to %s, which the whitelist does not list", task.name, bd.Instance, name)
				continue
			}
			z, ok := syn.white[name]
			m, found := base.ModelByName(name)
			if !ok || z.kind == 0 || !found || !m.HasSize {
				continue
			}
			got, _ := z.modelScaleFor(m.Size)
			// The reference divides the bounding box by the asset's
			// native box, which for a few models is not the inventory's
			// (a pizza dough's flat 5 mm mesh against its 9.5 cm
			// inventory box): the loaded box is the list's all the same,
			// and so is ours, but the scales differ. Those are counted.
			if z.kind == sizeBox && !sameBox(z.v, m.Size, o.Scale) {
				t.Logf("%s: %s (%s): the inventory box %v is not the asset's (list box %v, recorded scale %v)", task.name, bd.Instance, name, m.Size, z.v, o.Scale)
				otherBox++
				continue
			}
			for k := range 3 {
				if math.Abs(got[k]-o.Scale[k]) > 1e-4*o.Scale[k] {
					t.Errorf("%s: %s (%s) at scale %v, the scene file records %v", task.name, bd.Instance, name, got, o.Scale)
					break
				}
			}
			checked++
		}
	}
	t.Logf("%d rescaled task objects checked against their scene files; %d of models whose inventory box is not the asset's", checked, otherBox)
	if checked == 0 || otherBox > checked/10 {
		t.Errorf("%d rescaled objects checked, %d with another box", checked, otherBox)
	}
}

// sameBox reports whether an inventory box times a recorded scale is the
// list's bounding box (within 1 %) on every axis.
func sameBox(box, inv, scale [3]float64) bool {
	for k := range 3 {
		if math.Abs(inv[k]*scale[k]-box[k]) > 0.01*box[k] {
			return false
		}
	}
	return true
}

// FuzzParseLists: the loader never panics, and what it accepts encodes
// to a form it reads back to the same encoding.
func FuzzParseLists(f *testing.F) {
	f.Add([]byte(listsGood))
	f.Add([]byte(`{"t": {"s": {"whitelist": {"a.n.01": {"c": {"m": [1, 2, 3]}}}, "blacklist": null}}}`))
	f.Add([]byte(`{"t": {"room_types": ["x"], "s": {"whitelist": {"a.n.01": {"c": {"m": 1e308}}}, "blacklist": {}}}}`))
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := ParseLists("fuzz.json", data)
		if err != nil {
			return
		}
		enc := l.Encode()
		l2, err := ParseLists("fuzz.json", enc)
		if err != nil {
			t.Fatalf("the encoding of accepted lists does not parse: %v\n%s", err, enc)
		}
		if string(l2.Encode()) != string(enc) {
			t.Fatalf("encoding is not stable:\n%s\n%s", enc, l2.Encode())
		}
		_ = l.forTask("t", "s").of("a.n.01").allows("c-m")
	})
}

// TestListsNarrowSceneFileModels: the models the scene files bind are
// pooled over tasks; a task whose lists narrow the synset draws only the
// bound models they keep, another task any bound model.
func TestListsNarrowSceneFileModels(t *testing.T) {
	base := kb.Default()
	syn, models := listModels(t, base)
	a, b := models[0], models[1]
	l, err := ParseLists("test.json", []byte(`{"t": {"k": {"whitelist": {"`+syn+`": `+listEntry(b, "null")+`}, "blacklist": null}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s := New(base, predicates.Options{})
	s.SetLists(l)
	rec := scaledKitchen(base, "k", [3]float64{})
	rec.TaskModels = map[string][]string{syn: {a.Name, b.Name}}
	s.AddScene(rec)
	p := problem(t, "thing_1 - "+syn, "(ontop thing_1 countertop.n.01_1)")
	drawn := map[string]map[string]bool{"t": {}, "other": {}}
	for seed := uint64(0); seed < 16; seed++ {
		for task := range drawn {
			res, err := s.Sample(Request{Activity: task, Problem: p, Scenes: []string{"k"}, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			drawn[task][objectNamed(res, "thing_1").Model] = true
		}
	}
	if len(drawn["t"]) != 1 || !drawn["t"][b.Name] {
		t.Errorf("the listed task drew %v, want only %s", drawn["t"], b.Name)
	}
	if len(drawn["other"]) != 2 {
		t.Errorf("an unlisted task drew %v, want both bound models", drawn["other"])
	}
}

// TestListsInRoom: an in-room instance is bound to a scene object the
// task's whitelist keeps, in the room that has one, before the others
// (the reference keeps only those); a task the lists do not name binds
// either.
func TestListsInRoom(t *testing.T) {
	base := kb.Default()
	fl, _ := base.SynsetOfCategory("floors")
	ct, _ := base.SynsetOfCategory("countertop")
	kitchen := func(name, model string, x float64) *Room {
		return &Room{Name: name, Type: "kitchen", Floor: mkBox(x, 0, -0.05, x+5, 5, 0), Height: 2.7,
			Objects: []*SceneObject{
				{Name: "floors_" + name, Category: "floors", Model: "floors-tmlxvd", Synset: fl, Box: mkBox(x, 0, -0.05, x+5, 5, 0), Room: name, Kind: FloorPart},
				{Name: "countertop_" + name, Category: "countertop", Model: model, Synset: ct, Box: mkBox(x, 0, 0, x+3, 1.2, 0.92), Room: name},
			}}
	}
	sc := &Scene{Name: "two", Source: "test", Rooms: []*Room{kitchen("kitchen_0", "countertop-kzpbrq", 0), kitchen("kitchen_1", "countertop-listed", 10)}}
	l, err := ParseLists("test.json", []byte(`{"t": {"two": {"whitelist": {"countertop.n.01": {"countertop": {"listed": null}}}, "blacklist": null}}}`))
	if err != nil {
		t.Fatal(err)
	}
	s := New(base, predicates.Options{})
	s.SetLists(l)
	s.AddScene(sc)
	_, models := listModels(t, base)
	p := problem(t, "thing_1 - "+base.Name(mustSynsetOf(t, base, models[0])), "(ontop thing_1 countertop.n.01_1)")
	bound := map[string]map[string]bool{"t": {}, "other": {}}
	for seed := uint64(0); seed < 16; seed++ {
		for task := range bound {
			res, err := s.Sample(Request{Activity: task, Problem: p, Scenes: []string{"two"}, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			bound[task][objectNamed(res, "countertop.n.01_1").SceneObject] = true
		}
	}
	if len(bound["t"]) != 1 || !bound["t"]["countertop_kitchen_1"] {
		t.Errorf("the listed task bound the countertop to %v, want only countertop_kitchen_1", bound["t"])
	}
	if len(bound["other"]) != 2 {
		t.Errorf("an unlisted task bound the countertop to %v, want both", bound["other"])
	}
}

func mustSynsetOf(t *testing.T, base *kb.Base, m kb.Model) kb.SynsetID {
	t.Helper()
	id, ok := base.SynsetOfCategory(m.Category)
	if !ok {
		t.Fatalf("no synset of category %s", m.Category)
	}
	return id
}
