package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
)

func execSample(t *testing.T, args ...string) (string, string, int) {
	t.Helper()
	var out, errw bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errw)
	return out.String(), errw.String(), code
}

// readTree reads every file under dir, keyed by relative path.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.Walk(dir, func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		out[rel] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestSampleThenCheck samples the embedded examples, and bddl check reads
// every file as is, with :init true at its first step.
func TestSampleThenCheck(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := execSample(t, "sample", "tidying_the_living_room", "cleaning_the_kitchen_counter", "-n", "3", "-o", dir, "--format", "json", "--svg")
	if code != 0 {
		t.Fatalf("sample exited %d: %s%s", code, out, errs)
	}
	recs := jsonResults(t, out)
	if len(recs) != 6 {
		t.Fatalf("%d records, want 6:\n%s", len(recs), out)
	}
	for _, r := range recs {
		if r["status"] != "ok" || r["file"] == "" || r["scene"] == "" {
			t.Fatalf("record %v", r)
		}
		if _, err := os.Stat(strings.TrimSuffix(r["file"].(string), ".jsonl") + ".svg"); err != nil {
			t.Errorf("no drawing next to %s: %v", r["file"], err)
		}
	}
	out, errs, _ = execSample(t, "check", "--format", "json", "--episode", dir)
	checked := jsonResults(t, out)
	if len(checked) != 6 {
		t.Fatalf("check read %d episodes, want 6: %s%s", len(checked), out, errs)
	}
	for _, c := range checked {
		if c["init_ok"] != true || c["error"] != nil {
			t.Errorf("check: %v", c)
		}
	}
}

// TestSampleJobsDeterminism: the same seed gives byte-identical files
// whatever --jobs.
func TestSampleJobsDeterminism(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		dir, jobs string
	}{{a, "1"}, {b, "3"}} {
		if out, errs, code := execSample(t, "sample", "tidying_the_living_room", "storing_groceries_and_leftovers", "-n", "5", "--seed", "42", "-o", c.dir, "--jobs", c.jobs, "--svg"); code != 0 {
			t.Fatalf("exit %d: %s%s", code, out, errs)
		}
	}
	ta, tb := readTree(t, a), readTree(t, b)
	if len(ta) != 22 || len(ta) != len(tb) { // 10 episodes, 10 drawings, 2 definitions
		t.Fatalf("%d and %d files", len(ta), len(tb))
	}
	for k, v := range ta {
		if tb[k] != v {
			t.Errorf("%s differs between --jobs 1 and --jobs 3", k)
		}
	}
}

func TestSampleMisuseAndFailure(t *testing.T) {
	if _, _, code := execSample(t, "sample", "tidying_the_living_room"); code != 2 {
		t.Errorf("without -o: exit %d, want 2", code)
	}
	if _, _, code := execSample(t, "sample", "-o", t.TempDir()); code != 2 {
		t.Errorf("without an activity: exit %d, want 2", code)
	}
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, code := execSample(t, "sample", "tidying_the_living_room", "-o", notDir); code != 2 {
		t.Errorf("-o a file: exit %d, want 2", code)
	}
	if _, _, code := execSample(t, "sample", "no_such_activity", "-o", t.TempDir()); code != 2 {
		t.Errorf("unknown activity: exit %d, want 2", code)
	}
	if _, _, code := execSample(t, "sample", "tidying_the_living_room", "--scene", "Nowhere", "-o", t.TempDir()); code != 2 {
		t.Errorf("unknown scene: exit %d, want 2", code)
	}
	// The laundry needs a utility room, which Studio_0 lacks.
	out, _, code := execSample(t, "sample", "doing_the_laundry", "--scene", "Studio_0", "-o", t.TempDir(), "--format", "json")
	recs := jsonResults(t, out)
	if code != 1 || len(recs) != 1 || recs[0]["status"] != "failed" {
		t.Fatalf("exit %d, records %v; want 1 and one failed record", code, recs)
	}
	reason, _ := recs[0]["reason"].(map[string]any)
	if reason["kind"] != "no-room" || !strings.Contains(reason["message"].(string), "utility_room") {
		t.Errorf("reason %v", reason)
	}
}

// TestSampleGoalThenCheck: a sampled goal state is a success to check.
func TestSampleGoalThenCheck(t *testing.T) {
	dir := t.TempDir()
	if out, errs, code := execSample(t, "sample", "--goal", "cleaning_shoes", "tidying_the_living_room", "-o", dir); code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	out, errs, code := execSample(t, "check", "--format", "json", "--episode", dir)
	recs := jsonResults(t, out)
	if code != 0 || len(recs) != 2 {
		t.Fatalf("check exit %d, %d records: %s%s", code, len(recs), out, errs)
	}
	for _, r := range recs {
		if r["success"] != true {
			t.Errorf("goal state not a success: %v", r)
		}
	}
}

