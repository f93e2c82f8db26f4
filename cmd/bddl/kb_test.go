package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
)

// kbRun runs the command line and returns exit code, stdout and stderr.
func kbRun(args ...string) (int, string, string) {
	var out, errw bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errw)
	return code, out.String(), errw.String()
}

// kbCorpus finds the BEHAVIOR-1K knowledge base, or skips (fails on CI)
// as every corpus test does.
func kbCorpus(t *testing.T) string {
	t.Helper()
	return corpus.KBDir(t)
}

const brokenKB = `synsets:
  entity.n.01: {}
  apple.n.01: {parents: [fruit.n.01], type: rigidBody}
`

func TestKBCommands(t *testing.T) {
	t.Parallel()
	broken := filepath.Join(t.TempDir(), "broken.yaml")
	if err := os.WriteFile(broken, []byte(brokenKB), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name      string
		args      []string
		code      int
		stdout    []string // substrings
		stderr    []string
		notStdout []string
	}{
		{"show", []string{"kb", "show", "apple.n.01"}, 0,
			[]string{"apple.n.01 (WordNet synset, leaf, rigidBody)", "cookable.cook_temperature = 60", "apple-agveuv", "slicing apple.n.01-slicing"}, nil, nil},
		{"show instance name", []string{"kb", "show", "oven.n.01_1"}, 0,
			[]string{"heatSource.temperature = 230", "needed by:", "heat_cook sugar_cookies"}, nil, nil},
		{"show unknown", []string{"kb", "show", "aple.n.01"}, 1, nil, []string{"unknown synset aple.n.01", "did you mean apple.n.01"}, nil},
		{"show some unknown", []string{"kb", "show", "apple.n.01", "pear.n.01"}, 1, []string{"apple.n.01"}, []string{"unknown synset pear.n.01"}, nil},
		{"show bad format", []string{"kb", "show", "--format", "yaml", "apple.n.01"}, 2, nil, []string{"--format must be text or json"}, nil},
		{"show no args", []string{"kb", "show"}, 2, nil, nil, nil},
		{"tree", []string{"kb", "tree", "--depth", "1", "food.n.02"}, 0,
			[]string{"food.n.02\n", "  baked_goods.n.01  rigidBody  ...\n", "  produce.n.01  ...\n"}, nil, []string{"apple.n.01"}},
		{"tree unknown", []string{"kb", "tree", "fod.n.02"}, 1, nil, []string{"did you mean food.n.02"}, nil},
		{"search text", []string{"kb", "search", "apple"}, 0, []string{"apple.n.01\n", "half__apple.n.01\n"}, nil, nil},
		{"search property", []string{"kb", "search", "--property", "heatSource"}, 0,
			[]string{"oven.n.01\n", "stove.n.01\n"}, nil, []string{"apple.n.01"}},
		{"search text and property", []string{"kb", "search", "bottle", "-p", "fillable", "-p", "breakable"}, 0,
			[]string{"olive_oil__bottle.n.01\n"}, nil, []string{"detergent__bottle.n.01"}},
		{"search unknown property", []string{"kb", "search", "--property", "heatsourc"}, 2, nil, []string{"did you mean heatSource"}, nil},
		{"search nothing found", []string{"kb", "search", "zzzz"}, 1, nil, []string{"no synset matches"}, nil},
		{"search without criteria", []string{"kb", "search"}, 2, nil, []string{"needs TEXT"}, nil},
		{"check default", []string{"kb", "check"}, 0, []string{"(embedded default):", "0 errors"}, nil, nil},
		{"check broken", []string{"--kb", broken, "kb", "check"}, 1, []string{"1 error"},
			[]string{"broken.yaml:3: synsets > apple.n.01 > parents: error: parent fruit.n.01 of apple.n.01 is not a defined synset"}, nil},
		{"tree leaf mark", []string{"kb", "tree", "baked_goods.n.01"}, 0, []string{"  (leaf)\n"}, nil, nil},
		{"misspelt subcommand", []string{"kb", "shw", "apple.n.01"}, 2, nil, []string{`unknown command "shw"`, "Did you mean this?", "show"}, nil},
		{"check bad severity", []string{"kb", "check", "--severity", "fatal"}, 2, nil, []string{"--severity"}, nil},
		{"show with broken kb", []string{"--kb", broken, "kb", "show", "apple.n.01"}, 2, nil,
			[]string{"broken.yaml:3:", "has 1 data error"}, nil},
		{"missing kb", []string{"--kb", filepath.Join(t.TempDir(), "nope.yaml"), "kb", "show", "apple.n.01"}, 2, nil, []string{"no such file"}, nil},
		{"help", []string{"kb", "show", "--help"}, 0, []string{"Examples:", "bddl kb show apple.n.01"}, nil, nil},
		{"group help", []string{"kb"}, 0, []string{"show", "tree", "search", "check"}, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := kbRun(tt.args...)
			if code != tt.code {
				t.Errorf("bddl %s exited %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(tt.args, " "), code, tt.code, stdout, stderr)
			}
			for _, s := range tt.stdout {
				if !strings.Contains(stdout, s) {
					t.Errorf("bddl %s: stdout lacks %q:\n%s", strings.Join(tt.args, " "), s, stdout)
				}
			}
			for _, s := range tt.notStdout {
				if strings.Contains(stdout, s) {
					t.Errorf("bddl %s: stdout has %q:\n%s", strings.Join(tt.args, " "), s, stdout)
				}
			}
			for _, s := range tt.stderr {
				if !strings.Contains(stderr, s) {
					t.Errorf("bddl %s: stderr lacks %q:\n%s", strings.Join(tt.args, " "), s, stderr)
				}
			}
		})
	}
}

