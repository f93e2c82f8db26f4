package omnigibson

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTaskDir lays out a task folder as the simulator writes it: both
// templates, the definition, and an *_instances folder.
func writeTaskDir(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestFindTask(t *testing.T) {
	const (
		full    = "house_task_x_0_0_template.json"
		partial = "house_task_x_0_0_template-partial_rooms.json"
		inst1   = "house_task_x_instances/house_task_x_0_1_template-tro_state.json"
		inst2   = "house_task_x_instances/house_task_x_0_2_template-tro_state.json"
	)
	asWritten := []string{full, partial, "problem0.bddl", inst1, inst2}
	for _, tc := range []struct {
		name      string
		files     []string
		path      string // relative to the folder; "" is the folder
		template  string
		glob      bool
		wantTmpl  string
		wantPart  string
		wantInsts int
		wantErr   string
	}{
		{name: "task folder as written", files: asWritten, wantTmpl: full, wantPart: partial, wantInsts: 2},
		{name: "instances folder", files: asWritten, path: "house_task_x_instances", wantTmpl: full, wantPart: partial, wantInsts: 2},
		{name: "instance file", files: asWritten, path: inst1, wantTmpl: full, wantPart: partial, wantInsts: 1},
		{name: "glob of instances", files: asWritten, path: "house_task_x_instances/*_0_[12]_*", glob: true, wantTmpl: full, wantPart: partial, wantInsts: 2},
		{name: "template chosen", files: asWritten, template: partial, wantTmpl: partial, wantInsts: 2},
		{name: "partial only", files: []string{partial, inst1}, wantTmpl: partial, wantInsts: 1},
		{name: "full only", files: []string{full, inst1}, wantTmpl: full, wantInsts: 1},
		{name: "template named", files: asWritten, path: full, wantTmpl: full},
		{name: "two tasks in one folder", files: append([]string{"house_task_y_0_0_template.json"}, asWritten...),
			path: "house_task_x_instances", wantTmpl: full, wantPart: partial, wantInsts: 2},
		{name: "two tasks, no hint", files: []string{full, "house_task_y_0_0_template.json", "a-tro_state.json"},
			wantErr: "name one with --template"},
		{name: "no template", files: []string{inst1}, path: inst1, wantErr: "missing template"},
		{name: "glob matches nothing", files: asWritten, path: "nothing*", glob: true, wantErr: "no file matches"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTaskDir(t, tc.files...)
			path := filepath.Join(dir, tc.path)
			tmpl := ""
			if tc.template != "" {
				tmpl = filepath.Join(dir, tc.template)
			}
			var tasks []*Task
			var err error
			if tc.glob {
				tasks, err = FindTasks(path, tmpl)
			} else {
				var task *Task
				if task, err = FindTaskWith(path, tmpl); err == nil {
					tasks = []*Task{task}
				}
			}
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one mentioning %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(tasks) != 1 {
				t.Fatalf("%d tasks, want 1", len(tasks))
			}
			task := tasks[0]
			rel := func(p string) string {
				if p == "" {
					return ""
				}
				r, _ := filepath.Rel(dir, p)
				return r
			}
			if rel(task.Template) != tc.wantTmpl || rel(task.Partial) != tc.wantPart || len(task.Instances) != tc.wantInsts {
				t.Errorf("FindTask = template %q, partial %q, %d instances; want %q, %q, %d",
					rel(task.Template), rel(task.Partial), len(task.Instances), tc.wantTmpl, tc.wantPart, tc.wantInsts)
			}
		})
	}
}

// TestReadTaskMerge: a task folder as written reads both templates: the
// full one's objects, the partial one's versions and room types.
func TestReadTaskMerge(t *testing.T) {
	for _, dir := range taskDirs(t) {
		task, err := FindTask(dir)
		if err != nil {
			t.Fatal(err)
		}
		if task.Partial == "" {
			continue
		}
		tmpl, err := ReadTask(task)
		if err != nil {
			t.Fatal(err)
		}
		part, err := ReadTemplate(task.Partial)
		if err != nil {
			t.Fatal(err)
		}
		if len(tmpl.Objects) < len(part.Objects) || tmpl.Partial != task.Partial || len(tmpl.RoomTypes) == 0 || len(tmpl.Versions) == 0 {
			t.Errorf("%s: merged template has %d objects (partial %d), room types %v, versions %v", dir, len(tmpl.Objects), len(part.Objects), tmpl.RoomTypes, tmpl.Versions)
		}
		return
	}
	t.Fatal("no shared task with both templates")
}

// TestInitEvaluator: one evaluator, used on several states at once,
// compiles the definition once and answers as EvalInit does.
func TestInitEvaluator(t *testing.T) {
	c, task := tinyConverter(t, Options{Dataset: fixtureDataset(t)})
	prob := readProblem(t, task.Definition)
	h, _, err := c.ConvertTemplate()
	if err != nil {
		t.Fatal(err)
	}
	want, err := EvalInit(prob, nil, h)
	if err != nil {
		t.Fatal(err)
	}
	e := NewInitEvaluator(prob, nil)
	errs := make(chan error, 8)
	for range 8 {
		go func() {
			got, err := e.Eval(h)
			if err == nil && len(got) != len(want) {
				err = fmt.Errorf("%d literals, want %d", len(got), len(want))
			}
			for i := range got {
				if err == nil && (got[i].Literal != want[i].Literal || got[i].Value != want[i].Value) {
					err = fmt.Errorf("literal %d: %s = %s, want %s = %s", i, got[i].Literal, got[i].Value, want[i].Literal, want[i].Value)
				}
			}
			errs <- err
		}()
	}
	for range 8 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if len(e.progs) != 1 {
		t.Errorf("%d programs compiled, want 1", len(e.progs))
	}
}

