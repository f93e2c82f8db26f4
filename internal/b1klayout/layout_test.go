package b1klayout

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRecogniseAndAround(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for p, text := range map[string]string{
		"BEHAVIOR-1K/bddl3/bddl/generated_data/output_hierarchy.json": "{}",
		"BEHAVIOR-1K/bddl3/bddl/knowledge_base/__init__.py":           "",
		"BEHAVIOR-1K/bddl3/bddl/activity_definitions/x/problem0.bddl": "",
		"BEHAVIOR-1K/joylo/sampled_task/x/s_task_x_0_0_template.json": "{}",
		"site-packages/bddl/generated_data/output_hierarchy.json":     "{}",
		"old/knowledge_base/output_hierarchy.json":                    "{}",
		"old/activity_definitions/y/problem0.bddl":                    "",
		"lone/knowledge_base/orm.py":                                  "",
		"home/clone/bddl/bddl/generated_data/output_hierarchy.json":   "{}",
		"home/work/z.bddl": "",
	} {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	j := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	pkg, data := j("BEHAVIOR-1K/bddl3/bddl"), j("BEHAVIOR-1K/bddl3/bddl/generated_data")
	for _, tc := range []struct {
		dir      string
		kind     Kind
		data     string
		activity string
	}{
		{"BEHAVIOR-1K/bddl3/bddl/generated_data", Data, data, j("BEHAVIOR-1K/bddl3/bddl/activity_definitions")},
		{"BEHAVIOR-1K/bddl3/bddl", Package, data, j("BEHAVIOR-1K/bddl3/bddl/activity_definitions")},
		{"BEHAVIOR-1K", Checkout, data, j("BEHAVIOR-1K/bddl3/bddl/activity_definitions")},
		{"BEHAVIOR-1K/bddl3/bddl/knowledge_base", PythonCode, data, j("BEHAVIOR-1K/bddl3/bddl/activity_definitions")},
		{"site-packages", Checkout, j("site-packages/bddl/generated_data"), ""},
		{"old", Package, j("old/knowledge_base"), j("old/activity_definitions")},
		{"lone/knowledge_base", PythonCode, "", ""},
		{"home", Unknown, "", ""},
	} {
		l := Recognise(j(tc.dir))
		if l.Kind != tc.kind || l.Data != tc.data || l.Activities != tc.activity {
			t.Errorf("Recognise(%s) = %v, data %q, activities %q; want %v, %q, %q", tc.dir, l.Kind, l.Data, l.Activities, tc.kind, tc.data, tc.activity)
		}
	}
	for _, tc := range []struct {
		from, data string
	}{
		{"BEHAVIOR-1K/bddl3/bddl/activity_definitions/x/problem0.bddl", data},
		{"BEHAVIOR-1K/joylo/sampled_task/x", data},
		{"BEHAVIOR-1K/joylo/sampled_task/x/s_task_x_0_0_template.json", data},
		{"BEHAVIOR-1K/bddl3/bddl/knowledge_base", data},
		{"old/activity_definitions/y/problem0.bddl", j("old/knowledge_base")},
		{"home/work/z.bddl", ""}, // a clone in a parent folder is not a tree around it
	} {
		l, ok := Around(j(tc.from))
		if ok != (tc.data != "") || l.Data != tc.data {
			t.Errorf("Around(%s) = %q, %v; want %q", tc.from, l.Data, ok, tc.data)
		}
	}
	if got := Recognise(pkg).Package; got != pkg {
		t.Errorf("Recognise(package).Package = %q", got)
	}
}
