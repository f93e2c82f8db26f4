package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
)

// TestCheckTransitions: the smoothie episode recorded with rules off
// fails as recorded and succeeds with --transitions, which reports the
// firing with its step.
func TestCheckTransitions(t *testing.T) {
	ep := examplePath("making_a_smoothie", "rules-off.jsonl")
	args := []string{"check", "--format", "json", "--episode", ep}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	args = []string{"check", "--transitions", "--format", "json", "--episode", ep}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	res := jsonResults(t, r.stdout)
	if len(res) != 1 || res[0]["success"] != true {
		t.Fatalf("results %v", res)
	}
	firings, _ := res[0]["firings"].([]any)
	if len(firings) != 1 {
		t.Fatalf("firings %v, want one", res[0]["firings"])
	}
	f := firings[0].(map[string]any)
	if f["step"] != 3.0 || f["rule"] != "strawberry_smoothie" || f["family"] != "single_toggleable_machine" {
		t.Errorf("firing %v", f)
	}
	args = []string{"check", "--transitions", "--episode", ep}
	r = runBDDL(t, args...)
	if !strings.Contains(r.stdout, "step 3  single_toggleable_machine strawberry_smoothie in blender.n.01_1") {
		t.Errorf("the text report does not list the firing:\n%s", r.stdout)
	}
}

// TestApplyRules: the rewritten episode checks without --transitions as
// the original does with it.
func TestApplyRules(t *testing.T) {
	out := filepath.Join(t.TempDir(), "with-rules.jsonl")
	args := []string{"episode", "apply-rules", examplePath("making_a_smoothie", "rules-off.jsonl"), "-o", out,
		"--activity", filepath.Join(examples, "making_a_smoothie", "problem0.bddl")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if !strings.Contains(r.stderr, "step 3: single_toggleable_machine strawberry_smoothie") {
		t.Errorf("stderr does not list the firing: %s", r.stderr)
	}
	args = []string{"check", "--format", "json", "--activity", "making_a_smoothie", "--episode", out}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	// An episode in which no rule fires is written unchanged, and the
	// command says so.
	none := filepath.Join(t.TempDir(), "none.jsonl")
	args = []string{"episode", "apply-rules", examplePath("cleaning_shoes", "success.jsonl"), "-o", none}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if !strings.Contains(r.stderr, "no transition rule fired") {
		t.Errorf("stderr: %s", r.stderr)
	}
	args = []string{"episode", "apply-rules", out}
	runBDDL(t, args...).wantCode(t, args, exitMisuse)
	// A bad line is a finding naming the line; OUT is not written.
	dir := t.TempDir()
	badEp := filepath.Join(dir, "bad.jsonl")
	src := strings.Replace(string(readFile(t, examplePath("making_a_smoothie", "rules-off.jsonl"))), `{"step":3,`, `{"step":3,"objects":{"nosuch.n.01_1":{}},`, 1)
	if err := os.WriteFile(badEp, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	badOut := filepath.Join(dir, "out.jsonl")
	args = []string{"episode", "apply-rules", badEp, "-o", badOut}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if !strings.Contains(r.stderr, "bad.jsonl:5: step 3") {
		t.Errorf("the error does not name the line: %s", r.stderr)
	}
	if _, err := os.Stat(badOut); err == nil {
		t.Error("OUT was written for a bad recording")
	}
}

func TestTransitionList(t *testing.T) {
	args := []string{"transition", "list", "--format", "json"}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	families := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		families[rec["family"].(string)]++
	}
	for _, f := range []string{"heat_cook", "single_toggleable_machine", "mixing_stick", "substance_cooking",
		"substance_watercooking", "washer", "slicing", "dicing", "melting", "dryer"} {
		if families[f] == 0 {
			t.Errorf("no %s rule in the default knowledge base's list", f)
		}
	}
	args = []string{"transition", "list", "--synset", "apple.n.01"}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if !strings.Contains(r.stdout, "slicing apple.n.01-slicing") {
		t.Errorf("--synset apple.n.01 lacks the slicing rule:\n%s", r.stdout)
	}
	for _, bad := range [][]string{{"transition", "list", "--family", "baking"}, {"transition", "list", "--synset", "nosuch.n.01"},
		{"transition", "explain", "nosuch"}, {"transition", "sample", "sugar_cookies", "--variant", "odd"}} {
		runBDDL(t, bad...).wantCode(t, bad, exitMisuse)
	}
}

func TestTransitionExplain(t *testing.T) {
	args := []string{"transition", "explain", "strawberry_smoothie"}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	for _, want := range []string{"exactly 2 strawberry.n.01, whole_milk.n.01 inside a blender.n.01", "switched on (off → on)",
		"needed  by the goals of 1 activity in the embedded examples: making_a_smoothie-0"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("explain lacks %q:\n%s", want, r.stdout)
		}
	}
}

