package kb

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestBehavior1KFacts(t *testing.T) {
	t.Parallel()
	b := behavior1K(t)
	apple := lookup(t, b, "apple.n.01")
	oven := lookup(t, b, "oven.n.01")
	water := lookup(t, b, "water.n.06")

	t.Run("apple", func(t *testing.T) {
		t.Parallel()
		if got, ok := b.CookTemperature(apple); !ok || got != 58 {
			t.Errorf("CookTemperature(apple.n.01) = %v, %v; want 58, true", got, ok)
		}
		if got := b.Thresholds(apple).Cook; got != 58 {
			t.Errorf("Thresholds(apple.n.01).Cook = %v, want 58", got)
		}
		half, ok := b.SlicedInto(apple)
		if !ok || b.Name(half) != "half__apple.n.01" {
			t.Errorf("SlicedInto(apple.n.01) = %q, %v; want half__apple.n.01, true", b.Name(half), ok)
		}
		if !b.Has(apple, Cookable) || !b.Has(apple, Sliceable) {
			t.Errorf("apple.n.01 lacks cookable or sliceable")
		}
	})
	t.Run("oven", func(t *testing.T) {
		t.Parallel()
		got, ok := b.HeatSource(oven)
		want := HeatSourceParams{Temperature: 250, HeatingRate: 0.1, DistanceThreshold: DefaultDistanceThreshold,
			RequiresToggledOn: true, RequiresClosed: true, RequiresInside: true}
		if !ok {
			t.Fatal("HeatSource(oven.n.01): not a heat source")
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("HeatSource(oven.n.01) mismatch (-want +got):\n%s", diff)
		}
	})
	t.Run("water", func(t *testing.T) {
		t.Parallel()
		for _, p := range []Property{Substance, PhysicalSubstance, Liquid} {
			if !b.Has(water, p) {
				t.Errorf("Has(water.n.06, %s) = false, want true", p)
			}
		}
		for _, p := range []Property{NonSubstance, RigidBody, VisualSubstance} {
			if b.Has(water, p) {
				t.Errorf("Has(water.n.06, %s) = true, want false", p)
			}
		}
		if got := b.ObjectType(water); got != "liquid" {
			t.Errorf("ObjectType(water.n.06) = %q, want liquid", got)
		}
	})
	t.Run("multiple hypernyms", func(t *testing.T) {
		t.Parallel()
		acetone := lookup(t, b, "acetone.n.01")
		got := b.Names(b.Parents(acetone))
		sort.Strings(got)
		if diff := cmp.Diff([]string{"ketone.n.01", "solvent.n.01"}, got); diff != "" {
			t.Errorf("Parents(acetone.n.01) mismatch (-want +got):\n%s", diff)
		}
		for _, p := range []string{"ketone.n.01", "solvent.n.01", "entity.n.01"} {
			if !b.IsA(acetone, lookup(t, b, p)) {
				t.Errorf("IsA(acetone.n.01, %s) = false", p)
			}
		}
	})
	t.Run("custom", func(t *testing.T) {
		t.Parallel()
		if !b.IsCustom(lookup(t, b, "half__apple.n.01")) || b.IsCustom(apple) {
			t.Errorf("IsCustom: half__apple.n.01 should be custom, apple.n.01 not")
		}
	})
}

// TestBehavior1KPropagation checks the BEHAVIOR-1K rule on every non-leaf
// synset: its properties are exactly those all of its leaf descendants
// share. It recomputes the intersection from LeafDescendants and Has
// rather than trusting the loader's own bitset code.
func TestBehavior1KPropagation(t *testing.T) {
	t.Parallel()
	b := behavior1K(t)
	all := b.AllProperties()
	nonLeaves := 0
	for i := 0; i < b.NumSynsets(); i++ {
		id := SynsetID(i)
		if b.IsLeaf(id) {
			continue
		}
		nonLeaves++
		leaves := b.LeafDescendants(id)
		if len(leaves) == 0 {
			t.Errorf("%s: non-leaf without leaf descendants", b.Name(id))
			continue
		}
		for _, p := range all {
			shared := true
			for _, l := range leaves {
				if !b.Has(l, p) {
					shared = false
					break
				}
			}
			if got := b.Has(id, p); got != shared {
				t.Errorf("Has(%s, %s) = %v, but all %d leaf descendants having it is %v",
					b.Name(id), b.PropertyName(p), got, len(leaves), shared)
			}
		}
	}
	if nonLeaves < 100 {
		t.Errorf("only %d non-leaf synsets: the hierarchy did not load", nonLeaves)
	}
}

