package kb

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A small knowledge base exercising the YAML features: several parents,
// downward inheritance of properties and parameters, derived classes.
const smallYAML = `
room_types: [kitchen, bedroom]
synsets:
  entity.n.01: {}
  object.n.01: {parents: [entity.n.01]}
  substance.n.01: {parents: [entity.n.01]}
  food.n.01: {parents: [object.n.01], properties: [heatable, {cookable: {cook_temperature: 65}}]}
  fruit.n.01: {parents: [object.n.01]}
  edible_fruit.n.01: {parents: [food.n.01, fruit.n.01], type: rigidBody}
  Apple.n.01:
    parents: [edible_fruit.n.01]
    properties:
      - sliceable: {sliceable_derivative_synset: half__apple.n.01}
    categories: [apple]
  half__apple.n.01: {parents: [edible_fruit.n.01], properties: [{cookable: {cook_temperature: 50}}]}
  bread.n.01: {parents: [food.n.01], type: softBody}
  water.n.06: {parents: [substance.n.01], type: liquid, systems: [water]}
  dust.n.01: {parents: [substance.n.01], type: visualSubstance}
  towel.n.01: {parents: [object.n.01], type: cloth, properties: [{particleRemover: {conditions: {dust.n.01: [], water.n.06: null}, default_visual_conditions: [[saturated, water.n.06]]}}]}
  oven.n.01:
    parents: [object.n.01]
    type: rigidBody
    properties: [sceneObject, fillable, {heatSource: {temperature: 230, requires_toggled_on: true}}]
    categories: [oven]
models:
  apple-abcdef: {size: [0.1, 0.1, 0.1]}
  oven-qwerty: {size: [0.8, 0.7, 0.9], meta_links: [fillable, togglebutton]}
scenes:
  Home_0: {kitchen_0: {oven-qwerty: 1, apple-abcdef: 3}}
transition_rules:
  heat_cook:
    - {rule_name: toast, input_synsets: {bread.n.01: 1}, container: {oven.n.01: 1}, heat_source: {oven.n.01: 1}, output_synsets: {bread.n.01: 1}, output_states: {bread.n.01: [[cooked, true]]}, timesteps: 3}
  washer: {dust.n.01: [], water.n.06: null}
`

func loadSmall(t *testing.T) *Base {
	t.Helper()
	b, err := LoadYAML("small.yaml", []byte(smallYAML))
	if err != nil {
		t.Fatalf("LoadYAML(small): %v", err)
	}
	return b
}

func TestYAMLPropagation(t *testing.T) {
	t.Parallel()
	b := loadSmall(t)
	tests := []struct {
		synset string
		prop   Property
		want   bool
	}{
		{"apple.n.01", Cookable, true},         // inherited from food.n.01
		{"apple.n.01", Heatable, true},         // inherited from food.n.01
		{"apple.n.01", NonSubstance, true},     // derived from rigidBody
		{"apple.n.01", Stainable, true},        // surface affordance of non-substances
		{"apple.n.01", Sliceable, true},        // own
		{"half__apple.n.01", Sliceable, false}, // a sibling's
		{"edible_fruit.n.01", Cookable, true},  // all leaves share it
		{"edible_fruit.n.01", Sliceable, false},
		{"food.n.01", Cookable, true},
		{"food.n.01", RigidBody, false}, // bread is a soft body
		{"food.n.01", NonSubstance, true},
		{"fruit.n.01", Cookable, true}, // its only leaves are edible fruit
		{"object.n.01", Cookable, false},
		{"object.n.01", NonSubstance, true},
		{"entity.n.01", NonSubstance, false},
		{"water.n.06", Boilable, true},
		{"water.n.06", PhysicalSubstance, true},
		{"dust.n.01", PhysicalSubstance, false},
		{"towel.n.01", Drapeable, true},
		{"towel.n.01", Deformable, true},
	}
	for _, tt := range tests {
		t.Run(tt.synset+"/"+tt.prop.String(), func(t *testing.T) {
			t.Parallel()
			if got := b.Has(lookup(t, b, tt.synset), tt.prop); got != tt.want {
				t.Errorf("Has(%s, %s) = %v, want %v", tt.synset, tt.prop, got, tt.want)
			}
		})
	}
}

