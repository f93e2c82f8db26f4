package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/internal/jobs/kbresolve"
)

// writeTree writes files (path → text) below root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for p, text := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestKBLayouts: the knowledge base is found where users have it, from
// the inputs or from --kb: a bddl package folder, its generated_data/,
// a BEHAVIOR-1K checkout's root, and the checkout's joylo/sampled_task
// (which finds bddl3/bddl); the package's Python knowledge_base/ is never
// taken for data.
func TestKBLayouts(t *testing.T) {
	t.Setenv("BDDL_KB", "")
	t.Setenv(configEnvVar, "")
	t.Setenv(kbresolve.FallbackEnvVar, "")
	root := t.TempDir()
	pkg := filepath.Join(root, "BEHAVIOR-1K", "bddl3", "bddl")
	data := filepath.Join(pkg, "generated_data")
	defs := filepath.Join(pkg, "activity_definitions")
	writeTree(t, root, map[string]string{
		"BEHAVIOR-1K/bddl3/bddl/generated_data/output_hierarchy.json":               `{"name": "entity.n.01"}`,
		"BEHAVIOR-1K/bddl3/bddl/knowledge_base/__init__.py":                         "",
		"BEHAVIOR-1K/bddl3/bddl/knowledge_base/orm.py":                              "import json\n",
		"BEHAVIOR-1K/bddl3/bddl/activity_definitions/cook_x/problem0.bddl":          "(define (problem cook_x-0) (:domain omnigibson))\n",
		"BEHAVIOR-1K/joylo/sampled_task/cook_x/house_task_cook_x_0_0_template.json": "{}",
		"BEHAVIOR-1K/joylo/sampled_task/available_tasks.yaml":                       "cook_x: {}\n",
	})
	empty := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"a definition in the package", []string{filepath.Join(defs, "cook_x", "problem0.bddl")}},
		{"the package folder", []string{pkg}},
		{"the activity_definitions folder", []string{defs}},
		{"the generated_data folder", []string{data}},
		{"the Python knowledge_base folder", []string{filepath.Join(pkg, "knowledge_base")}},
		{"the checkout's root", []string{filepath.Join(root, "BEHAVIOR-1K")}},
		{"a sampled_task folder", []string{filepath.Join(root, "BEHAVIOR-1K", "joylo", "sampled_task")}},
		{"a task folder", []string{filepath.Join(root, "BEHAVIOR-1K", "joylo", "sampled_task", "cook_x")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := configSettings(t, empty, tc.args...)
			if got["kb"].Value != data || !strings.Contains(got["kb"].Source, "BEHAVIOR-1K tree") {
				t.Errorf("kb = %+v, want %s from the tree", got["kb"], data)
			}
			if got["activities"].Value != defs {
				t.Errorf("activities = %+v, want %s", got["activities"], defs)
			}
		})
	}
	// --kb of each folder: the activities are the package's.
	for _, k := range []string{data, pkg, filepath.Join(root, "BEHAVIOR-1K")} {
		if got := configSettings(t, empty, "--kb", k); got["activities"].Value != defs {
			t.Errorf("--kb %s: activities = %+v, want %s", k, got["activities"], defs)
		}
	}
	// A folder that merely holds a clone is not a tree around its files.
	writeTree(t, root, map[string]string{"home/bddl/bddl/generated_data/output_hierarchy.json": "{}", "home/work/x.bddl": ""})
	if got := configSettings(t, empty, filepath.Join(root, "home", "work", "x.bddl")); got["kb"].Value != kbresolve.Embedded {
		t.Errorf("a file beside a clone: kb = %+v, want the embedded default", got["kb"])
	}
	// The installed bddl package the Python client found comes after the
	// tree and before the embedded default.
	t.Setenv(kbresolve.FallbackEnvVar, data)
	if got := configSettings(t, empty, filepath.Join(root, "home", "work", "x.bddl")); got["kb"].Value != data || !strings.Contains(got["kb"].Source, "installed bddl package") {
		t.Errorf("$%s: kb = %+v", kbresolve.FallbackEnvVar, got["kb"])
	}
}

