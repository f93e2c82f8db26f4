package kb

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Item 9: a rule whose counts could exhaust memory when it fires is
// refused at load (so by kb check), with its file and key.
func TestRuleCountLimits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, from, to, want string }{
		{"huge output", `"output_synsets": {"apple.n.01": 1}`, `"output_synsets": {"apple.n.01": 100000000}`, "count of apple.n.01 is 100000000"},
		{"many outputs", `"output_synsets": {"apple.n.01": 1}`, `"output_synsets": {"apple.n.01": 100, "oven.n.01": 100}`, "creates 200 objects"},
		{"huge input", `"input_synsets": {"apple.n.01": 1}`, `"input_synsets": {"apple.n.01": 1000}`, "count of apple.n.01 is 1000"},
	} {
		files := map[string]string{}
		for k, v := range tinyB1K {
			files[k] = v
		}
		files[dirRules+"/heat_cook.json"] = strings.Replace(files[dirRules+"/heat_cook.json"], tc.from, tc.to, 1)
		_, err := LoadBehavior1K(writeFiles(t, files))
		var des DataErrors
		if !errors.As(err, &des) {
			t.Fatalf("%s: error %v, want DataErrors", tc.name, err)
		}
		found := false
		for _, e := range des {
			if e.Code == "rule-limit" && e.File == "heat_cook.json" && strings.Contains(e.Message, tc.want) && (e.Key != "" || e.Line > 0) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: errors %v, want a rule-limit error %q with its key", tc.name, des, tc.want)
		}
	}
}

// Item 6: kb check's extra files are read only when regular and bounded:
// a FIFO named propagated_annots_canonical.json or a rule file, or a
// link to /dev/zero, is reported, never read.
func TestB1KChecksBoundedFiles(t *testing.T) {
	dir := writeFiles(t, tinyB1K)
	b, err := LoadBehavior1K(dir)
	if err != nil {
		t.Fatal(err)
	}
	canon := filepath.Join(dir, fileCanonical)
	os.Remove(canon)
	if err := mkfifoForTest(canon); err != nil {
		t.Skip("no FIFOs:", err)
	}
	if err := mkfifoForTest(filepath.Join(dir, dirRules, "extra.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, dirRules, "zero.json")); err != nil {
		t.Fatal(err)
	}
	done := make(chan []Finding)
	go func() { done <- b1kChecks(dir, b) }()
	select {
	case fs := <-done:
		text := ""
		for _, f := range fs {
			text += f.String() + "\n"
		}
		for _, want := range []string{fileCanonical + ": error: cannot read", "a FIFO", "extra.json", "zero.json", "a character device"} {
			if !strings.Contains(text, want) {
				t.Errorf("findings lack %q:\n%s", want, text)
			}
		}
	case <-time.After(10 * time.Second):
		t.Fatal("b1kChecks blocked")
	}
}
