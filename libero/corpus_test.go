package libero

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

// corpusDir finds the shared LIBERO definitions: $BDDL_LIBERO, else
// ../shared/libero from the repository root. With CI=true, missing data
// fails the test; otherwise it is skipped.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv("BDDL_LIBERO")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "libero")
	}
	if _, err := os.Stat(dir); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("LIBERO definitions not found at %s (set BDDL_LIBERO)", dir)
		}
		t.Skipf("LIBERO definitions not found at %s (set BDDL_LIBERO)", dir)
	}
	return dir
}

// corpusFiles lists every *.bddl file under the corpus.
func corpusFiles(t testing.TB) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(corpusDir(t), "*", "*.bddl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no LIBERO definitions: %v", err)
	}
	return files
}

func parseStrict(t testing.TB, path string) *bddl.Problem {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, diags := bddl.ParseProblem(path, src)
	if diags.HasErrors() {
		t.Fatalf("parse %s: %v", path, diags)
	}
	return p
}

func TestCorpusValidatesClean(t *testing.T) {
	for _, f := range corpusFiles(t) {
		p := parseStrict(t, f)
		for _, d := range Validate(p) {
			if d.Severity == bddl.Error {
				t.Errorf("%s", d.Error())
			}
		}
	}
}

// TestCorpusSampleThenCheck samples every shared definition with seed 7
// and checks that :init holds on the written and re-read episode.
func TestCorpusSampleThenCheck(t *testing.T) {
	for _, f := range corpusFiles(t) {
		task := Resolve(parseStrict(t, f))
		step, err := Sample(task, 7)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		var buf bytes.Buffer
		if err := WriteEpisode(&buf, Header{Format: EpisodeFormat, Version: 1, Definition: f}, []Step{step}); err != nil {
			t.Fatal(err)
		}
		_, steps, err := ReadEpisode(&buf, f)
		if err != nil {
			t.Fatal(err)
		}
		if r := Check(task, steps); r.Init != True {
			t.Errorf("%s: :init %s after sampling: %+v", f, r.Init, r.InitFailures)
		}
		again, _ := Sample(task, 7)
		if !reflect.DeepEqual(step, again) {
			t.Errorf("%s: two samples with seed 7 differ", f)
		}
	}
}

// TestCorpusExplains explains every shared definition: the instruction,
// every declared name, a line per :init atom and per goal atom.
func TestCorpusExplains(t *testing.T) {
	for _, f := range corpusFiles(t) {
		p := parseStrict(t, f)
		e := ExplainJSON(p)
		task := Resolve(p)
		if e.Instruction == "" || e.Instruction != p.Libero.Language || len(e.Objects) != len(task.Entities) ||
			len(e.Init) != len(p.Init) || len(e.Goal) != len(task.GoalAtoms()) {
			t.Errorf("%s: explanation %+v", f, e)
		}
		for _, g := range e.Goal {
			if strings.HasPrefix(g, "(") {
				t.Errorf("%s: goal atom not put in words: %s", f, g)
			}
		}
		if text := Explain(p); !strings.Contains(text, e.Instruction) {
			t.Errorf("%s: the text lacks the instruction", f)
		}
	}
}

// TestExplainGolden keeps the explanation of the test tasks in
// testdata/explain/*.golden (-update rewrites them). in_placements.bddl
// writes a range with the float noise of generated files
// (-0.21000000000000002), which must read as -0.21.
func TestExplainGolden(t *testing.T) {
	for _, in := range []string{"testdata/errors/valid.bddl", "testdata/in_placements.bddl"} {
		p := parseStrict(t, in)
		got := Explain(p)
		golden := filepath.Join("testdata", "explain", strings.TrimSuffix(filepath.Base(in), ".bddl")+".golden")
		if *update {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("Explain(%s) =\n%s\nwant\n%s", in, got, want)
		}
	}
}
