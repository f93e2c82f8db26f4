package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
)

// TestCanonicalActivityName checks that one definition gets one name in
// the results however it is passed: a problem0.bddl in a library, a file
// of another name, standard input, an embedded name.
func TestCanonicalActivityName(t *testing.T) {
	t.Parallel()
	src := readFile(t, filepath.Join("..", "..", "activities", "examples", "baking_a_tray_of_cookies", "problem0.bddl"))
	dir := t.TempDir()
	other := filepath.Join(dir, "my copy.bddl")
	if err := os.WriteFile(other, src, 0o644); err != nil {
		t.Fatal(err)
	}
	ep := filepath.Join(dir, "ep.jsonl")
	r := runBDDL(t, "episode", "from-init", "baking_a_tray_of_cookies", "-o", ep)
	r.wantCode(t, nil, exitOK)
	for _, act := range []string{"baking_a_tray_of_cookies", other,
		filepath.Join("..", "..", "activities", "examples", "baking_a_tray_of_cookies", "problem0.bddl")} {
		args := []string{"check", "--format", "json", "--activity", act, "--episode", ep}
		r := runBDDL(t, args...)
		lines := jsonResults(t, r.stdout)
		if len(lines) != 1 || lines[0]["activity"] != "baking_a_tray_of_cookies" {
			t.Errorf("--activity %s: activity %v, want baking_a_tray_of_cookies\n%s", act, lines, r.stderr)
		}
	}
	// Standard input.
	var out, errw strings.Builder
	args := []string{"check", "--format", "json", "--activity", "-", "--episode", ep}
	runIn(os.TempDir(), args, strings.NewReader(string(src)), &out, &errw)
	if lines := jsonResults(t, out.String()); len(lines) != 1 || lines[0]["activity"] != "baking_a_tray_of_cookies" {
		t.Errorf("--activity -: %v\n%s", lines, errw.String())
	}
}

// TestSampledEpisodesSelfContained: the episodes sample writes of a
// definition that is neither embedded nor in a library check without
// --activity or --activities.
func TestSampledEpisodesSelfContained(t *testing.T) {
	t.Parallel()
	src := readFile(t, filepath.Join("..", "..", "activities", "examples", "cleaning_shoes", "problem0.bddl"))
	defDir := filepath.Join(t.TempDir(), "my_shoes")
	if err := os.MkdirAll(defDir, 0o755); err != nil {
		t.Fatal(err)
	}
	def := filepath.Join(defDir, "problem0.bddl")
	if err := os.WriteFile(def, src, 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	args := []string{"sample", def, "-n", "2", "-o", out}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if _, err := os.Stat(filepath.Join(out, "my_shoes", "my_shoes.bddl")); err != nil {
		t.Errorf("no definition beside the episodes: %v", err)
	}
	args = []string{"check", "--format", "json", "--episode", out}
	r = runBDDL(t, args...)
	lines := jsonResults(t, r.stdout)
	if len(lines) != 2 {
		t.Fatalf("bddl %v: %d results\n%s", args, len(lines), r.stderr)
	}
	for _, l := range lines {
		if l["error"] != nil || l["activity"] != "my_shoes" || l["init_ok"] != true {
			t.Errorf("sampled episode: %v", l)
		}
	}
}

// TestSampledCorpusEpisodesKB: episodes sampled from a BEHAVIOR-1K
// definition are checked, without --kb, against that tree's knowledge
// base, which the definition copy beside them leads to.
func TestSampledCorpusEpisodesKB(t *testing.T) {
	dir := corpus.ActivitiesDir(t)
	t.Setenv("BDDL_KB", "")
	t.Setenv(configEnvVar, "")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var def string
	for _, e := range entries {
		def = filepath.Join(dir, e.Name(), "problem0.bddl")
		if r := runBDDL(t, "sample", def, "-o", out); r.code == exitOK {
			break
		}
		def = ""
	}
	if def == "" {
		t.Skip("no corpus activity sampled")
	}
	r := runBDDLIn(t, t.TempDir(), "check", "--episode", out)
	want := corpus.KBDir(t)
	if !strings.Contains(r.stderr, "using the knowledge base "+want) {
		t.Errorf("check of sampled corpus episodes did not use %s:\n%s", want, r.stderr)
	}
	if strings.Contains(r.stdout, "not found") {
		t.Errorf("the definition was not found:\n%s", r.stdout)
	}
	// view finds the same knowledge base the same way.
	eps, _ := filepath.Glob(filepath.Join(out, "*", "*.jsonl"))
	if len(eps) == 0 {
		t.Fatalf("sample wrote no episode in %s", out)
	}
	page := filepath.Join(t.TempDir(), "page.html")
	r = runBDDLIn(t, t.TempDir(), "view", eps[0], "-o", page)
	if r.code != exitOK || !strings.Contains(r.stderr, "using the knowledge base "+want) {
		t.Errorf("view of a sampled corpus episode: exit %d, not with %s:\n%s", r.code, want, r.stderr)
	}
}