func TestYAMLParams(t *testing.T) {
	t.Parallel()
	b := loadSmall(t)
	apple := lookup(t, b, "apple.n.01")
	if got := b.Thresholds(apple).Cook; got != 65 {
		t.Errorf("apple cook threshold = %v, want 65 inherited from food.n.01", got)
	}
	if got := b.Thresholds(lookup(t, b, "half__apple.n.01")).Cook; got != 50 {
		t.Errorf("half__apple cook threshold = %v, want its own 50", got)
	}
	if got := b.Thresholds(lookup(t, b, "water.n.06")); got != DefaultThresholds {
		t.Errorf("water thresholds = %+v, want the defaults", got)
	}
	oven := lookup(t, b, "oven.n.01")
	hs, ok := b.HeatSource(oven)
	want := HeatSourceParams{Temperature: 230, HeatingRate: DefaultHeatingRate, DistanceThreshold: DefaultDistanceThreshold, RequiresToggledOn: true}
	if diff := cmp.Diff(want, hs); !ok || diff != "" {
		t.Errorf("HeatSource(oven) mismatch (-want +got):\n%s", diff)
	}
	towel, dust, water := lookup(t, b, "towel.n.01"), lookup(t, b, "dust.n.01"), lookup(t, b, "water.n.06")
	if cs, ok := b.ParticleConditions(towel, ParticleRemover, dust); !ok || cs.Never || len(cs.Conditions) != 0 {
		t.Errorf("towel removes dust: %+v, %v; want always", cs, ok)
	}
	if cs, ok := b.ParticleConditions(towel, ParticleRemover, water); !ok || !cs.Never {
		t.Errorf("towel removes water: %+v, %v; want never", cs, ok)
	}
	if !b.IsCustom(lookup(t, b, "half__apple.n.01")) || b.IsCustom(apple) {
		t.Error("custom defaults to names with a double underscore")
	}
	if got := b.Name(apple); got != "Apple.n.01" {
		t.Errorf("Name keeps the written case: %q", got)
	}
}

func TestYAMLWorldAndRules(t *testing.T) {
	t.Parallel()
	b := loadSmall(t)
	if diff := cmp.Diff([]string{"bedroom", "kitchen"}, b.RoomTypes()); diff != "" {
		t.Errorf("RoomTypes mismatch (-want +got):\n%s", diff)
	}
	s, ok := b.Scene("Home_0")
	if !ok || len(s.Rooms) != 1 || s.Rooms[0].Type != "kitchen" {
		t.Fatalf("Scene(Home_0) = %+v, %v", s, ok)
	}
	apple := lookup(t, b, "apple.n.01")
	if got := b.CategoriesOf(lookup(t, b, "edible_fruit.n.01")); !cmp.Equal(got, []string{"apple"}) {
		t.Errorf("CategoriesOf(edible_fruit) = %v", got)
	}
	if got := b.RoomsWith(apple); len(got) != 1 || got[0].Count != 3 {
		t.Errorf("RoomsWith(apple) = %+v", got)
	}
	var names []string
	for _, r := range b.Rules() {
		names = append(names, r.Kind.String()+":"+r.Name)
	}
	want := []string{"heat_cook:toast", "washer:washer-dust.n.01", "washer:washer-water.n.06", "slicing:Apple.n.01-slicing"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("rules mismatch (-want +got):\n%s", diff)
	}
	sl := b.RulesProducing(lookup(t, b, "half__apple.n.01"))
	if len(sl) != 1 || sl[0].Outputs[0].Count != 2 || !sl[0].Derived {
		t.Errorf("RulesProducing(half__apple) = %+v", sl)
	}
	if got := b.RulesUsing(lookup(t, b, "oven.n.01")); len(got) != 1 {
		t.Errorf("RulesUsing(oven) = %+v", got)
	}
	if got := b.RulesOfKind(RuleHeatCook)[0].Describe(); got != "heat_cook toast: bread.n.01 → bread.n.01 [(cooked bread.n.01)] (container oven.n.01, heat source oven.n.01, 3 steps)" {
		t.Errorf("Describe = %q", got)
	}
}

var errorComment = regexp.MustCompile(`#\s*ERROR\s+("(?:[^"\\]|\\.)*")`)

