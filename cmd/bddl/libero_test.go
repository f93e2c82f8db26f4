package main

import (
	"compress/gzip"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// checkJSONLines validates every line of text against the schema.
func checkJSONLines(t *testing.T, s *jsonschema.Schema, name, text string) {
	t.Helper()
	for i, line := range strings.Split(strings.TrimSuffix(text, "\n"), "\n") {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(line))
		if err != nil {
			t.Errorf("%s:%d: not JSON: %v", name, i+1, err)
			continue
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s:%d: does not match the schema: %v", name, i+1, err)
		}
	}
}

// liberoCorpus is the shared LIBERO definitions: $BDDL_LIBERO, else
// ../shared/libero from the repository root.
func liberoCorpus(t *testing.T) []string {
	t.Helper()
	dir := os.Getenv("BDDL_LIBERO")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "libero")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*", "*.bddl"))
	if len(files) == 0 {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no LIBERO definitions at %s (set BDDL_LIBERO)", dir)
		}
		t.Skipf("no LIBERO definitions at %s (set BDDL_LIBERO)", dir)
	}
	return files
}

var liberoErrors = filepath.Join("..", "..", "libero", "testdata", "errors")

// TestLiberoSampleThenCheckInit is the held-out check on the shared
// files: sample with seed 7, then check --init on the written file.
func TestLiberoSampleThenCheckInit(t *testing.T) {
	files := liberoCorpus(t)
	out := t.TempDir()
	args := []string{"sample", "--seed", "7", "-o", out, filepath.Dir(filepath.Dir(files[0]))}
	runBDDL(t, args...).wantCode(t, args, 0)
	written, _ := filepath.Glob(filepath.Join(out, "*", "*.jsonl"))
	if len(written) != len(files) {
		t.Fatalf("sample wrote %d episodes for %d definitions", len(written), len(files))
	}
	args = []string{"check", "--init", "--episode", out}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 0)
	if n := strings.Count(r.stdout, "\nTRUE   ") + strings.Count(r.stdout[:min(7, len(r.stdout))], "TRUE   "); n != len(files) {
		t.Errorf("check --init: %d episodes hold, want %d:\n%s", n, len(files), r.stdout)
	}
	// The table's columns line up however long the task names are.
	table := r.stdout[strings.Index(r.stdout, "ACTIVITY "):]
	lines := strings.Split(strings.TrimSpace(table), "\n")
	col := strings.Index(lines[0], "STATES")
	for _, l := range lines[1:] {
		if len(l) <= col || l[col-1] != ' ' || l[col] == ' ' {
			t.Errorf("column STATES at %d does not line up in %q", col, l)
		}
	}
	// The JSON report is the record check prints for BEHAVIOR-1K.
	args = append([]string{"check", "--format", "json"}, written[:5]...)
	r = runBDDL(t, args...)
	checkJSONLines(t, compileSchema(t, "result"), "check --format json", r.stdout)
	if !strings.Contains(r.stdout, `"init_ok":true`) {
		t.Errorf("check --format json: %s", r.stdout)
	}
	// Every line of a written episode matches the published schema.
	s := compileSchema(t, "libero-episode")
	for _, f := range written[:3] {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkJSONLines(t, s, f, string(data))
	}
}