// TestBehavior1KParamsMatchJSON decodes the params file with
// encoding/json and checks every property and numeric or synset parameter
// against what the fast loader recorded.
func TestBehavior1KParamsMatchJSON(t *testing.T) {
	t.Parallel()
	b := behavior1K(t)
	doc := readJSON(t, filepath.Join(knowledgeBaseDir(t), fileParams)).(map[string]any)
	checked := 0
	for name, v := range doc {
		id := lookup(t, b, name)
		for prop, params := range v.(map[string]any) {
			p, ok := b.PropertyByName(prop)
			if !ok || !b.Has(id, p) {
				t.Errorf("Has(%s, %s) = false, the params file says true", name, prop)
				continue
			}
			for param, val := range params.(map[string]any) {
				got, ok := b.Param(id, p, param)
				if !ok {
					t.Errorf("Param(%s, %s, %s) missing", name, prop, param)
					continue
				}
				switch val := val.(type) {
				case float64:
					if got.Number != val {
						t.Errorf("Param(%s, %s, %s) = %v, want %v", name, prop, param, got.Number, val)
					}
					checked++
				case string:
					if got.Text != val {
						t.Errorf("Param(%s, %s, %s) = %q, want %q", name, prop, param, got.Text, val)
					}
					checked++
				case map[string]any:
					if len(got.Substances) != len(val) {
						t.Errorf("Param(%s, %s, %s) has %d substances, want %d", name, prop, param, len(got.Substances), len(val))
					}
					checked++
				}
			}
		}
	}
	if checked < 1000 {
		t.Errorf("checked only %d parameters", checked)
	}
	// Every synset the params file leaves out has no properties.
	if len(doc) != b.NumSynsets() {
		t.Logf("%d synsets in the params file, %d loaded", len(doc), b.NumSynsets())
	}
}

var synsetNameInData = regexp.MustCompile(`^[a-z0-9_'\-]+(\.[a-z0-9_'\-]+)*\.n\.[0-9]+$`)

// TestBehavior1KRuleSynsetsResolve checks every synset named anywhere in
// every transition-map file, loaded or not, resolves, and that the loaded
// rules carry valid ids.
func TestBehavior1KRuleSynsetsResolve(t *testing.T) {
	t.Parallel()
	b := behavior1K(t)
	files, err := filepath.Glob(filepath.Join(knowledgeBaseDir(t), dirRules, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no rule files: %v", err)
	}
	for _, f := range files {
		names := map[string]bool{}
		var walk func(v any)
		add := func(s string) {
			for _, part := range strings.Split(s, ",") {
				if synsetNameInData.MatchString(part) {
					names[part] = true
				}
			}
		}
		walk = func(v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					add(k)
					walk(x)
				}
			case []any:
				for _, x := range v {
					walk(x)
				}
			case string:
				add(v)
			}
		}
		walk(readJSON(t, f))
		for n := range names {
			if _, ok := b.Lookup(n); !ok {
				t.Errorf("%s: synset %s does not resolve", filepath.Base(f), n)
			}
		}
	}
	kinds := map[RuleKind]int{}
	for _, r := range b.Rules() {
		kinds[r.Kind]++
		for _, group := range [][]SynsetCount{r.Inputs, r.Outputs, r.Containers, r.HeatSources, r.Machines, r.Solvents} {
			for _, c := range group {
				if b.Name(c.Synset) != c.Name {
					t.Errorf("rule %s: synset %q resolved to %q", r.Name, c.Name, b.Name(c.Synset))
				}
			}
		}
	}
	for _, k := range []RuleKind{RuleHeatCook, RuleToggleableMachine, RuleMixingStick, RuleSubstanceCooking,
		RuleSubstanceWaterCooking, RuleWasher, RuleSlicing, RuleDicing, RuleMelting} {
		if kinds[k] == 0 {
			t.Errorf("no %s rules loaded", k)
		}
	}
	// The derived slicing rules agree with slicing.json.
	apple := lookup(t, b, "apple.n.01")
	var names []string
	for _, r := range b.RulesConsuming(apple) {
		names = append(names, r.Kind.String()+":"+r.Name)
	}
	if !contains(names, "slicing:apple.n.01-slicing") {
		t.Errorf("RulesConsuming(apple.n.01) = %v, want the slicing rule", names)
	}
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