// TestTransitionSample: a sample checks as a success; with --rules-off
// only under --transitions.
func TestTransitionSample(t *testing.T) {
	for _, rule := range []string{"apple.n.01-slicing", "strawberry_smoothie", "lemonade", "pancakes", "washer-stain.n.01"} {
		dir := t.TempDir()
		args := []string{"transition", "sample", rule, "-o", dir}
		runBDDL(t, args...).wantCode(t, args, exitOK)
		ep := filepath.Join(dir, "sample.jsonl")
		runBDDL(t, "check", "--episode", ep).wantCode(t, []string{"check", ep}, exitOK)

		off := t.TempDir()
		args = []string{"transition", "sample", rule, "--rules-off", "-o", off}
		runBDDL(t, args...).wantCode(t, args, exitOK)
		ep = filepath.Join(off, "sample.jsonl")
		runBDDL(t, "check", "--episode", ep).wantCode(t, []string{"check", ep}, exitFindings)
		runBDDL(t, "check", "--transitions", "--episode", ep).wantCode(t, []string{"check", "--transitions", ep}, exitOK)
	}
	args := []string{"transition", "sample", "sugar_cookies", "--variant", "heat-off"}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if !strings.Contains(r.stdout, `"bddl_episode"`) {
		t.Errorf("no episode on stdout")
	}
	args = []string{"transition", "sample", "washer-rust.n.01"}
	runBDDL(t, args...).wantCode(t, args, exitFindings)
}

// TestCheckTransitionsSlicing: a pose recording made with rules off in
// which a knife touches an apple (a recorded contact) at step 2: the
// halves exist on the board under --transitions, not without it, and not
// when the knife never touches the apple.
func TestCheckTransitionsSlicing(t *testing.T) {
	ep := filepath.Join("testdata", "transitions", "slicing", "poses.jsonl")
	runBDDL(t, "check", "--episode", ep).wantCode(t, []string{"check", ep}, exitFindings)
	args := []string{"check", "--transitions", "--format", "json", "--episode", ep}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	res := jsonResults(t, r.stdout)
	if len(res) != 1 || res[0]["first_success_step"] != 2.0 {
		t.Errorf("results %v, want success at step 2", res)
	}

	// The same recording without the contact and with the knife away.
	src := string(readFile(t, ep))
	src = strings.Replace(src, `"aabb":[0.12,0.1,0.97,0.42,0.13,0.99],"contacts":["apple.n.01_1"]`, `"aabb":[0.6,0.1,0.97,0.9,0.13,0.99],"contacts":[]`, 1)
	dir := t.TempDir()
	for name, data := range map[string]string{"poses.jsonl": src, "problem0.bddl": string(readFile(t, filepath.Join("testdata", "transitions", "slicing", "problem0.bddl")))} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ep = filepath.Join(dir, "poses.jsonl")
	runBDDL(t, "check", "--transitions", "--episode", ep).wantCode(t, []string{"check", "--transitions", ep}, exitFindings)
}