// TestMergeMismatch: templates of two tasks are not merged.
func TestMergeMismatch(t *testing.T) {
	a, err := ReadTemplate(filepath.Join(tinyDir, "tiny_task_put_apple_0_0_template-partial_rooms.json"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := ReadTemplate("testdata/errors/undeclared_template-partial_rooms.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Merge(b); err == nil || !strings.Contains(err.Error(), "not templates of one task") {
		t.Errorf("Merge of two tasks' templates: %v", err)
	}
	c, err := ReadTemplate(filepath.Join(tinyDir, "tiny_task_put_apple_0_0_template-partial_rooms.json"))
	if err != nil {
		t.Fatal(err)
	}
	n := len(a.Objects)
	if err := a.Merge(c); err != nil || len(a.Objects) != n || a.Partial != c.Path {
		t.Errorf("Merge of the same task's template: %v, %d objects (want %d), partial %q", err, len(a.Objects), n, a.Partial)
	}
}

// TestFindDefinition: a task folder holds no definition; it is found by
// the task's name, in order: beside the template, in the folder the user
// named, in the BEHAVIOR-1K checkout around the task folder, in the
// knowledge base's package; nothing found lists where it looked.
func TestFindDefinition(t *testing.T) {
	const tmpl = "joylo/sampled_task/cook_x/house_task_cook_x_1_0_template.json"
	for _, tc := range []struct {
		name  string
		files []string
		lib   string // relative to the root, "" for none
		more  string
		want  string // relative to the root, "" for none
	}{
		{name: "in the checkout", files: []string{tmpl, "bddl3/bddl/generated_data/output_hierarchy.json", "bddl3/bddl/activity_definitions/cook_x/problem1.bddl"},
			want: "bddl3/bddl/activity_definitions/cook_x/problem1.bddl"},
		{name: "beside the template first", files: []string{tmpl, "joylo/sampled_task/cook_x/problem0.bddl", "bddl3/bddl/generated_data/output_hierarchy.json", "bddl3/bddl/activity_definitions/cook_x/problem1.bddl"},
			want: "joylo/sampled_task/cook_x/problem0.bddl"},
		{name: "the named folder before the checkout", files: []string{tmpl, "mine/cook_x/problem1.bddl", "bddl3/bddl/generated_data/output_hierarchy.json", "bddl3/bddl/activity_definitions/cook_x/problem1.bddl"},
			lib: "mine", want: "mine/cook_x/problem1.bddl"},
		{name: "the knowledge base's package last", files: []string{tmpl, "kbpkg/cook_x/problem1.bddl"},
			more: "kbpkg", want: "kbpkg/cook_x/problem1.bddl"},
		{name: "the definition number of the template", files: []string{tmpl, "mine/cook_x/problem0.bddl"},
			lib: "mine"},
		{name: "nowhere", files: []string{tmpl}, lib: "mine"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeTaskDir(t, tc.files...)
			task, err := FindTask(filepath.Join(root, filepath.Dir(tmpl)))
			if err != nil {
				t.Fatal(err)
			}
			if task.Name != "cook_x" || task.DefIndex != 1 {
				t.Fatalf("task %q, definition %d; want cook_x, 1", task.Name, task.DefIndex)
			}
			join := func(rel string) string {
				if rel == "" {
					return ""
				}
				return filepath.Join(root, rel)
			}
			got, tried := task.FindDefinition(join(tc.lib), join(tc.more))
			if got != join(tc.want) {
				t.Fatalf("FindDefinition = %q, want %q (tried %v)", got, join(tc.want), tried)
			}
			if got == "" && (len(tried) == 0 || !strings.Contains(strings.Join(tried, " "), "mine")) {
				t.Errorf("tried = %v, want the places looked in", tried)
			}
		})
	}
}

// TestFindTasksSampledTask: the sampled_task folder is every task folder
// in it, in name order; available_tasks.yaml is no input.
func TestFindTasksSampledTask(t *testing.T) {
	root := writeTaskDir(t,
		"b_task/house_task_b_task_0_0_template.json",
		"a_task/house_task_a_task_0_0_template.json",
		"a_task/house_task_a_task_instances/house_task_a_task_0_1_template-tro_state.json",
		"available_tasks.yaml")
	tasks, err := FindTasks(root, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(tasks) != 2 || tasks[0].Name != "a_task" || tasks[1].Name != "b_task" || len(tasks[0].Instances) != 1 || len(tasks[1].Instances) != 0 {
		t.Fatalf("FindTasks(sampled_task) = %+v", tasks)
	}
}
