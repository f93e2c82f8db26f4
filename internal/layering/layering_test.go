package layering

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/openbddl/bddl"

// levels gives each package of the module (or a folder of packages, with
// a trailing "/") its level: a package may import only packages of its own
// level or lower. Level 0 is the ground utilities under internal/, which
// import nothing of ours but each other. The table is the one in
// docs/design.md; a new package must be added to both.
var levels = []struct {
	prefix string
	level  int
}{
	{"internal/jobs/", 8}, // orchestration, before the ground rule below
	{"internal/", 0},
	{"bddl", 1},
	{"kb", 2},
	{"kb/", 2}, // kb/show: kb's records for people, beside it
	{"predicates", 3},
	{"episode", 4},
	{"episode/", 5},
	{"transitions", 5},
	{"sampler", 6},
	{"libero", 6},
	{"activities", 7},
	{"activities/", 7}, // activities/report: validate's report, beside the rules
	{"lsp", 8},
	{"serve", 8},
	{"view", 8},
	{"cmd/", 9},
	{"tools/", 9},
}

func levelOf(pkg string) (int, bool) {
	rel, ok := strings.CutPrefix(pkg, module+"/")
	if !ok {
		return 0, false
	}
	for _, l := range levels {
		if strings.HasSuffix(l.prefix, "/") && strings.HasPrefix(rel, l.prefix) || rel == l.prefix {
			return l.level, true
		}
	}
	return -1, true
}

func TestImportsPointDown(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("layering: no go command on PATH")
	}
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}}{{range .Imports}} {{.}}{{end}}`, module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	var bad []string
	seen := 0
	for line := range strings.Lines(string(out)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		pkg := fields[0]
		from, ours := levelOf(pkg)
		if !ours {
			continue
		}
		seen++
		if from < 0 {
			bad = append(bad, pkg+": not in the table of levels (internal/layering and docs/design.md)")
			continue
		}
		for _, imp := range fields[1:] {
			to, ours := levelOf(imp)
			if !ours || to < 0 {
				continue
			}
			if to > from {
				bad = append(bad, strings.TrimPrefix(pkg, module+"/")+" (level "+strconv.Itoa(from)+") imports "+strings.TrimPrefix(imp, module+"/")+" (level "+strconv.Itoa(to)+")")
			}
		}
	}
	touchSources(t)
	if seen < 10 {
		t.Fatalf("go list named %d packages of the module; want the whole module", seen)
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// TestLevelOf pins the table's reading: folders by prefix, single packages
// exactly (episode is below its sub-packages; "bddl" is not "bddlx").
func TestLevelOf(t *testing.T) {
	for _, c := range []struct {
		pkg  string
		want int
	}{
		{module + "/internal/fsutil", 0},
		{module + "/internal/jobs/batch", 8},
		{module + "/bddl", 1},
		{module + "/episode", 4},
		{module + "/episode/oopsie", 5},
		{module + "/cmd/bddl", 9},
		{module + "/bddlx", -1},
	} {
		if got, _ := levelOf(c.pkg); got != c.want {
			t.Errorf("levelOf(%s) = %d, want %d", c.pkg, got, c.want)
		}
	}
	if _, ours := levelOf("github.com/spf13/cobra"); ours {
		t.Error("a third-party package was taken for ours")
	}
}

// touchSources opens every Go file of the module so that go test's cache,
// which knows only the files the test process opens (not go list's), runs
// this test again when an import changes.
func touchSources(t *testing.T) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(out)))
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != root && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata" || d.Name() == "third_party") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(path, ".go") {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			return f.Close()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