func TestBehavior1KScenes(t *testing.T) {
	t.Parallel()
	b := behavior1K(t)
	scenes := b.Scenes()
	if len(scenes) < 40 || len(scenes) > 70 {
		t.Errorf("len(Scenes()) = %d, want about 50", len(scenes))
	}
	if err := b.WorldErr(); err != nil {
		t.Errorf("WorldErr() = %v", err)
	}
	rooms, known := 0, 0
	for _, s := range scenes {
		if len(s.Rooms) == 0 {
			t.Errorf("scene %s has no rooms", s.Name)
		}
		for _, r := range s.Rooms {
			rooms++
			if b.IsRoomType(r.Type) {
				known++
			}
			if len(r.Objects) == 0 {
				t.Errorf("room %s of %s is empty", r.Name, s.Name)
			}
		}
	}
	if known*10 < rooms*9 {
		t.Errorf("only %d of %d room instances have an allowed room type", known, rooms)
	}
	if len(b.RoomTypes()) < 10 || !b.IsRoomType("kitchen") {
		t.Errorf("RoomTypes() = %v", b.RoomTypes())
	}

	apple := lookup(t, b, "apple.n.01")
	cats := b.CategoriesOf(apple)
	if !contains(cats, "apple") {
		t.Errorf("CategoriesOf(apple.n.01) = %v, want it to include apple", cats)
	}
	if id, ok := b.SynsetOfCategory("apple"); !ok || id != apple {
		t.Errorf("SynsetOfCategory(apple) = %s, %v", b.Name(id), ok)
	}
	models := b.ModelsOf(apple)
	if len(models) == 0 {
		t.Fatal("ModelsOf(apple.n.01) is empty")
	}
	for _, m := range models {
		if !m.HasSize || m.Size[0] <= 0 || m.Size[2] <= 0 {
			t.Errorf("model %s has no size: %+v", m.Name, m)
		}
	}
	// Some oven model can be switched on; some fridge model is a
	// container.
	for _, c := range []struct{ synset, link string }{{"oven.n.01", "togglebutton"}, {"electric_refrigerator.n.01", "fillable"}} {
		found := false
		for _, m := range b.ModelsOf(lookup(t, b, c.synset)) {
			found = found || m.HasMetaLink(c.link)
		}
		if !found {
			t.Errorf("no model of %s has a %s meta link", c.synset, c.link)
		}
	}
	if len(b.RoomsWith(lookup(t, b, "oven.n.01"))) == 0 {
		t.Error("RoomsWith(oven.n.01) is empty")
	}
	if ok, known := b.AttachmentCompatible(lookup(t, b, "light_bulb.n.01"), lookup(t, b, "table_lamp.n.01")); !ok || !known {
		t.Errorf("AttachmentCompatible(light_bulb, table_lamp) = %v, %v; want true, true", ok, known)
	}
}

// TestBehavior1KCheckGolden keeps the findings of Check on the corpus in a
// golden file, so that a change in the data or in the checks shows up in
// review. Run with -update to rewrite it.
func TestBehavior1KCheckGolden(t *testing.T) {
	t.Parallel()
	b := behavior1K(t)
	findings := b.Check()
	var buf bytes.Buffer
	counts := map[string]int{}
	for _, f := range findings {
		counts[f.Severity.String()+" "+f.Code]++
	}
	// The first line identifies the corpus the golden file was made from.
	corpus := fmt.Sprintf("# corpus: %d synsets, %d rules\n", b.NumSynsets(), len(b.Rules()))
	buf.WriteString(corpus)
	fmt.Fprintf(&buf, "# bddl kb check on the BEHAVIOR-1K corpus: %d findings\n", len(findings))
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&buf, "# %5d %s\n", counts[k], k)
	}
	for _, f := range findings {
		fmt.Fprintln(&buf, f)
	}
	golden := filepath.Join("testdata", "behavior1k_check.golden")
	if *update {
		if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.HasPrefix(want, []byte(corpus)) {
		t.Skipf("%s was made for another corpus (%s); run with -update to compare this one", golden, strings.TrimSpace(corpus))
	}
	if diff := cmp.Diff(string(want), buf.String()); diff != "" {
		t.Errorf("Check() findings differ from %s (-want +got):\n%s", golden, diff)
	}
	for _, f := range findings {
		if f.Severity == SeverityError {
			t.Errorf("unexpected error finding: %v", f)
		}
	}
}