// TestYAMLErrors loads broken knowledge bases. Each line that must produce
// a data error carries a comment # ERROR "regexp"; the harness reports
// errors on unmarked lines and marked lines without their error.
func TestYAMLErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		src  string
	}{
		{"unknown parent", `
synsets:
  entity.n.01: {}
  apple.n.01: {parents: [fruit.n.01], type: rigidBody} # ERROR "parent fruit.n.01 of apple.n.01 is not a defined synset"
`},
		{"cycle", `
synsets:
  a.n.01: {parents: [b.n.01], type: rigidBody} # ERROR "hypernym cycle"
  b.n.01: {parents: [a.n.01]}
  c.n.01: {parents: [c.n.01]} # ERROR "its own parent"
`},
		{"wrong parameter types", `
synsets:
  apple.n.01:
    type: rigidBody
    properties:
      - cookable: {cook_temperature: hot} # ERROR "cook_temperature must be a number"
      - sliceable: {sliceable_derivative_synset: half__pear.n.01} # ERROR "unknown synset \"half__pear.n.01\""
      - heatSource: {requires_inside: 2} # ERROR "requires_inside must be a boolean"
      - particleRemover: {conditions: {apple.n.01: [[saturated]]}} # ERROR "condition must be a \[state, value\] pair"
`},
		{"unknown type and duplicate", `
synsets:
  apple.n.01: {type: solidBody} # ERROR "unknown object type \"solidBody\""
  apple.n.01: {} # ERROR "defined twice"
`},
		{"rules", `
synsets:
  apple.n.01: {type: rigidBody}
transition_rules:
  heat_cook:
    - rule_name: pie
      input_synsets: {apple.n.01: 2, pear.n.01: 1} # ERROR "unknown synset \"pear.n.01\""
      output_synsets: {apple.n.01: 0.5} # ERROR "count of apple.n.01 must be a positive integer"
  slicing: [] # ERROR "derived from the sliceable"
  washr: {} # ERROR "did you mean washer"
`},
		{"syntax", `
synsets:
  apple.n.01: {type: rigidBody}
  pear.n.01: @pear # ERROR "invalid YAML: line 4: found character that cannot start any token"
`},
		{"scenes", `
synsets:
  floor.n.01: {type: rigidBody}
models:
  floors-abc: {size: [1, 2]} # ERROR "size must be \[x, y, z\]"
scenes:
  Home_0:
    kitchen_0: {floors-abc: 1, oven-xyz: 2} # ERROR "models does not define"
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want := map[int]*regexp.Regexp{}
			for i, line := range strings.Split(tt.src, "\n") {
				if m := errorComment.FindStringSubmatch(line); m != nil {
					re := strings.ReplaceAll(m[1][1:len(m[1])-1], `\"`, `"`)
					want[i+1] = regexp.MustCompile(re)
				}
			}
			_, err := LoadYAML("case.yaml", []byte(tt.src))
			var des DataErrors
			if !errors.As(err, &des) {
				t.Fatalf("LoadYAML error = %v, want DataErrors", err)
			}
			matched := map[int]bool{}
			for _, e := range des {
				re, ok := want[e.Line]
				switch {
				case !ok:
					t.Errorf("unexpected error: %v", e)
				case !re.MatchString(e.Message):
					t.Errorf("line %d: error %q does not match %q", e.Line, e.Message, re)
				default:
					matched[e.Line] = true
				}
			}
			for line, re := range want {
				if !matched[line] {
					t.Errorf("line %d: missing error matching %q (got %v)", line, re, err)
				}
			}
		})
	}
}

func TestYAMLEmptyAndWarnings(t *testing.T) {
	t.Parallel()
	if _, err := LoadYAML("empty.yaml", nil); err == nil || !strings.Contains(err.Error(), "no synsets") {
		t.Errorf("LoadYAML(empty) error = %v, want one about the missing synsets", err)
	}
	b, err := LoadYAML("w.yaml", []byte("synset:\n  a.n.01: {}\nsynsets:\n  a.n.01: {colour: red, parent: [b.n.01]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	var codes, messages []string
	for _, f := range b.Check() {
		codes = append(codes, f.Code)
		messages = append(messages, f.Message)
	}
	if all := strings.Join(messages, "\n"); !strings.Contains(all, `unknown field "parent" of synset a.n.01 (did you mean parents?)`) ||
		!strings.Contains(all, `unknown section "synset" (did you mean synsets?)`) {
		t.Errorf("Check messages lack the suggestions:\n%s", all)
	}
	for _, c := range []string{"unknown-field", "no-object-type"} {
		if !contains(codes, c) {
			t.Errorf("Check codes %v lack %s", codes, c)
		}
	}
}

// FuzzLoadYAML: a knowledge base is user input; loading and checking it
// must never panic, and a clean load must answer queries.
func FuzzLoadYAML(f *testing.F) {
	f.Add([]byte(smallYAML))
	f.Add([]byte("synsets:\n  a.n.01: {parents: [a.n.01]}\n"))
	f.Add([]byte("a: &x [*x]\n"))
	f.Add([]byte("synsets: {a.n.01: {properties: {cookable: {cook_temperature: [1]}}}}"))
	f.Add([]byte("transition_rules: {washer: {x.n.01: [y.n.01]}}\nsynsets: {x.n.01: {}}"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b, err := LoadYAML("fuzz.yaml", data)
		if b == nil {
			t.Fatalf("LoadYAML returned a nil Base (err %v)", err)
		}
		_ = b.Check()
		for i := 0; i < b.NumSynsets(); i++ {
			id := SynsetID(i)
			_ = b.Properties(id)
			_ = b.Ancestors(id)
			_ = b.Thresholds(id)
			if !b.IsA(id, id) {
				t.Fatalf("IsA(%s, itself) = false", b.Name(id))
			}
		}
	})
}