// TestSampleSceneFile samples a reference task in the layout of its own
// scene file.
func TestSampleSceneFile(t *testing.T) {
	dir := corpus.OmniGibsonDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "cook_bacon", "*_template-partial_rooms.json"))
	if len(files) == 0 {
		t.Skip("no cook_bacon task folder in " + dir)
	}
	def := filepath.Join(corpus.OmniGibsonPackage(t).Activities, "cook_bacon", "problem0.bddl")
	out, errs, code := execSample(t, "sample", "--kb", corpus.KBDir(t), def,
		"--scene-file", files[0], "-o", t.TempDir(), "--format", "json")
	recs := jsonResults(t, out)
	if code != 0 || len(recs) != 1 || recs[0]["scene"] != "house_single_floor" {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	if _, _, code := execSample(t, "sample", "tidying_the_living_room", "--scene-file", filepath.Join(dir, "nope.json"), "-o", t.TempDir()); code != 2 {
		t.Errorf("a missing scene file: exit %d, want 2", code)
	}
}

// TestSampleAfter: --after samples the state before a rule fires in a
// scene and the state after; check finds the rule's outputs (the goal).
func TestSampleAfter(t *testing.T) {
	dir := t.TempDir()
	out, errs, code := execSample(t, "sample", "--after", "sugar_cookies", "-o", dir, "--format", "json", "--seed", "3")
	recs := jsonResults(t, out)
	if code != 0 || len(recs) != 1 || recs[0]["status"] != "ok" {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	file := recs[0]["file"].(string)
	if _, err := os.Stat(filepath.Join(filepath.Dir(file), "problem0.bddl")); err != nil {
		t.Fatalf("no definition next to the episode: %v", err)
	}
	out, errs, code = execSample(t, "check", "--format", "json", "--episode", file)
	checked := jsonResults(t, out)
	if code != 0 || len(checked) != 1 || checked[0]["success"] != true || checked[0]["init_ok"] != true {
		t.Fatalf("check: exit %d: %s%s", code, out, errs)
	}
	if _, _, code := execSample(t, "sample", "--after", "no_such_rule", "-o", t.TempDir()); code != 2 {
		t.Errorf("unknown rule: exit %d, want 2", code)
	}
	if _, _, code := execSample(t, "sample", "--after", "sugar_cookies", "tidying_the_living_room", "-o", t.TempDir()); code != 2 {
		t.Errorf("--after with a PATH: exit %d, want 2", code)
	}
}

// TestSampleShards: three shards of one run write, between them, exactly
// the files of the unsharded run, byte for byte, none twice, and every
// definition's -n configurations land in one shard.
func TestSampleShards(t *testing.T) {
	examples := []string{"tidying_the_living_room", "cleaning_shoes", "cleaning_the_kitchen_counter",
		"storing_groceries_and_leftovers", "slicing_apples_for_a_snack", "making_a_smoothie"}
	sample := func(dir string, extra ...string) {
		t.Helper()
		args := append([]string{"sample", "-n", "2", "--seed", "5", "-o", dir}, examples...)
		if out, errs, code := execSample(t, append(args, extra...)...); code != 0 {
			t.Fatalf("%v: exit %d: %s%s", extra, code, out, errs)
		}
	}
	whole := t.TempDir()
	sample(whole)
	all := readTree(t, whole)
	if len(all) != 3*len(examples) { // 2 episodes and a definition each
		t.Fatalf("single run wrote %d files, want %d", len(all), 3*len(examples))
	}
	union := map[string]string{}
	owner := map[string]int{} // activity directory -> shard
	nonEmpty := 0
	for i := 0; i < 3; i++ {
		dir := t.TempDir()
		sample(dir, "--shard", fmt.Sprintf("%d/3", i))
		files := readTree(t, dir)
		if len(files) > 0 {
			nonEmpty++
		}
		for rel, body := range files {
			if _, dup := union[rel]; dup {
				t.Errorf("%s written by two shards", rel)
			}
			union[rel] = body
			act := filepath.Dir(rel)
			if s, ok := owner[act]; ok && s != i {
				t.Errorf("%s split across shards %d and %d", act, s, i)
			}
			owner[act] = i
		}
	}
	if nonEmpty < 2 {
		t.Errorf("only %d of 3 shards did any work: the hash does not spread %d definitions", nonEmpty, len(examples))
	}
	if len(union) != len(all) {
		t.Errorf("shards wrote %d files, the single run %d", len(union), len(all))
	}
	for rel, body := range all {
		if got, ok := union[rel]; !ok {
			t.Errorf("%s missing from the shards", rel)
		} else if got != body {
			t.Errorf("%s differs between the sharded and the single run", rel)
		}
	}
}

// TestSampleShardEmptyAndBad: a shard holding no definition says so and
// exits 0; a malformed --shard is misuse.
func TestSampleShardEmptyAndBad(t *testing.T) {
	dir := t.TempDir()
	// One definition: of two shards exactly one holds it.
	var empty int
	for i := 0; i < 2; i++ {
		out, errs, code := execSample(t, "sample", "cleaning_shoes", "-o", dir, "--shard", fmt.Sprintf("%d/2", i))
		if code != 0 {
			t.Fatalf("shard %d/2: exit %d: %s%s", i, code, out, errs)
		}
		if strings.Contains(errs, "holds none of the activity definitions") {
			empty++
		}
	}
	if empty != 1 {
		t.Errorf("%d of 2 shards were empty, want 1", empty)
	}
	if _, errs, code := execSample(t, "sample", "cleaning_shoes", "-o", dir, "--shard", "3/3"); code != 2 || !strings.Contains(errs, "--shard") {
		t.Errorf("--shard 3/3: exit %d, %q; want 2 naming --shard", code, errs)
	}
}

// TestSampleShrunkReport: objects shrunk to fit are listed in the JSON
// record and in the text report; --no-shrink samples none, failing with
// no-space where an object fits only shrunk.
func TestSampleShrunkReport(t *testing.T) {
	kbDir := corpus.KBDir(t)
	def := filepath.Join(t.TempDir(), "sheets", "problem0.bddl")
	if err := os.MkdirAll(filepath.Dir(def), 0o755); err != nil {
		t.Fatal(err)
	}
	src := `(define (problem sheets-0) (:domain omnigibson)
 (:objects cookie_sheet.n.01_1 cookie_sheet.n.01_2 cookie_sheet.n.01_3 - cookie_sheet.n.01 countertop.n.01_1 - countertop.n.01 floor.n.01_1 - floor.n.01 agent.n.01_1 - agent.n.01)
 (:init (ontop cookie_sheet.n.01_1 countertop.n.01_1) (ontop cookie_sheet.n.01_2 countertop.n.01_1) (ontop cookie_sheet.n.01_3 countertop.n.01_1)
  (inroom countertop.n.01_1 kitchen) (inroom floor.n.01_1 kitchen) (ontop agent.n.01_1 floor.n.01_1))
 (:goal (and (real agent.n.01_1))))
`
	if err := os.WriteFile(def, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, code := execSample(t, "sample", def, "--kb", kbDir, "-n", "30", "-o", t.TempDir(), "--format", "json")
	if code == 2 {
		t.Fatalf("exit 2: %s", errs)
	}
	shrunk := 0
	for _, r := range jsonResults(t, out) {
		if s, ok := r["shrunk"].([]any); ok && len(s) > 0 {
			shrunk++
			first := s[0].(map[string]any)
			if f := first["factor"].(float64); f < 0.5 || f >= 1 || first["object"] == "" {
				t.Errorf("shrunk entry %v", first)
			}
		}
	}
	if shrunk == 0 {
		t.Skip("no configuration needed shrinking")
	}
	text, _, _ := execSample(t, "sample", def, "--kb", kbDir, "-n", "30", "-o", t.TempDir())
	if !strings.Contains(text, "shrunk to fit: cookie_sheet.n.01_") {
		t.Errorf("text report lacks the shrunk line:\n%s", text)
	}
	out, _, _ = execSample(t, "sample", def, "--kb", kbDir, "-n", "30", "-o", t.TempDir(), "--format", "json", "--no-shrink")
	for _, r := range jsonResults(t, out) {
		if _, ok := r["shrunk"]; ok {
			t.Errorf("--no-shrink: %v", r)
		}
		if r["status"] == "failed" {
			if reason, _ := r["reason"].(map[string]any); reason["kind"] != "no-space" && reason["kind"] != "no-scene" {
				t.Errorf("--no-shrink failure %v, want no-space", reason)
			}
		}
	}
}

// TestSampleSamplingLists: --sampling-lists FILE applies a whitelist to
// the task it names (a bounding box rescales the model, recorded in
// meta.sampler.model_scales), --sampling-lists none turns the lists off,
// and a malformed file or a directory is a usage error naming file and
// key.
func TestSampleSamplingLists(t *testing.T) {
	tmp := t.TempDir()
	lists := filepath.Join(tmp, "lists.json")
	if err := os.WriteFile(lists, []byte(`{"tidying_the_living_room": {"room_types": ["living_room"],
  "any_scene": {"whitelist": {"mug.n.04": {"mug": {"ppzttc": [0.2, 0.2, 0.3]}}}, "blacklist": {}}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dirs := map[string]string{}
	modelScales := func(dir string) map[string][3]float64 {
		t.Helper()
		files, _ := filepath.Glob(filepath.Join(dir, "tidying_the_living_room", "*.jsonl"))
		if len(files) != 1 {
			t.Fatalf("%d episodes in %s", len(files), dir)
		}
		b, err := os.ReadFile(files[0])
		if err != nil {
			t.Fatal(err)
		}
		var h struct {
			Meta struct {
				Sampler struct {
					Models      map[string]string     `json:"models"`
					ModelScales map[string][3]float64 `json:"model_scales"`
					Lists       string                `json:"sampling_lists"`
				} `json:"sampler"`
			} `json:"meta"`
		}
		if err := json.Unmarshal([]byte(strings.SplitN(string(b), "\n", 2)[0]), &h); err != nil {
			t.Fatal(err)
		}
		if h.Meta.Sampler.Models["mug.n.04_1"] != "mug-ppzttc" {
			t.Fatalf("the mug is %q", h.Meta.Sampler.Models["mug.n.04_1"])
		}
		if listed := dir == dirs[lists]; listed != strings.HasPrefix(h.Meta.Sampler.Lists, "sha256:") {
			t.Fatalf("meta.sampler.sampling_lists %q (lists naming the task: %v)", h.Meta.Sampler.Lists, listed)
		}
		return h.Meta.Sampler.ModelScales
	}
	for _, c := range []string{"", "none", lists} {
		dir := t.TempDir()
		args := []string{"sample", "tidying_the_living_room", "-o", dir}
		if c != "" {
			args = append(args, "--sampling-lists", c)
		}
		if out, errs, code := execSample(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s%s", args, code, out, errs)
		}
		dirs[c] = dir
	}
	mug, ok := kb.Default().ModelByName("mug-ppzttc")
	if !ok || !mug.HasSize {
		t.Fatal("no mug-ppzttc with a size in the embedded knowledge base")
	}
	sc := modelScales(dirs[lists])["mug.n.04_1"]
	for k, want := range [3]float64{0.2 / mug.Size[0], 0.2 / mug.Size[1], 0.3 / mug.Size[2]} {
		if math.Abs(sc[k]-want) > 1e-6 {
			t.Fatalf("the listed mug's model scale %v, want the box over the inventory's %v", sc, mug.Size)
		}
	}
	if ms := modelScales(dirs[""]); ms["mug.n.04_1"] != ([3]float64{}) {
		t.Fatalf("without lists naming the task the mug is rescaled: %v", ms)
	}
	a, b := readTree(t, dirs[""]), readTree(t, dirs["none"])
	if len(a) == 0 || !maps.Equal(a, b) {
		t.Fatal("--sampling-lists none differs from the embedded lists for a task they do not name")
	}
	bad := filepath.Join(tmp, "bad.json")
	if err := os.WriteFile(bad, []byte(`{"t": {"s": {"whitelist": {"a.n.01": {"c": {"m": [1, 2]}}}, "blacklist": null}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{bad, bad + `: "t"."s".whitelist."a.n.01"."c"."m": want null, a scale`},
		{tmp, "--sampling-lists"},
		{filepath.Join(tmp, "missing.json"), "missing.json"},
	} {
		_, errs, code := execSample(t, "sample", "tidying_the_living_room", "-o", t.TempDir(), "--sampling-lists", c.path)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("--sampling-lists %s: exit %d, stderr %q; want 2 and %q", c.path, code, errs, c.want)
		}
	}
}

// TestSampleJobsDeterminismListed: tasks the embedded sampling lists
// name, laid out in the BEHAVIOR-1K scenes, give byte-identical files
// whatever --jobs, and record the lists' digest.
func TestSampleJobsDeterminismListed(t *testing.T) {
	dir := corpus.Dir(t)
	a, b := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		dir, jobs string
	}{{a, "1"}, {b, "3"}} {
		args := []string{"sample", "--kb", corpus.KBDir(t), "-n", "4", "--seed", "3", "-o", c.dir, "--jobs", c.jobs}
		for _, act := range []string{"cook_bacon", "freeze_pies", "hiding_Easter_eggs"} {
			args = append(args, filepath.Join(dir, "activity_definitions", act))
		}
		if out, errs, code := execSample(t, args...); code != 0 {
			t.Fatalf("exit %d: %s%s", code, out, errs)
		}
	}
	ta, tb := readTree(t, a), readTree(t, b)
	if len(ta) < 12 || !maps.Equal(ta, tb) {
		t.Fatalf("%d and %d files, or they differ between --jobs 1 and --jobs 3", len(ta), len(tb))
	}
	for k, v := range ta {
		if strings.HasSuffix(k, ".jsonl") && !strings.Contains(v, `"sampling_lists":"sha256:`) {
			t.Errorf("%s records no sampling lists", k)
		}
	}
}