// TestCheckTransitionsDeterministic: the same episodes checked with rules
// twice, on one worker and on several, give byte-identical results.
func TestCheckTransitionsDeterministic(t *testing.T) {
	dir := t.TempDir()
	var eps []string
	for i := 0; i < 6; i++ {
		for name, src := range map[string]string{"smoothie": examplePath("making_a_smoothie", "rules-off.jsonl"),
			"slicing": filepath.Join("testdata", "transitions", "slicing", "poses.jsonl")} {
			sub := filepath.Join(dir, fmt.Sprintf("%s%d", name, i))
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			data := readFile(t, src)
			if name == "slicing" {
				if err := os.WriteFile(filepath.Join(sub, "problem0.bddl"), readFile(t, filepath.Join(filepath.Dir(src), "problem0.bddl")), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			ep := filepath.Join(sub, "ep.jsonl")
			if err := os.WriteFile(ep, data, 0o644); err != nil {
				t.Fatal(err)
			}
			eps = append(eps, ep)
		}
	}
	run := func(jobs string) string {
		args := append([]string{"check", "--transitions", "--format", "json", "--jobs", jobs}, eps...)
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitOK)
		return r.stdout
	}
	first := run("1")
	for _, jobs := range []string{"1", "4"} {
		if got := run(jobs); got != first {
			t.Fatalf("--jobs %s differs from the first run:\n%s\nvs\n%s", jobs, got, first)
		}
	}
	if strings.Count(first, `"firings"`) != len(eps) {
		t.Errorf("not every episode reports its firing:\n%s", first)
	}
}

// sampleAndCheck writes the sample of every k-th rule of a knowledge base
// with and without its outcome, and checks both episodes as the sample
// promises: a success, and a success only with --transitions.
func sampleAndCheck(t *testing.T, kbArgs []string, every int) {
	t.Helper()
	args := append(append([]string(nil), kbArgs...), "transition", "list", "--format", "json")
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	n := 0
	for i, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		if i%every != 0 {
			continue
		}
		var rec struct{ Family, Name string }
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatal(err)
		}
		rule := rec.Family + "/" + rec.Name
		dir, off := t.TempDir(), t.TempDir()
		args := append(append([]string(nil), kbArgs...), "transition", "sample", rule, "-o", dir)
		r := runBDDL(t, args...)
		if r.code == exitFindings && strings.Contains(r.stderr, "never fires") {
			continue
		}
		r.wantCode(t, args, exitOK)
		args = append(append([]string(nil), kbArgs...), "transition", "sample", rule, "--rules-off", "-o", off)
		runBDDL(t, args...).wantCode(t, args, exitOK)
		for _, c := range []struct {
			ep    string
			flags []string
			code  int
		}{{filepath.Join(dir, "sample.jsonl"), nil, exitOK}, {filepath.Join(off, "sample.jsonl"), nil, exitFindings},
			{filepath.Join(off, "sample.jsonl"), []string{"--transitions"}, exitOK}} {
			args := append(append(append(append([]string(nil), kbArgs...), "check"), c.flags...), "--episode", c.ep)
			if r := runBDDL(t, args...); r.code != c.code {
				t.Errorf("%s: bddl %s exited %d, want %d\n%s", rule, strings.Join(args, " "), r.code, c.code, r.stdout)
			}
		}
		n++
	}
	if n == 0 {
		t.Fatal("no rule sampled")
	}
}

func TestTransitionSampleEveryDefaultRule(t *testing.T) { sampleAndCheck(t, nil, 1) }

func TestTransitionSampleBehavior1K(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	// Every 300th rule: each run loads the knowledge base anew.
	sampleAndCheck(t, []string{"--kb", corpus.KBDir(t)}, 300)
}

// TestCheckTransitionOptions: the reference lands the cookies' states a
// step after the oven bakes them, so an episode ending on that step fails;
// --transition-options same-step lands them at once. An unknown option,
// or options without --transitions, is a usage error.
func TestCheckTransitionOptions(t *testing.T) {
	dir := filepath.Join("..", "..", "transitions", "testdata", "scripted")
	base := []string{"check", "--kb", corpus.KBDir(t), "--activity", filepath.Join(dir, "oven.bddl"),
		"--episode", filepath.Join(dir, "oven_ends_on_firing_step.jsonl"), "--transitions"}
	r := runBDDL(t, base...)
	r.wantCode(t, base, exitFindings)
	args := append(slices.Clone(base), "--transition-options", "same-step")
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	args = append(slices.Clone(base), "--transition-options", "warp")
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
	args = append(slices.Clone(base[:len(base)-1]), "--transition-options", "same-step")
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
}
