package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const ogFixtures = "../../episode/omnigibson/testdata"

func runCLI(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestEpisodeFromOmniGibson(t *testing.T) {
	dir := t.TempDir()
	task := filepath.Join(ogFixtures, "tiny")
	ds := filepath.Join(ogFixtures, "og_dataset")

	// A task folder: one instance file, so OUT is a directory only when
	// it is one; name a directory explicitly.
	out := dir + string(filepath.Separator)
	code, stdout, stderr := runCLI("episode", "from-omnigibson", task, "--og-dataset", ds, "--format", "json", "-o", out)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	var rec struct {
		Record     string `json:"record"`
		File       string `json:"file"`
		Episode    string `json:"episode"`
		BoxesExact int    `json:"boxes_exact"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(stdout)), &rec); err != nil {
		t.Fatalf("not one JSON record: %q: %v", stdout, err)
	}
	want := filepath.Join(dir, "tiny_task_put_apple_0_1_template-tro_state.jsonl")
	if rec.Record != "converted" || rec.File != want || rec.Episode == "" || rec.BoxesExact != 6 {
		t.Errorf("record %+v, want a converted record of file %s with 6 exact boxes", rec, want)
	}
	if s := compileSchema(t, "converted"); s != nil {
		var v any
		_ = json.Unmarshal([]byte(strings.TrimSpace(stdout)), &v)
		if err := s.Validate(v); err != nil {
			t.Errorf("record does not match the converted schema: %v", err)
		}
	}
	// The converted :init holds for bddl check.
	code, stdout, stderr = runCLI("check", "--activity", filepath.Join(task, "problem0.bddl"), "--episode", want, "--format", "json")
	if !strings.Contains(stdout, `"init":"true"`) {
		t.Errorf("check did not find :init true (exit %d):\n%s%s", code, stdout, stderr)
	}

	// The template alone, to a file.
	file := filepath.Join(dir, "template.jsonl")
	code, stdout, stderr = runCLI("episode", "from-omnigibson", filepath.Join(task, "tiny_task_put_apple_0_0_template-partial_rooms.json"), "--robot", "R1", "-o", file)
	if code != 0 {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	if _, err := os.Stat(file); err != nil || !strings.Contains(stdout, "converted 1 of 1 state") {
		t.Errorf("template conversion: %v, %q", err, stdout)
	}
}

func TestEpisodeFromOmniGibsonErrors(t *testing.T) {
	dir := t.TempDir()
	task := filepath.Join(ogFixtures, "tiny")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no output", []string{task}, 2, []string{"-o is required"}},
		{"missing template", []string{filepath.Join(ogFixtures, "errors/missing_template/x_instances/x_0_1_template-tro_state.json"), "-o", filepath.Join(dir, "a.jsonl")}, 2, []string{"missing template"}},
		{"unknown robot", []string{task, "--robot", "Spot", "-o", dir}, 2, []string{"Spot", "Tiago, R1"}},
		{"bad offsets", []string{task, "--offsets", "guess", "-o", dir}, 2, []string{"--offsets"}},
		{"undeclared instance", []string{task, "--activity", filepath.Join(ogFixtures, "errors/other.bddl"), "-o", dir}, 1, []string{"tiny_task_put_apple_0_0_template-partial_rooms.json", "other.bddl", "does not declare"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCLI(append([]string{"episode", "from-omnigibson"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, stdout, stderr)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr %q does not mention %q", stderr, w)
				}
			}
		})
	}
}