// writeFiles creates a knowledge-base directory from file contents.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A tiny, self-made BEHAVIOR-1K layout: a root, a fruit with two leaves,
// an oven, and water.
var tinyB1K = map[string]string{
	fileHierarchy: `{"name": "entity.n.01", "children": [
  {"name": "fruit.n.01", "children": [
    {"name": "apple.n.01", "categories": ["apple"]},
    {"name": "half__apple.n.01"}]},
  {"name": "oven.n.01", "categories": ["oven"]},
  {"name": "water.n.06", "substances": ["water"]}]}`,
	fileSynsets: `synset,hypernyms,prune,is_custom,cookable,heatSource,objectType
apple.n.01,fruit.n.01,0,0,1,0,rigidBody
half__apple.n.01,fruit.n.01,0,1,1,0,rigidBody
oven.n.01,entity.n.01,0,0,0,1,rigidBody
water.n.06,entity.n.01,0,0,1,0,liquid
old.n.01,nothing.n.01,1,0,0,0,rigidBody
`,
	fileParams: `{
 "entity.n.01": {},
 "fruit.n.01": {"cookable": {}, "nonSubstance": {}, "rigidBody": {}},
 "apple.n.01": {"cookable": {"cook_temperature": 61.5}, "nonSubstance": {}, "rigidBody": {},
                "sliceable": {"sliceable_derivative_synset": "half__apple.n.01"}},
 "half__apple.n.01": {"cookable": {}, "nonSubstance": {}, "rigidBody": {}},
 "oven.n.01": {"heatSource": {"temperature": 240.0, "requires_toggled_on": 1.0}, "nonSubstance": {}, "rigidBody": {}, "sceneObject": {}},
 "water.n.06": {"cookable": {}, "substance": {}, "physicalSubstance": {}, "liquid": {}, "glowing": {}}
}`,
	fileRoomTypes: "Room Name\nkitchen\nliving_room\n",
	dirRules + "/heat_cook.json": `[{"rule_name": "baked_apple", "input_synsets": {"apple.n.01": 1},
  "input_states": {"apple.n.01": [["cooked", false]]}, "container": {"oven.n.01": 1},
  "heat_source": {"oven.n.01": 1}, "output_synsets": {"apple.n.01": 1},
  "output_states": {"apple.n.01": [["cooked", true]]}, "timesteps": 5}]`,
	dirRules + "/washer.json": `{"water.n.06": []}`,
	fileCategories:            "category,synset\napple,apple.n.01\noven,oven.n.01\n",
	fileScenes:                `{"scenes": {"Tiny_0": {"kitchen_0": {"oven-abcdef": 1, "apple-ghijkl": 2}}}}`,
	fileInventory:             `{"meta_links": {"oven-abcdef": ["heatsource", "fillable"], "apple-ghijkl": []}, "bounding_box_sizes": {"abcdef": [0.7, 0.6, 0.9], "ghijkl": [0.08, 0.08, 0.09]}}`,
}

func TestLoadBehavior1KTiny(t *testing.T) {
	t.Parallel()
	b, err := LoadBehavior1K(writeFiles(t, tinyB1K))
	if err != nil {
		t.Fatalf("LoadBehavior1K: %v", err)
	}
	apple := lookup(t, b, "APPLE.n.01")
	if got := b.Thresholds(apple).Cook; got != 61.5 {
		t.Errorf("Thresholds(apple).Cook = %v, want 61.5", got)
	}
	if got := b.Thresholds(lookup(t, b, "half__apple.n.01")).Cook; got != DefaultCookTemperature {
		t.Errorf("Thresholds(half__apple).Cook = %v, want the default %v", got, DefaultCookTemperature)
	}
	glowing, ok := b.PropertyByName("glowing")
	if !ok || !b.Has(lookup(t, b, "water.n.06"), glowing) {
		t.Errorf("the unknown property glowing was not registered")
	}
	if !b.IsPruned("old.n.01") {
		t.Error("IsPruned(old.n.01) = false")
	}
	hc := b.RulesOfKind(RuleHeatCook)
	if len(hc) != 1 || hc[0].Timesteps != 5 || len(hc[0].HeatSources) != 1 {
		t.Errorf("heat_cook rules = %+v", hc)
	}
	if got := len(b.RulesOfKind(RuleSlicing)); got != 1 {
		t.Errorf("%d derived slicing rules, want 1", got)
	}
	m, ok := b.ModelByName("oven-abcdef")
	if !ok || m.Size != [3]float64{0.7, 0.6, 0.9} || !m.HasMetaLink("heatsource") {
		t.Errorf("ModelByName(oven-abcdef) = %+v, %v", m, ok)
	}
	if got := b.RoomsWith(apple); len(got) != 1 || got[0].Count != 2 {
		t.Errorf("RoomsWith(apple) = %+v", got)
	}
	for _, f := range b.Check() {
		if f.Severity == SeverityError {
			t.Errorf("Check: %v", f)
		}
	}
}