func TestLiberoCheckInitNamesTheFailingAtom(t *testing.T) {
	def := filepath.Join(liberoErrors, "valid.bddl")
	abs, _ := filepath.Abs(def)
	ep := filepath.Join(t.TempDir(), "ep.jsonl")
	// The moka pot is 30 cm above its region: On fails.
	data := `{"format":"libero-episode","version":1,"definition":"` + abs + `"}
{"step":0,"bodies":{"moka_pot_1":{"pos":[0.05,0,1.3],"quat":[1,0,0,0]},"flat_stove_1":{"pos":[-0.2,0.2,0.93],"quat":[1,0,0,0]},"wooden_cabinet_1":{"pos":[0,-0.3,0.93],"quat":[1,0,0,0]}},"sites":{"kitchen_table_moka_init_region":{"pos":[0.05,0,0.9],"mat":[1,0,0,0,1,0,0,0,1],"size":[0.025,0.025,0.007]},"kitchen_table_stove_init_region":{"pos":[-0.2,0.2,0.9],"mat":[1,0,0,0,1,0,0,0,1],"size":[0.01,0.01,0.007]},"kitchen_table_cabinet_init_region":{"pos":[0,-0.3,0.9],"mat":[1,0,0,0,1,0,0,0,1],"size":[0.01,0.01,0.007]}},"joints":{"wooden_cabinet_1_top_region":[0.002]},"contacts":[]}
`
	if err := os.WriteFile(ep, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "--init", ep}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 1)
	// check --init's line, as for BEHAVIOR-1K states.
	if !strings.HasPrefix(r.stdout, "FALSE  ") || !strings.Contains(r.stdout, "(On moka_pot_1 kitchen_table_moka_init_region) is false [moka_pot_1 at") {
		t.Errorf("check --init does not name the failing atom:\n%s", r.stdout)
	}
	// A bad step is an error naming the line.
	if err := os.WriteFile(ep, []byte(strings.Replace(data, `"step":0`, `"step":"x"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 1)
	if !strings.HasPrefix(r.stdout, "ERROR  ") || !strings.Contains(r.stdout, "ep.jsonl:2: step") {
		t.Errorf("bad step not reported with its line: %s", r.stdout)
	}
}

func TestLiberoValidateReportsPositions(t *testing.T) {
	for _, tc := range []struct {
		file, want string
	}{
		{"undeclared_region.bddl", "undeclared_region.bddl:41:20: error: no region mokka_region on kitchen_table [libero-region-ref]"},
		{"missing_placement.bddl", "missing_placement.bddl:34:5: error: plate_1 has no placement in :init"},
		{"inverted_ranges.bddl", "[libero-range-inverted]"},
		{"unknown_names.bddl", "unknown predicate Ontop [libero-predicate]"},
		{"target_not_declared.bddl", "[libero-region-target]"},
	} {
		args := []string{"validate", filepath.Join(liberoErrors, tc.file)}
		r := runBDDL(t, args...)
		r.wantCode(t, args, 1)
		if !strings.Contains(r.stdout+r.stderr, tc.want) {
			t.Errorf("bddl validate %s: want %q in\n%s%s", tc.file, tc.want, r.stdout, r.stderr)
		}
	}
	args := []string{"validate", filepath.Join(liberoErrors, "valid.bddl")}
	r0 := runBDDL(t, args...)
	r0.wantCode(t, args, 0)
	// LIBERO uses no knowledge base, so none is loaded or named.
	if strings.Contains(r0.stderr, "knowledge base") {
		t.Errorf("bddl validate on a LIBERO file names a knowledge base:\n%s", r0.stderr)
	}
	args = []string{"validate", "--format", "json", filepath.Join(liberoErrors, "unknown_names.bddl")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 1)
	checkJSONLines(t, compileSchema(t, "finding"), "validate --format json", r.stdout)
	if strings.Count(r.stdout, "\n") != 3 || !strings.Contains(r.stdout, `"code":"libero-predicate"`) {
		t.Errorf("validate --format json:\n%s", r.stdout)
	}
}

func TestLiberoFmtExplainParse(t *testing.T) {
	def := filepath.Join(liberoErrors, "valid.bddl")
	r := runBDDL(t, "fmt", def)
	r.wantCode(t, []string{"fmt"}, 0)
	if !strings.Contains(r.stdout, "; A small valid LIBERO task") || !strings.Contains(r.stdout, "(:yaw_rotation (\n                (pi pi)") {
		t.Errorf("fmt lost a comment or a yaw expression:\n%s", r.stdout)
	}
	r = runBDDL(t, "explain", def)
	r.wantCode(t, []string{"explain"}, 0)
	for _, want := range []string{"put the moka pot on the stove", "moka pot 1 is on the cook region of flat stove 1", "flat stove 1 is turned on"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain lacks %q:\n%s", want, r.stdout)
		}
	}
	r = runBDDL(t, "explain", "--format", "json", def)
	checkJSONLines(t, compileSchema(t, "explain"), "explain --format json", r.stdout)
	r2 := runBDDL(t, "parse", "--format", "json", def)
	checkJSONLines(t, compileSchema(t, "parse"), "parse --format json", r2.stdout)
	var e struct {
		Instruction string   `json:"instruction"`
		Goal        []string `json:"goal"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &e); err != nil || e.Instruction != "put the moka pot on the stove" || len(e.Goal) != 2 {
		t.Errorf("explain --format json = %s (%v)", r.stdout, err)
	}
	// --dialect behavior1k reads a LIBERO file as BEHAVIOR-1K: errors.
	args := []string{"parse", "--dialect", "behavior1k", def}
	runBDDL(t, args...).wantCode(t, args, 1)
	args = []string{"parse", "--dialect", "libero", def}
	runBDDL(t, args...).wantCode(t, args, 0)
	args = []string{"parse", "--dialect", "pddl", def}
	runBDDL(t, args...).wantCode(t, args, 2)
}

func TestLiberoSampleJSONRecords(t *testing.T) {
	capacity := filepath.Join(t.TempDir(), "capacity.bddl")
	src, err := os.ReadFile(filepath.Join(liberoErrors, "capacity.bddl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(capacity, src, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"sample", "--format", "json", "-n", "2", "-o", t.TempDir(), filepath.Join(liberoErrors, "valid.bddl"), capacity}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 1)
	checkJSONLines(t, compileSchema(t, "sample"), "sample --format json", r.stdout)
	if strings.Count(r.stdout, `"status":"ok"`) != 2 || !strings.Contains(r.stdout, `"kind":"no-space","literal":"(On moka_pot_2 kitchen_table_moka_init_region)","objects":["moka_pot_2","moka_pot_1"]`) {
		t.Errorf("sample --format json:\n%s", r.stdout)
	}
}

func TestLiberoCheckGzipEpisode(t *testing.T) {
	files := liberoCorpus(t)
	out := t.TempDir()
	args := []string{"sample", "--seed", "3", "-o", out, files[0]}
	runBDDL(t, args...).wantCode(t, args, 0)
	written, _ := filepath.Glob(filepath.Join(out, "*.jsonl"))
	data, err := os.ReadFile(written[0])
	if err != nil {
		t.Fatal(err)
	}
	gz := written[0] + ".gz"
	f, err := os.Create(gz)
	if err != nil {
		t.Fatal(err)
	}
	zw := gzip.NewWriter(f)
	zw.Write(data)
	zw.Close()
	f.Close()
	args = []string{"check", "--init", gz}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 0)
	if !strings.HasPrefix(r.stdout, "TRUE   ") {
		t.Errorf("check --init on a gzip episode:\n%s%s", r.stdout, r.stderr)
	}
}

func TestLiberoCheckRefusesUnsupportedFlags(t *testing.T) {
	files := liberoCorpus(t)
	out := t.TempDir()
	args := []string{"sample", "-o", out, files[0]}
	runBDDL(t, args...).wantCode(t, args, 0)
	ep, _ := filepath.Glob(filepath.Join(out, "*.jsonl"))
	for _, flag := range [][]string{{"--per-step"}, {"--lenient"}, {"--hold", "0"}, {"--shard", "2/2"}} {
		args := append(append([]string{"check"}, flag...), ep...)
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitMisuse)
		// The flag as typed, not another spelling of it.
		if !strings.Contains(r.stderr, flag[0]) {
			t.Errorf("%v: stderr %q does not name %s", args, r.stderr, flag[0])
		}
	}
}

// TestLiberoCheckResumeAndShard: LIBERO check writes a results file with
// -o and resumes from it, and --shard I/N splits the episodes so that
// the shards cover each once; records name the task, not the
// definition's path, and match the result schema.
func TestLiberoCheckResumeAndShard(t *testing.T) {
	t.Parallel()
	def := filepath.Join(liberoErrors, "valid.bddl")
	eps := t.TempDir()
	args := []string{"sample", "-n", "6", "-o", eps, def}
	runBDDL(t, args...).wantCode(t, args, exitOK)
	results := filepath.Join(t.TempDir(), "r.jsonl")
	args = []string{"check", "--episode", eps, "-o", results}
	first := runBDDL(t, args...)
	if first.code == exitMisuse {
		t.Fatalf("%v: %s", args, first.stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(readFile(t, results))), "\n")
	if len(lines) != 6 {
		t.Fatalf("-o wrote %d lines, want 6", len(lines))
	}
	checkJSONLines(t, compileSchema(t, "result"), "-o results", strings.Join(lines, "\n"))
	for _, l := range lines {
		var rec struct{ Activity, Shard, Key string }
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatal(err)
		}
		if rec.Activity != "valid" || rec.Shard != "0/1" || rec.Key == "" {
			t.Errorf("results line %s", l)
		}
	}
	if !strings.Contains(first.stdout, "ACTIVITY") || !strings.Contains(first.stdout, "MEAN CHALLENGE") {
		t.Errorf("the summary is not check's table:\n%s", first.stdout)
	}
	again := runBDDL(t, args...)
	if again.code != first.code || !strings.Contains(again.stderr, "6 of 6 episodes already checked; checking 0") ||
		!strings.Contains(again.stdout, "(6 of the 6 episodes from earlier runs)") {
		t.Errorf("resumed run: exit %d, stdout %q, stderr %q", again.code, again.stdout, again.stderr)
	}
	if n := strings.Count(string(readFile(t, results)), "\n"); n != 6 {
		t.Errorf("the resumed run appended: %d lines", n)
	}
	seen := map[string]int{}
	for _, shard := range []string{"0/3", "1/3", "2/3"} {
		args := []string{"check", "--format", "json", "--episode", eps, "--shard", shard}
		r := runBDDL(t, args...)
		checkJSONLines(t, compileSchema(t, "result"), "check --shard", r.stdout)
		for _, l := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
			if l == "" {
				continue
			}
			var rec struct{ Episode string }
			if err := json.Unmarshal([]byte(l), &rec); err != nil {
				t.Fatal(err)
			}
			seen[rec.Episode]++
		}
	}
	if len(seen) != 6 {
		t.Errorf("the shards checked %d episodes, want 6: %v", len(seen), seen)
	}
	for ep, n := range seen {
		if n != 1 {
			t.Errorf("%s checked by %d shards", ep, n)
		}
	}
}

