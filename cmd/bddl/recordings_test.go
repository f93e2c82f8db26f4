package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openbddl/bddl/episode/dora/doratest"
)

// The Oopsie fixtures of episode/oopsie (make_fixtures.py there): a
// session of three episodes with object tracks, a map and the activity.
const oopsieData = "../../episode/oopsie/testdata"

// copyTree copies a directory's regular files (one level) into dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if !e.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// oopsieSession copies the session, its map and activity into a
// temporary directory.
func oopsieSession(t *testing.T) (dir, session, mapFile string) {
	t.Helper()
	dir = t.TempDir()
	copyTree(t, filepath.Join(oopsieData, "session"), filepath.Join(dir, "session"))
	for _, f := range []string{"robot.yaml", "putting_the_apple_on_the_table.bddl"} {
		b, err := os.ReadFile(filepath.Join(oopsieData, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir, filepath.Join(dir, "session"), filepath.Join(dir, "robot.yaml")
}

func TestRecordingsOopsie(t *testing.T) {
	_, session, mapFile := oopsieSession(t)
	ep := func(n string) string { return filepath.Join(session, n) }

	args := []string{"check", "--format", "json", "--episode", session, "--map", mapFile}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 1)
	lines := jsonResults(t, r.stdout)
	want := []struct {
		name    string
		success bool
	}{{"ep_biarm.h5", false}, {"ep_noannot.h5", true}, {"ep_single.h5", true}}
	if len(lines) != len(want) {
		t.Fatalf("%d result lines, want %d (tracks are not episodes):\n%s", len(lines), len(want), r.stdout)
	}
	for i, w := range want {
		l := lines[i]
		if l["episode"] != ep(w.name) || l["success"] != w.success || l["layout"] != "oopsie" ||
			l["language_instruction"] != "put the apple on the table" || l["lab_id"] != "test_lab" {
			t.Errorf("line %d: %v", i, l)
		}
	}
	args = []string{"check", "--episode", ep("ep_single.h5"), "--map", mapFile}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
	if !strings.Contains(r.stdout, `ep_single.h5: "put the apple on the table"`) {
		t.Errorf("the language instruction is not shown:\n%s", r.stdout)
	}

	// --init refuses recordings by name instead of failing on their
	// bytes as episode lines
	args = []string{"check", "--init", "--episode", session, "--map", mapFile}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 2)
	if !strings.Contains(r.stderr, "--init does not read Oopsie or Dora-record recordings") {
		t.Errorf("check --init on recordings: %s", r.stderr)
	}

	// before annotating, bddl has judged nothing: no table of zeros
	// (nor an empty JSON line) on stdout, only the error
	for _, format := range []string{"text", "json"} {
		args = []string{"annotations", "compare", session, "--against", "human", "--format", format}
		r = runBDDL(t, args...)
		r.wantCode(t, args, 1)
		if r.stdout != "" || !strings.Contains(r.stderr, "no episode among 3 is annotated by both bddl and human") {
			t.Errorf("compare with no bddl annotation, %s: stdout %q, stderr %q", format, r.stdout, r.stderr)
		}
	}

	// annotate, then compare with the people
	args = []string{"annotate", session, "--map", mapFile, "--annotator", "bddl", "--format", "json"}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
	for i, l := range jsonResults(t, r.stdout) {
		ts, _ := l["timestamp"].(string)
		if _, err := time.Parse(time.RFC3339, ts); err != nil || l["error"] != nil || l["success"] != map[bool]float64{true: 1, false: 0}[want[i].success] {
			t.Errorf("annotation %d: %v", i, l)
		}
	}
	if l := jsonResults(t, r.stdout)[0]; l["failure_description"] != "apple 1 is not on top of table 1" ||
		fmt.Sprint(l["taxonomy"]) != "map[failure_category:goal-not-reached severity:0.5]" {
		t.Errorf("the failure's annotation: %v", l)
	}
	args = []string{"annotations", "compare", session, "--against", "human", "--format", "json"}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
	pairs := jsonResults(t, r.stdout)
	if len(pairs) != 2 || pairs[0]["against"] != "human_alice" || fmt.Sprint(pairs[0]["matrix"]) != "[[1 0] [0 1]]" || pairs[0]["kappa"] != 1.0 ||
		pairs[1]["against"] != "human_bob" || fmt.Sprint(pairs[1]["matrix"]) != "[[0 1] [0 0]]" || pairs[1]["raw_agreement"] != 0.0 {
		t.Fatalf("compare:\n%s", r.stdout)
	}
	if d := pairs[1]["disagreements"].([]any); len(d) != 1 || d[0].(map[string]any)["b_description"] != "the apple slipped" {
		t.Errorf("disagreements %v", d)
	}

	// a second annotation is refused, one with --force replaces
	args = []string{"annotate", ep("ep_noannot.h5"), "--map", mapFile}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 1)
	if !strings.Contains(r.stderr, "already annotated by bddl") {
		t.Errorf("stderr: %s", r.stderr)
	}
	r = runBDDL(t, append(args, "--force")...)
	r.wantCode(t, append(args, "--force"), 0)

	// the episodes written are the ones checked
	out := t.TempDir()
	args = []string{"episode", "from-oopsie", session, "--map", mapFile, "-o", out}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
	// The definition beside them is named as sample and convert name it:
	// <activity>.bddl, not <problem name>.bddl.
	if defs, _ := filepath.Glob(filepath.Join(out, "*.bddl")); len(defs) != 1 || filepath.Base(defs[0]) != "putting_the_apple_on_the_table.bddl" {
		t.Errorf("definition copies %v, want putting_the_apple_on_the_table.bddl", defs)
	}
	args = []string{"check", "--format", "json", "--activity", filepath.Join(oopsieData, "putting_the_apple_on_the_table.bddl"), "--episode", out}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 1)
	for i, l := range jsonResults(t, r.stdout) {
		if l["success"] != want[i].success {
			t.Errorf("converted %d: %v", i, l)
		}
	}
	// with no --activity: the definition copied beside them is found,
	// also for a single episode written to a new directory
	args = []string{"check", "--format", "json", "--episode", out}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 1)
	for i, l := range jsonResults(t, r.stdout) {
		if l["success"] != want[i].success || l["error"] != nil {
			t.Errorf("converted %d, no --activity: %v", i, l)
		}
	}
	one := filepath.Join(t.TempDir(), "new", "one.jsonl")
	args = []string{"episode", "from-oopsie", ep("ep_single.h5"), "--map", mapFile, "-o", one}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
	args = []string{"check", "--episode", one}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
}

