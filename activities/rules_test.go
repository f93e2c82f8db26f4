package activities

import (
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// testKB is the small knowledge base of testdata/kb.yaml.
var testKB = sync.OnceValues(func() (*kb.Base, error) {
	data, err := os.ReadFile(filepath.Join("testdata", "kb.yaml"))
	if err != nil {
		return nil, err
	}
	return kb.LoadYAML("kb.yaml", data)
})

func mustTestKB(t testing.TB) *kb.Base {
	t.Helper()
	b, err := testKB()
	if err != nil {
		t.Fatalf("testdata/kb.yaml: %v", err)
	}
	return b
}

var wantRE = regexp.MustCompile(`;\s*WANT\s+(.*)$`)

// wants reads the "; WANT code ..." comments of a case: line → codes.
func wants(src []byte) map[int][]string {
	out := map[int][]string{}
	for i, line := range strings.Split(string(src), "\n") {
		if m := wantRE.FindStringSubmatch(line); m != nil {
			out[i+1] = append(out[i+1], strings.Fields(m[1])...)
		}
	}
	return out
}

// ruleCases lists every case file under testdata/rules.
func ruleCases(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(filepath.Join("testdata", "rules"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".bddl") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestRuleCases runs every case under testdata/rules/<code>/ and checks
// that the findings are exactly the ones its "; WANT code" comments
// announce, line by line: nothing missing, nothing unexpected. Cases whose
// name (or directory) starts with "ok" announce none.
func TestRuleCases(t *testing.T) {
	base := mustTestKB(t)
	for _, path := range ruleCases(t) {
		t.Run(filepath.ToSlash(strings.TrimPrefix(path, filepath.Join("testdata", "rules")+string(filepath.Separator))), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := wants(src)
			if isOK(path) && len(want) > 0 {
				t.Fatalf("an ok case must not expect findings, found WANT comments on lines %v", slices.Sorted(mapsKeys(want)))
			}
			_, rep := ValidateSource(path, src, base)
			got := map[int][]string{}
			for _, f := range rep.Findings {
				got[int(f.Subject.Start.Line)] = append(got[int(f.Subject.Start.Line)], f.Code)
			}
			for _, line := range slices.Sorted(mapsKeys(union(got, want))) {
				g, w := slices.Sorted(slices.Values(got[line])), slices.Sorted(slices.Values(want[line]))
				if !slices.Equal(g, w) {
					var msgs []string
					for _, f := range rep.Findings {
						if int(f.Subject.Start.Line) == line {
							msgs = append(msgs, f.Error())
						}
					}
					t.Errorf("line %d: findings %v, want %v\n\t%s", line, g, w, strings.Join(msgs, "\n\t"))
				}
			}
		})
	}
}

func isOK(path string) bool {
	for _, part := range strings.Split(filepath.ToSlash(path), "/") {
		if strings.HasPrefix(part, "ok") {
			return true
		}
	}
	return false
}

func mapsKeys[V any](m map[int]V) func(func(int) bool) {
	return func(yield func(int) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

func union(a, b map[int][]string) map[int][]string {
	out := map[int][]string{}
	for k, v := range a {
		out[k] = v
	}
	for k := range b {
		if _, ok := out[k]; !ok {
			out[k] = nil
		}
	}
	return out
}

// TestEveryRuleHasCases checks that each rule has a directory with a
// positive case (ok*, no findings) and a negative case expecting its code.
func TestEveryRuleHasCases(t *testing.T) {
	files := ruleCases(t)
	for _, r := range Rules() {
		dir := filepath.Join("testdata", "rules", r.Code) + string(filepath.Separator)
		var ok, bad bool
		for _, f := range files {
			if !strings.HasPrefix(f, dir) {
				continue
			}
			if isOK(f) {
				ok = true
				continue
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, codes := range wants(src) {
				bad = bad || slices.Contains(codes, r.Code)
			}
		}
		if !ok || !bad {
			t.Errorf("rule %s: testdata/rules/%s needs an ok case (found %v) and a case expecting %s (found %v)", r.Code, r.Code, ok, r.Code, bad)
		}
	}
}

// TestRegistry checks the rules' metadata.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if r.Code == "" || r.Name == "" || r.Doc == "" || r.Fix == "" || r.Check == nil {
			t.Errorf("rule %q is incomplete: %+v", r.Code, r)
		}
		if seen[r.Code] {
			t.Errorf("rule code %s is registered twice", r.Code)
		}
		seen[r.Code] = true
		if got, ok := LookupRule(r.Code); !ok || got != r {
			t.Errorf("LookupRule(%q) = %v, %v", r.Code, got, ok)
		}
	}
}

// TestFindingJSON checks the flat JSON record of a finding.
func TestFindingJSON(t *testing.T) {
	src := []byte("(define (problem x-0) (:domain omnigibson) (:objects) (:init) (:goal (and)))")
	f := Finding{Rule: "placement", Diagnostic: bddl.Diagnostic{Severity: bddl.Error, Code: "unplaced", Summary: "m", Detail: "d",
		Subject: bddl.Range{Start: bddl.Pos{Offset: 1, Line: 1, Col: 2}, End: bddl.Pos{Offset: 7, Line: 1, Col: 8}},
		Source:  bddl.NewSource("a/problem0.bddl", src)}}
	b, err := f.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"file":"a/problem0.bddl","line":1,"col":2,"end_line":1,"end_col":8,"offset":1,"severity":"error","code":"unplaced","message":"m","fix":"d","rule":"placement"}`
	if string(b) != want {
		t.Errorf("MarshalJSON = %s\nwant %s", b, want)
	}
}

// TestREADMERules checks that the README documents every rule.
func TestREADMERules(t *testing.T) {
	text, err := os.ReadFile("../docs/validate.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules() {
		if !strings.Contains(string(text), "| `"+r.Code+"` | "+r.Severity.String()+" |") {
			t.Errorf("docs/validate.md has no table row for %s (%s)", r.Code, r.Severity)
		}
	}
	for _, r := range KBRules {
		if !strings.Contains(string(text), "`"+r.Code+"`") {
			t.Errorf("docs/validate.md does not mention %s", r.Code)
		}
	}
}