// TestLiberoMixedWithBehaviorRefused: LIBERO and BEHAVIOR-1K episodes in
// one run are refused, naming one of each (the BEHAVIOR-1K path stopped
// at the LIBERO header: "not a bddl episode header").
func TestLiberoMixedWithBehaviorRefused(t *testing.T) {
	files := liberoCorpus(t)
	out := t.TempDir()
	args := []string{"sample", "--seed", "3", "-o", out, files[0]}
	runBDDL(t, args...).wantCode(t, args, 0)
	written, _ := filepath.Glob(filepath.Join(out, "*.jsonl"))
	b1k := filepath.Join("..", "..", "activities", "examples", "cleaning_shoes", "episodes", "success.jsonl")
	for _, init := range []bool{true, false} {
		args = []string{"check", "--episode", written[0], "--episode", b1k}
		if init {
			args = append(args, "--init")
		}
		r := runBDDL(t, args...)
		r.wantCode(t, args, 2)
		if !strings.Contains(r.stderr, "cannot be checked in one run") || !strings.Contains(r.stderr, "success.jsonl") {
			t.Errorf("%v: %s", args, r.stderr)
		}
	}
}

// TestLiberoSampleRefusesUnsupportedFlags: sample's flags a LIBERO
// definition cannot honour are refused (exit 2, nothing written), not
// ignored: --svg wrote no drawing and said nothing.
func TestLiberoSampleRefusesUnsupportedFlags(t *testing.T) {
	t.Parallel()
	def := filepath.Join(liberoErrors, "valid.bddl")
	for _, flag := range [][]string{{"--svg"}, {"--goal"}, {"--scene", "Rs_int"}, {"--no-shrink"}, {"--sampling-lists", "none"}, {"--shard", "0/2"}} {
		out := filepath.Join(t.TempDir(), "out")
		args := append(append([]string{"sample", "-o", out}, flag...), def)
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitMisuse)
		if !strings.Contains(r.stderr, flag[0]+": not supported for LIBERO") {
			t.Errorf("%v: stderr %q", args, r.stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: wrote %s", args, out)
		}
	}
}

// TestLiberoSampleLinesAsBehavior: sample's text lines for LIBERO tasks
// are those of BEHAVIOR-1K configurations ("ok    NAME  FILE  MS ms",
// "FAIL  NAME  #K  REASON", the count), on stdout.
func TestLiberoSampleLinesAsBehavior(t *testing.T) {
	t.Parallel()
	capacity := filepath.Join(t.TempDir(), "capacity.bddl")
	writeFile(t, capacity, readFile(t, filepath.Join(liberoErrors, "capacity.bddl")))
	args := []string{"sample", "-n", "2", "-o", t.TempDir(), filepath.Join(liberoErrors, "valid.bddl"), capacity}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	lines := strings.Split(strings.TrimSpace(r.stdout), "\n")
	if len(lines) != 5 || !strings.HasPrefix(lines[0], "ok    valid  ") || !strings.HasSuffix(lines[0], " ms") ||
		!strings.HasPrefix(lines[2], "FAIL  capacity  #0  ") || lines[4] != "2 of 4 configurations sampled" {
		t.Errorf("sample's lines:\n%s", r.stdout)
	}
}
