package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/internal/jobs/kbresolve"
)

// runBDDLIn is runBDDL with bddl.toml looked for from dir.
func runBDDLIn(t *testing.T, dir string, args ...string) cliResult {
	t.Helper()
	var out, errw bytes.Buffer
	code := runIn(dir, args, strings.NewReader(""), &out, &errw)
	return cliResult{code, out.String(), errw.String()}
}

// configSettings runs bddl config --format json and maps setting to
// record.
func configSettings(t *testing.T, dir string, args ...string) map[string]kbresolve.Record {
	t.Helper()
	r := runBDDLIn(t, dir, append([]string{"config", "--format", "json"}, args...)...)
	r.wantCode(t, args, exitOK)
	got := map[string]kbresolve.Record{}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var rec kbresolve.Record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		got[rec.Setting] = rec
	}
	return got
}

// fakeTree lays out a bddl package folder as it is installed:
// activity_definitions/<name>/problem0.bddl, generated_data/ (the data:
// here only the file that marks it) and knowledge_base/ (Python code).
func fakeTree(t *testing.T) (root, def string) {
	t.Helper()
	root = t.TempDir()
	def = filepath.Join(root, "activity_definitions", "baking_cookies", "problem0.bddl")
	files := map[string][]byte{
		def: readFile(t, filepath.Join("testdata", "cookies.bddl")),
		filepath.Join(root, "generated_data", "output_hierarchy.json"): []byte(`{"name": "entity.n.01"}`),
		filepath.Join(root, "knowledge_base", "__init__.py"):           nil,
		filepath.Join(root, "knowledge_base", "orm.py"):                []byte("import json\n"),
	}
	for p, data := range files {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, def
}

// TestKBResolution checks where the knowledge base comes from, in order:
// --kb, $BDDL_KB, bddl.toml, the inputs' BEHAVIOR-1K tree, the default.
func TestKBResolution(t *testing.T) {
	t.Setenv("BDDL_KB", "")
	t.Setenv(configEnvVar, "")
	root, def := fakeTree(t)
	kbDir := filepath.Join(root, "generated_data")
	empty := t.TempDir()

	got := configSettings(t, empty, def)
	if got["kb"].Value != kbDir || !strings.Contains(got["kb"].Source, "BEHAVIOR-1K tree") {
		t.Errorf("a definition in a tree: kb = %+v, want %s from its tree", got["kb"], kbDir)
	}
	if want := filepath.Join(root, "activity_definitions"); got["activities"].Value != want {
		t.Errorf("activities = %+v, want %s", got["activities"], want)
	}
	// The tree's root as input finds it too.
	if got := configSettings(t, empty, root); got["kb"].Value != kbDir {
		t.Errorf("the tree's root: kb = %+v", got["kb"])
	}
	// --kb of a tree: its activity_definitions is the library.
	if got := configSettings(t, empty, "--kb", kbDir); got["activities"].Value != filepath.Join(root, "activity_definitions") {
		t.Errorf("--kb %s: activities = %+v", kbDir, got["activities"])
	}
	// Outside any tree: the embedded default.
	if got := configSettings(t, empty, filepath.Join("testdata", "cookies.bddl")); got["kb"].Value != kbresolve.Embedded {
		t.Errorf("outside a tree: kb = %+v", got["kb"])
	}
	// --kb wins over the tree.
	if got := configSettings(t, empty, "--kb", "x.yaml", def); got["kb"].Value != "x.yaml" || got["kb"].Source != "--kb" {
		t.Errorf("--kb: kb = %+v", got["kb"])
	}
	// bddl.toml in a parent of the working directory wins over the tree.
	proj := t.TempDir()
	sub := filepath.Join(proj, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, projectFileName), []byte("kb = \"my_kb.yaml\"\n[defaults]\njobs = 1\n[defaults.check]\nhold = 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got = configSettings(t, sub, def)
	if want := filepath.Join(proj, "my_kb.yaml"); got["kb"].Value != want || got["kb"].Source != filepath.Join(proj, projectFileName) {
		t.Errorf("bddl.toml: kb = %+v, want %s from the file", got["kb"], want)
	}
	if got["defaults.check.hold"].Value != "3" || got["defaults.jobs"].Value != "1" {
		t.Errorf("bddl.toml defaults not shown: %+v", got)
	}
	// $BDDL_KB wins over bddl.toml.
	t.Setenv("BDDL_KB", "env.yaml")
	if got := configSettings(t, sub, def); got["kb"].Value != "env.yaml" || got["kb"].Source != "$BDDL_KB" {
		t.Errorf("$BDDL_KB: kb = %+v", got["kb"])
	}
}

// TestProjectFile checks that bddl.toml's knowledge base and flag
// defaults are used, that the command line wins, and that a key naming
// no flag is refused with the file, key and nearest flag.
func TestProjectFile(t *testing.T) {
	t.Setenv("BDDL_KB", "")
	t.Setenv(configEnvVar, "")
	dir := t.TempDir()
	kbSrc := readFile(t, filepath.Join("testdata", "validate", "kb.yaml"))
	if err := os.WriteFile(filepath.Join(dir, "small.yaml"), kbSrc, 0o644); err != nil {
		t.Fatal(err)
	}
	write := func(s string) {
		if err := os.WriteFile(filepath.Join(dir, projectFileName), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("kb = \"small.yaml\"\n[defaults.kb.show]\nformat = \"json\"\n")
	r := runBDDLIn(t, dir, "kb", "show", "sink.n.01")
	r.wantCode(t, nil, exitOK)
	if !strings.HasPrefix(r.stdout, "{") {
		t.Errorf("[defaults.kb.show] format = json not applied: %s", r.stdout)
	}
	// bddl.toml's kb is a choice the user made: no note (bddl config
	// shows it).
	if strings.Contains(r.stderr, "bddl: note: using") {
		t.Errorf("a note for bddl.toml's explicit kb:\n%s", r.stderr)
	}
	r = runBDDLIn(t, dir, "kb", "show", "--format", "text", "sink.n.01")
	if strings.HasPrefix(r.stdout, "{") {
		t.Errorf("the command line did not win over bddl.toml: %s", r.stdout)
	}
	// --kb given: no note.
	r = runBDDLIn(t, dir, "--kb", filepath.Join(dir, "small.yaml"), "kb", "show", "sink.n.01")
	if strings.Contains(r.stderr, "note") {
		t.Errorf("a note though --kb was given:\n%s", r.stderr)
	}
	write("[defaults.kb.show]\nfromat = \"json\"\n")
	r = runBDDLIn(t, dir, "kb", "show", "sink.n.01")
	r.wantCode(t, nil, exitMisuse)
	if !strings.Contains(r.stderr, projectFileName) || !strings.Contains(r.stderr, "did you mean format?") {
		t.Errorf("unknown key: %s", r.stderr)
	}
	write("kbb = \"x\"\n")
	r = runBDDLIn(t, dir, "config")
	r.wantCode(t, nil, exitMisuse)
	if !strings.Contains(r.stderr, "did you mean kb?") {
		t.Errorf("unknown top-level key: %s", r.stderr)
	}
}

// TestKBFromTree runs check on a corpus definition without --kb: the
// tree's knowledge base is used and said so once.
func TestKBFromTree(t *testing.T) {
	dir := corpus.ActivitiesDir(t)
	t.Setenv("BDDL_KB", "")
	t.Setenv(configEnvVar, "")
	entries, err := os.ReadDir(dir)
	if err != nil || len(entries) == 0 {
		t.Fatal(err)
	}
	def := filepath.Join(dir, entries[0].Name(), "problem0.bddl")
	r := runBDDL(t, "validate", "--quiet", def)
	if n := strings.Count(r.stderr, "bddl: note: using the knowledge base"); n != 1 || !strings.Contains(r.stderr, corpus.KBDir(t)) {
		t.Errorf("want one note naming the tree's generated_data:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "[unknown-synset]") {
		t.Errorf("validated against the embedded knowledge base:\n%s", r.stderr)
	}
}