// TestLoadBehavior1KErrors breaks the tiny knowledge base in several ways
// at once and checks that every error is reported with its location.
func TestLoadBehavior1KErrors(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for k, v := range tinyB1K {
		files[k] = v
	}
	files[fileSynsets] = strings.Replace(files[fileSynsets], "half__apple.n.01,fruit.n.01", "half__apple.n.01,fruit.n.02", 1)
	files[fileParams] = strings.Replace(files[fileParams], `"cook_temperature": 61.5`, `"cook_temperature": "hot"`, 1)
	files[fileParams] = strings.Replace(files[fileParams], `"entity.n.01": {},`, `"entity.n.01": {}, "ghost.n.01": {},`, 1)
	files[dirRules+"/heat_cook.json"] = strings.Replace(files[dirRules+"/heat_cook.json"], `"output_synsets": {"apple.n.01": 1}`, `"output_synsets": {"baked_apple.n.01": 1}`, 1)
	// A cycle: fruit under apple.
	files[fileHierarchy] = strings.Replace(files[fileHierarchy], `{"name": "half__apple.n.01"}`, `{"name": "half__apple.n.01"}, {"name": "apple.n.01", "children": [{"name": "fruit.n.01"}]}`, 1)

	_, err := LoadBehavior1K(writeFiles(t, files))
	var des DataErrors
	if !errors.As(err, &des) {
		t.Fatalf("LoadBehavior1K error = %v, want DataErrors", err)
	}
	var got []string
	for _, e := range des {
		got = append(got, e.File+" "+e.Code)
		if e.Line == 0 && e.Key == "" && e.Code != "cycle" {
			t.Errorf("error without line or key: %v", e)
		}
	}
	sort.Strings(got)
	want := []string{
		"heat_cook.json unknown-synset",
		"output_hierarchy.json cycle",
		"propagated_annots_params.json param-type",
		"propagated_annots_params.json unknown-synset",
		"synsets.csv unknown-parent",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors mismatch (-want +got):\n%s\nall: %v", diff, err)
	}
	for _, e := range des {
		if e.File == fileSynsets && e.Line != 3 {
			t.Errorf("unknown parent reported at line %d, want 3: %v", e.Line, e)
		}
		if e.File == fileParams && e.Code == "param-type" && !strings.Contains(e.Key, "apple.n.01 > cookable > cook_temperature") {
			t.Errorf("param error key = %q", e.Key)
		}
	}
}

func TestLoadBehavior1KMissing(t *testing.T) {
	t.Parallel()
	_, err := LoadBehavior1K(t.TempDir())
	var nk *NotKBError
	if !errors.As(err, &nk) || !strings.Contains(err.Error(), "generated_data") {
		t.Errorf("LoadBehavior1K(empty dir) = %v, want a NotKBError naming generated_data", err)
	}
}

// TestLoadBehavior1KLayouts: the knowledge base is found from each
// folder users name (internal/b1klayout), and the package's Python
// knowledge_base/ is never read as data.
func TestLoadBehavior1KLayouts(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	pkg := filepath.Join(root, "BEHAVIOR-1K", "bddl3", "bddl")
	data := filepath.Join(pkg, "generated_data")
	code := filepath.Join(pkg, "knowledge_base")
	lone := filepath.Join(root, "lone", "knowledge_base")
	for _, d := range []string{data, code, lone, filepath.Join(pkg, "activity_definitions")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, text := range tinyB1K {
		path := filepath.Join(data, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(code, "__init__.py"), filepath.Join(code, "models.py"), filepath.Join(lone, "orm.py")} {
		if err := os.WriteFile(f, []byte("import json\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, dir, wantErr string
	}{
		{"data folder", data, ""},
		{"package folder", pkg, ""},
		{"checkout root", filepath.Join(root, "BEHAVIOR-1K"), ""},
		{"python code beside data", code, ""},
		{"python code alone", lone, "Python code"},
		{"unrelated folder", root, "not a BEHAVIOR-1K knowledge base"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b, err := LoadBehavior1K(tc.dir)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "generated_data") {
					t.Fatalf("LoadBehavior1K(%s) = %v, want an error with %q naming generated_data", tc.dir, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("LoadBehavior1K(%s): %v", tc.dir, err)
			}
			if got := b.Origin().Path; got != data {
				t.Errorf("LoadBehavior1K(%s) read %s, want %s", tc.dir, got, data)
			}
		})
	}
}