func TestRecordingsMisuse(t *testing.T) {
	_, session, mapFile := oopsieSession(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"episode", "from-oopsie", session, "--map", mapFile}, "no output"},
		{[]string{"episode", "from-oopsie", session, "--map", mapFile, "-o", t.TempDir(), "--objects", "x.jsonl"}, "single episode"},
		{[]string{"episode", "from-oopsie", session, "-o", t.TempDir()}, "no activity"},
		{[]string{"check", "--episode", session, "--map", mapFile, "--objects", "x.jsonl"}, "single recording"},
		{[]string{"check", "--episode", session, "--episode", filepath.Join(roboLabData, "run_0.hdf5"), "--map", mapFile}, "cannot be checked in one run"},
		{[]string{"annotate", session, "--map", mapFile, "--annotator", "a/b"}, "--annotator"},
		{[]string{"annotations", "compare", t.TempDir()}, "no Oopsie or Dora-record recording"},
	} {
		r := runBDDL(t, tc.args...)
		r.wantCode(t, tc.args, 2)
		if !strings.Contains(r.stderr, tc.want) {
			t.Errorf("bddl %s: stderr %q, want %q", strings.Join(tc.args, " "), r.stderr, tc.want)
		}
	}
}

// doraSession writes a Dora-record session of two episodes (the robot
// walks into the kitchen; the apple is lifted onto the table in the first
// only), their tracks and a human's annotations (agreeing on the first).
func doraSession(t *testing.T) (session, mapFile string) {
	t.Helper()
	dir := t.TempDir()
	session = filepath.Join(dir, "dora-record", "session_1")
	const t0 = 1_750_000_000.0
	for i, lifted := range []bool{true, false} {
		ep := filepath.Join(session, fmt.Sprintf("episode_%09d", i))
		err := doratest.Write(ep, doratest.Spec{Start: t0, Duration: 4, RowGroup: 64,
			Base:    func(t float64) (float64, float64, float64) { return -2 + (t - t0), 1, 0 },
			Gripper: func(t float64) float64 { return map[bool]float64{true: 1, false: 0}[t-t0 > 2] }})
		if err != nil {
			t.Fatal(err)
		}
		var track strings.Builder
		for k := 0; k <= 40; k++ {
			tt := t0 + float64(k)/10
			x, z := 2.5, 0.0
			if lifted && k >= 30 {
				x, z = 1.0, 0.8
			}
			fmt.Fprintf(&track, `{"t": %.3f, "objects": {"apple": {"aabb": [%g, 0.96, %g, %g, 1.04, %g]}}}`+"\n", tt, x-0.04, z, x+0.04, z+0.08)
		}
		if err := os.WriteFile(ep+".objects.jsonl", []byte(track.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		human := fmt.Sprintf(`{"source": "human", "timestamp": "2026-01-01T00:00:00Z", "success": %d, "failure_description": "", "taxonomy": "{}"}`, 1)
		if err := os.WriteFile(filepath.Join(ep, "human_annotation.json"), []byte(human), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	act, err := os.ReadFile(filepath.Join(oopsieData, "putting_the_apple_on_the_table.bddl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "putting_the_apple_on_the_table.bddl"), act, 0o644); err != nil {
		t.Fatal(err)
	}
	mapFile = filepath.Join(dir, "robot.yaml")
	m := `activity: putting_the_apple_on_the_table.bddl
agent:
  gripper: observation.state:left_gripper
names:
  apple: apple.n.01_1
rooms:
  kitchen_0: [-1, -1, 4, 3]
  corridor_0: [-4, -1, -1, 3]
static:
  table.n.02_1: {aabb: [0.6, 0.6, 0, 1.4, 1.4, 0.8], room: kitchen_0}
  floor.n.01_1: {aabb: [-4, -1, -0.05, 4, 3, 0], room: kitchen_0}
`
	if err := os.WriteFile(mapFile, []byte(m), 0o644); err != nil {
		t.Fatal(err)
	}
	return session, mapFile
}

func TestRecordingsDora(t *testing.T) {
	session, mapFile := doraSession(t)
	args := []string{"check", "--format", "json", "--episode", session, "--map", mapFile}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 1)
	lines := jsonResults(t, r.stdout)
	if len(lines) != 2 || lines[0]["success"] != true || lines[1]["success"] != false || lines[0]["layout"] != "dora-record" {
		t.Fatalf("check:\n%s\n%s", r.stdout, r.stderr)
	}
	args = []string{"annotate", session, "--map", mapFile, "--format", "json"}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
	// the layout is spelt as check spells it
	for _, l := range jsonResults(t, r.stdout) {
		if l["layout"] != "dora-record" {
			t.Errorf("annotate's record: layout %v, want dora-record", l["layout"])
		}
	}
	b, err := os.ReadFile(filepath.Join(session, "episode_000000001", "bddl_annotation.json"))
	if err != nil {
		t.Fatal(err)
	}
	var a map[string]any
	if err := json.Unmarshal(b, &a); err != nil || a["source"] != "bddl" || a["success"] != 0.0 || a["failure_description"] != "apple 1 is not on top of table 1" {
		t.Fatalf("bddl_annotation.json: %s", b)
	}
	args = []string{"annotations", "compare", session, "--against", "human"}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
	if !strings.Contains(r.stdout, "bddl vs human: 2 episodes") || !strings.Contains(r.stdout, "raw agreement 0.500, Cohen's kappa 0.000") ||
		!strings.Contains(r.stdout, "episode_000000001: bddl failure (\"apple 1 is not on top of table 1\"); human success") {
		t.Fatalf("compare:\n%s", r.stdout)
	}
	out := filepath.Join(t.TempDir(), "ep0.jsonl")
	args = []string{"episode", "from-dora", filepath.Join(session, "episode_000000000"), "--map", mapFile, "-o", out}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
	text := string(readFile(t, out))
	// the agent walks from the corridor into the kitchen, its gripper closes
	for _, w := range []string{`"room":"corridor_0"`, `"room":"kitchen_0"`, `"grasped_by":""`, `"grasped_by":null`} {
		if !strings.Contains(text, w) {
			t.Errorf("the episode has no %s", w)
		}
	}
}

func TestRecordingsDoraGap(t *testing.T) {
	session, mapFile := doraSession(t)
	// the second episode loses its base state between 1 s and 2.5 s
	ep := filepath.Join(session, "episode_000000001")
	err := doratest.Write(ep, doratest.Spec{Start: 1_750_000_000, Duration: 4, GapFrom: 1_750_000_001, GapTo: 1_750_000_002.5})
	if err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "--format", "json", "--episode", session, "--map", mapFile}
	r := runBDDL(t, args...)
	r.wantCode(t, args, 1)
	lines := jsonResults(t, r.stdout)
	if len(lines) != 2 || lines[0]["error"] != nil {
		t.Fatalf("check:\n%s", r.stdout)
	}
	msg, _ := lines[1]["error"].(string)
	if lines[1]["success"] != false || !strings.Contains(msg, "observation.base_state: sample 61: a gap of 1.5") {
		t.Fatalf("the gap: %v", lines[1])
	}
	// from-dora names the episode whose stream has the gap, and writes
	// the others with the definition beside them
	out := t.TempDir()
	args = []string{"episode", "from-dora", session, "--map", mapFile, "-o", out}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 1)
	if !strings.Contains(r.stderr, "bddl: "+ep+": observation.base_state: sample 61: a gap of 1.5") {
		t.Errorf("from-dora does not name the episode of the gap:\n%s", r.stderr)
	}
	args = []string{"check", "--episode", out}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
	// annotate calls it undetermined
	args = []string{"annotate", ep, "--map", mapFile, "--format", "json"}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 0)
	if l := jsonResults(t, r.stdout)[0]; fmt.Sprint(l["taxonomy"]) != "map[failure_category:undetermined severity:1]" ||
		!strings.Contains(fmt.Sprint(l["failure_description"]), "a gap of") {
		t.Fatalf("annotation: %v", l)
	}
}

// TestRecordingsTruncatedOopsie: a truncated episode in a session is
// reported truncated, the others checked (it was taken for a RoboLab run
// file: "cannot be checked in one run", or the map refused).
func TestRecordingsTruncatedOopsie(t *testing.T) {
	_, session, mapFile := oopsieSession(t)
	b, err := os.ReadFile(filepath.Join(oopsieData, "bad", "truncated.h5"))
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(session, "ep_cut.h5")
	if err := os.WriteFile(cut, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, ep := range []string{session, cut} {
		args := []string{"check", "--format", "json", "--episode", ep, "--map", mapFile}
		r := runBDDL(t, args...)
		r.wantCode(t, args, 1)
		found := false
		for _, l := range jsonResults(t, r.stdout) {
			if l["episode"] == cut {
				msg, _ := l["error"].(string)
				found = strings.Contains(msg, "truncated: the file has")
			}
		}
		if !found {
			t.Errorf("%s: the truncated episode is not reported truncated:\n%s%s", ep, r.stdout, r.stderr)
		}
	}
}

// TestRecordingsDoraParquetBomb: a stream whose 21-byte footer declares
// 2³¹−1 schema elements (parquet-go pre-sizes a slice from it: Go's
// unrecoverable out-of-memory) is an error for its episode; the others
// are checked, converted and annotated.
func TestRecordingsDoraParquetBomb(t *testing.T) {
	session, mapFile := doraSession(t)
	bomb := []byte("PAR1\x29\xfc\xff\xff\xff\xff\x07\x00\x08\x00\x00\x00PAR1")
	if err := os.WriteFile(filepath.Join(session, "episode_000000000", "observation.state.parquet"), bomb, 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"check", "--format", "json", "--episode", session, "--map", mapFile}
	r := runBDDL(t, args...)
	lines := jsonResults(t, r.stdout)
	if len(lines) != 2 || !strings.Contains(fmt.Sprint(lines[0]["error"]), "the schema declares 2147483647 elements") || lines[1]["error"] != nil {
		t.Fatalf("check:\n%s\n%s", r.stdout, r.stderr)
	}
	args = []string{"annotate", session, "--map", mapFile, "--format", "json"}
	r = runBDDL(t, args...)
	if _, err := os.Stat(filepath.Join(session, "episode_000000001", "bddl_annotation.json")); err != nil {
		t.Fatalf("annotate stopped at the bomb:\n%s\n%s", r.stdout, r.stderr)
	}
	out := t.TempDir()
	args = []string{"episode", "from-dora", session, "--map", mapFile, "-o", out}
	r = runBDDL(t, args...)
	r.wantCode(t, args, 1)
	if !strings.Contains(r.stderr, "the schema declares 2147483647 elements") {
		t.Errorf("from-dora:\n%s", r.stderr)
	}
}

// TestRecordingsNotHDF5InSession: a file named .h5 that is no HDF5 in a
// session of Oopsie episodes is one error record; the others are
// checked and annotated (the batch was a misuse, exit 2: "RoboLab run
// files and Oopsie/Dora recordings cannot be checked in one run").
func TestRecordingsNotHDF5InSession(t *testing.T) {
	t.Parallel()
	dir, session, mapFile := oopsieSession(t)
	_ = dir
	if err := os.WriteFile(filepath.Join(session, "ep_junk.h5"), []byte("junk"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"check", "--format", "json", "--episode", session, "--map", mapFile},
		{"annotate", session, "--map", mapFile, "--format", "json"},
	} {
		r := runBDDL(t, args...)
		r.wantCode(t, args, 1)
		lines := jsonResults(t, r.stdout)
		errs := 0
		for _, l := range lines {
			if l["error"] != nil {
				errs++
				if !strings.Contains(fmt.Sprint(l["episode"]), "ep_junk.h5") {
					t.Errorf("%s: an error for %v", args[0], l["episode"])
				}
			}
		}
		if len(lines) != 4 || errs != 1 {
			t.Fatalf("%s: %d records, %d errors:\n%s\n%s", args[0], len(lines), errs, r.stdout, r.stderr)
		}
	}
}
