package kb

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// TestNonFiniteNumbers: NaN and infinity are refused wherever the
// knowledge base reads a number, with the file and line.
func TestNonFiniteNumbers(t *testing.T) {
	t.Parallel()
	yamlKB := func(temp string) string {
		return "synsets:\n  entity.n.01: {}\n  cookie.n.01:\n    parents: [entity.n.01]\n    properties:\n      - cookable: {cook_temperature: " + temp + "}\n"
	}
	for _, tc := range []struct {
		name, file string
		load       func() error
		line       int
		want       string
	}{
		{"yaml -.inf", "kb.yaml", func() error { _, err := LoadYAML("kb.yaml", []byte(yamlKB("-.inf"))); return err }, 6, `"-.inf" is not finite`},
		{"yaml .nan", "kb.yaml", func() error { _, err := LoadYAML("kb.yaml", []byte(yamlKB(".nan"))); return err }, 6, `".nan" is not finite`},
		{"yaml .Inf", "kb.yaml", func() error { _, err := LoadYAML("kb.yaml", []byte(yamlKB(".Inf"))); return err }, 6, `".Inf" is not finite`},
		{"yaml model size", "kb.yaml", func() error {
			_, err := LoadYAML("kb.yaml", []byte("synsets:\n  entity.n.01: {}\nmodels:\n  box-abc: {size: [1, .inf, 1]}\n"))
			return err
		}, 4, "not finite"},
		{"json NaN", fileParams, func() error {
			return loadTinyWith(t, fileParams, `"cook_temperature": 61.5`, `"cook_temperature": NaN`)
		}, 4, "NaN is not finite"},
		{"json -Infinity", fileParams, func() error {
			return loadTinyWith(t, fileParams, `"cook_temperature": 61.5`, `"cook_temperature": -Infinity`)
		}, 4, "-Infinity is not finite"},
		{"json overflow", fileParams, func() error {
			return loadTinyWith(t, fileParams, `"cook_temperature": 61.5`, `"cook_temperature": 1e999`)
		}, 4, `"1e999" is out of range`},
		{"json rule", "heat_cook.json", func() error {
			return loadTinyWith(t, dirRules+"/heat_cook.json", `"timesteps": 5`, `"timesteps": Infinity`)
		}, 4, "Infinity is not finite"},
		{"csv flag", fileSynsets, func() error {
			return loadTinyWith(t, fileSynsets, "apple.n.01,fruit.n.01,0,0,1,0", "apple.n.01,fruit.n.01,0,0,nan,0")
		}, 2, `found "nan"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.load()
			var des DataErrors
			if !errors.As(err, &des) {
				t.Fatalf("error %v, want DataErrors", err)
			}
			for _, e := range des {
				if e.File == tc.file && e.Line == tc.line && strings.Contains(e.Message, tc.want) {
					return
				}
			}
			t.Errorf("no error at %s:%d containing %q; got:\n%v", tc.file, tc.line, tc.want, err)
		})
	}
}

// loadTinyWith loads the tiny BEHAVIOR-1K knowledge base with one edit.
func loadTinyWith(t *testing.T, file, old, new string) error {
	files := map[string]string{}
	for k, v := range tinyB1K {
		files[k] = v
	}
	if !strings.Contains(files[file], old) {
		t.Fatalf("%s does not contain %q", file, old)
	}
	files[file] = strings.Replace(files[file], old, new, 1)
	_, err := LoadBehavior1K(writeFiles(t, files))
	return err
}

// FuzzKBNumber feeds number texts to both number readers of the knowledge
// base: whatever they accept is finite.
func FuzzKBNumber(f *testing.F) {
	for _, s := range []string{"1", "-0.5", "1e308", "1e309", "NaN", "-Infinity", ".nan", "-.inf", ".Inf", "0x1p-2", "1_000", "+.inf", "-1e-400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if strings.ContainsAny(text, "\n\r") || len(text) > 64 {
			return
		}
		s := &jsonScanner{data: []byte(`{"x": ` + text + `}`)}
		g := s.value(0)
		if !s.failed {
			if x, ok := g.field("x"); ok && x.kind == gNumber && (math.IsNaN(x.num) || math.IsInf(x.num, 0)) {
				t.Fatalf("JSON %q read as %v", text, x.num)
			}
		}
		var p problems
		root, ok := parseYAML("f.yaml", []byte("x: "+text+"\n"), &p)
		if ok {
			if x, ok := root.field("x"); ok && x.kind == gNumber && (math.IsNaN(x.num) || math.IsInf(x.num, 0)) {
				t.Fatalf("YAML %q read as %v", text, x.num)
			}
		}
	})
}