func TestKBJSON(t *testing.T) {
	t.Parallel()
	code, stdout, stderr := kbRun("kb", "show", "--format", "json", "oven.n.01")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rec struct {
		Name       string `json:"name"`
		Leaf       bool   `json:"leaf"`
		Properties []struct {
			Name   string         `json:"name"`
			Params map[string]any `json:"params"`
		} `json:"properties"`
		Thresholds map[string]float64 `json:"thresholds"`
		Models     []struct {
			Name string    `json:"name"`
			Size []float64 `json:"size"`
		} `json:"models"`
		Rules struct {
			Uses []struct {
				Kind string `json:"kind"`
				Name string `json:"name"`
			} `json:"uses"`
		} `json:"rules"`
	}
	if err := json.Unmarshal([]byte(stdout), &rec); err != nil {
		t.Fatalf("kb show --format json: %v\n%s", err, stdout)
	}
	var temp any
	for _, p := range rec.Properties {
		if p.Name == "heatSource" {
			temp = p.Params["temperature"]
		}
	}
	if rec.Name != "oven.n.01" || !rec.Leaf || temp != 230.0 || len(rec.Models) == 0 || len(rec.Rules.Uses) == 0 || rec.Thresholds["cook"] != 70 {
		t.Errorf("kb show --format json oven.n.01 = %+v", rec)
	}

	code, stdout, _ = kbRun("kb", "tree", "--format", "json", "--depth", "1", "container.n.01")
	tree := jsonResults(t, stdout)
	if code != 0 || len(tree) < 6 || tree[0]["name"] != "container.n.01" || tree[1]["parent"] != "container.n.01" || tree[1]["depth"] != 1.0 {
		t.Errorf("kb tree --format json = %d, %v", code, tree)
	}

	code, stdout, _ = kbRun("kb", "search", "--format", "json", "--property", "toggleable", "oven")
	found := jsonResults(t, stdout)
	if code != 0 || len(found) == 0 || found[0]["type"] != "rigidBody" {
		t.Errorf("kb search --format json = %d, %+v", code, found)
	}

	// Several synsets: one JSON line each.
	code, stdout, _ = kbRun("kb", "show", "--format", "json", "oven.n.01", "apple.n.01")
	if recs := jsonResults(t, stdout); code != 0 || len(recs) != 2 || recs[1]["name"] != "apple.n.01" {
		t.Errorf("kb show A B --format json = %d:\n%s", code, stdout)
	}

	code, stdout, _ = kbRun("kb", "check", "--format", "json")
	if code != 0 || strings.TrimSpace(stdout) != "" && len(jsonResults(t, stdout)) == 0 {
		t.Errorf("kb check --format json = %d, %s", code, stdout)
	}
	for _, rec := range jsonResults(t, stdout) {
		if _, nested := rec["location"]; nested || rec["code"] == nil || rec["severity"] == nil {
			t.Errorf("kb check record is not flat: %v", rec)
		}
	}
}

// TestKBEnvironment selects the knowledge base through $BDDL_KB; it
// changes the environment, so it does not run in parallel.
func TestKBEnvironment(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.yaml")
	if err := os.WriteFile(path, []byte("synsets:\n  entity.n.01: {}\n  widget.n.01: {parents: [entity.n.01], type: rigidBody}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BDDL_KB", path)
	code, stdout, stderr := kbRun("kb", "search", "widget")
	if code != 0 || stdout != "widget.n.01\n" {
		t.Errorf("with BDDL_KB: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	// --kb wins over the environment.
	if code, _, stderr := kbRun("--kb", filepath.Join(t.TempDir(), "none.yaml"), "kb", "search", "widget"); code != 2 {
		t.Errorf("--kb with a missing file: exit %d, stderr %q", code, stderr)
	}
	if code, stdout, stderr := kbRun("kb", "check"); code != 0 || !strings.Contains(stdout, "($BDDL_KB)") {
		t.Errorf("kb check with BDDL_KB: exit %d, stderr %q", code, stderr)
	}
}

func TestKBOnBehavior1K(t *testing.T) {
	t.Parallel()
	dir := kbCorpus(t)
	code, stdout, stderr := kbRun("--kb", dir, "kb", "show", "apple.n.01")
	if code != 0 || !strings.Contains(stdout, "cookable.cook_temperature = 58") || !strings.Contains(stdout, "half__apple.n.01") {
		t.Errorf("kb show apple.n.01 on BEHAVIOR-1K: exit %d\n%s\n%s", code, stdout, stderr)
	}
	// The BEHAVIOR-1K rules hold one real clash: blending the waffle batter
	// ingredients also satisfies the heavy cream recipe.
	code, stdout, stderr = kbRun("--kb", dir, "kb", "check", "--severity", "warning")
	if code != 1 || !strings.Contains(stdout, "1 error") || !strings.Contains(stderr, "rule-clash") {
		t.Errorf("kb check on BEHAVIOR-1K: exit %d, want 1 with one rule-clash\n%s\n%s", code, stdout, stderr)
	}
}