// TestKBPythonCodeRefused: --kb naming the package's Python code alone
// (no generated_data/ beside it) stops with what to give instead.
func TestKBPythonCodeRefused(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"knowledge_base/__init__.py": "", "knowledge_base/models.py": "x = 1\n"})
	r := runBDDL(t, "--kb", filepath.Join(dir, "knowledge_base"), "kb", "show", "apple.n.01")
	r.wantCode(t, nil, exitMisuse)
	for _, want := range []string{"Python code", "generated_data", "bddl package folder"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// unknownDefinition declares a synset the embedded example knowledge
// base does not know, as every BEHAVIOR-1K definition outside the
// examples does.
const unknownDefinition = `(define (problem stack_widgets-0)
    (:domain omnigibson)
    (:objects
        zzwidget.n.01_1 - zzwidget.n.01
        floor.n.01_1 - floor.n.01
        agent.n.01_1 - agent.n.01
    )
    (:init
        (ontop zzwidget.n.01_1 floor.n.01_1)
        (ontop agent.n.01_1 floor.n.01_1)
    )
    (:goal
        (ontop ?zzwidget.n.01_1 ?floor.n.01_1)
    )
)
`

// TestEmbeddedKBRefusesUnknownSynsets: with nothing naming a knowledge
// base, a definition the embedded example one cannot serve is refused
// before any finding or verdict, in one message naming the input, the
// knowledge base tried and what to give; the examples still run.
func TestEmbeddedKBRefusesUnknownSynsets(t *testing.T) {
	t.Setenv("BDDL_KB", "")
	t.Setenv(configEnvVar, "none")
	t.Setenv(kbresolve.FallbackEnvVar, "")
	dir := t.TempDir()
	def := filepath.Join(dir, "stack_widgets", "problem0.bddl")
	writeTree(t, dir, map[string]string{"stack_widgets/problem0.bddl": unknownDefinition})
	episode := `{"activity": "stack_widgets/problem0.bddl", "objects": {"zzwidget.n.01_1": {"pos": [0, 0, 0]}}}` + "\n" + `{"step": 0}` + "\n"
	writeTree(t, dir, map[string]string{"runs/ep.jsonl": episode})
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"validate a file", []string{"validate", def}},
		{"validate a folder", []string{"validate", dir}},
		{"check --activity", []string{"check", "--activity", def, "--episode", filepath.Join(dir, "runs", "ep.jsonl")}},
		{"sample", []string{"sample", def, "-o", t.TempDir()}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := runBDDLIn(t, dir, tc.args...)
			r.wantCode(t, tc.args, exitMisuse)
			if r.stdout != "" {
				t.Errorf("output before the refusal:\n%s", r.stdout)
			}
			lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
			if len(lines) != 1 {
				t.Errorf("want one message, got %d lines:\n%s", len(lines), r.stderr)
			}
			for _, want := range []string{"problem0.bddl", "zzwidget.n.01", "embedded example knowledge base", "--kb", "$BDDL_KB", "bddl.toml"} {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("message lacks %q:\n%s", want, r.stderr)
				}
			}
			if strings.Contains(r.stderr, "unknown-synset") {
				t.Errorf("findings instead of a refusal:\n%s", r.stderr)
			}
		})
	}
	// An embedded example is served as before.
	r := runBDDL(t, "validate", filepath.Join("..", "..", "activities", "examples"))
	r.wantCode(t, nil, exitOK)
}

// TestInitSampledTask: the simulator's sampled_task folder in one
// command: one table covering every task, template-only tasks judged
// (the robot's pose from available_tasks.yaml), never UNKNOWN for want of
// the agent; several task folders in one command likewise.
func TestInitSampledTask(t *testing.T) {
	t.Setenv("BDDL_KB", "")
	t.Setenv(configEnvVar, "none")
	dir := corpus.OmniGibsonDir(t)
	tasks := corpus.OmniGibsonTaskDirs(t)
	r := runBDDL(t, "check", "--init", "--jobs", "2", dir)
	if r.code != exitOK && r.code != exitFindings {
		t.Fatalf("exit %d:\n%s", r.code, r.stderr)
	}
	table := r.stdout[strings.LastIndex(r.stdout, "ACTIVITY"):]
	for _, task := range tasks {
		if !strings.Contains(table, "\n"+filepath.Base(task)+" ") {
			t.Errorf("task %s missing from the table:\n%s", filepath.Base(task), table)
		}
	}
	if strings.Contains(r.stdout, "agent.n.01_1") && strings.Contains(r.stdout, "missing contacts and box") {
		t.Errorf("the agent has no pose:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "available_tasks") {
		t.Errorf("available_tasks.yaml taken as an input:\n%s", r.stdout)
	}
	r2 := runBDDL(t, "check", "--init", "--jobs", "2", tasks[0], tasks[len(tasks)-1])
	table2 := r2.stdout[strings.LastIndex(r2.stdout, "ACTIVITY"):]
	for _, task := range []string{tasks[0], tasks[len(tasks)-1]} {
		if !strings.Contains(table2, "\n"+filepath.Base(task)+" ") {
			t.Errorf("two folders: task %s missing from the table:\n%s", filepath.Base(task), table2)
		}
	}
}

// TestInitNoDefinition: a task folder whose definition is nowhere to be
// found stops with where it looked and what to give.
func TestInitNoDefinition(t *testing.T) {
	exampleKB(t)
	dir := filepath.Join(t.TempDir(), "put_apple")
	src := filepath.Join(ogFixtures, "tiny", "tiny_task_put_apple_0_0_template-partial_rooms.json")
	writeTree(t, dir, map[string]string{filepath.Base(src): string(readFile(t, src))})
	r := runBDDL(t, "check", "--init", dir)
	r.wantCode(t, nil, exitMisuse)
	for _, want := range []string{"no definition of task put_apple (problem0.bddl)", "--activity FILE", "--activities"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}
