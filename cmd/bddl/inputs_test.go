package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/openbddl/bddl/internal/corpus"
)

// TestNoInputIsMisuse: a path holding no definition is an error, never
// "validated 0 problems".
func TestNoInputIsMisuse(t *testing.T) {
	t.Parallel()
	empty := t.TempDir()
	episodes := t.TempDir()
	writeFile(t, filepath.Join(episodes, "ep.jsonl"), readFile(t, examplePath("tidying_the_living_room", "poses.jsonl")))
	for _, cmd := range []string{"validate", "parse", "fmt"} {
		for _, dir := range []string{empty, episodes} {
			args := []string{cmd, dir}
			r := runBDDL(t, args...)
			r.wantCode(t, args, exitMisuse)
			if !strings.Contains(r.stderr, "no definitions found under "+dir) {
				t.Errorf("%v: stderr %q", args, r.stderr)
			}
		}
	}
	args := []string{"check", "--activities", "/nonexistent", "--episode", examplePath("tidying_the_living_room", "poses.jsonl")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
	if !strings.Contains(r.stderr, "/nonexistent") || strings.Contains(r.stderr, "stat .") {
		t.Errorf("the error does not name the path: %s", r.stderr)
	}
}

// TestDefinitionsThroughLinksAndFIFOs: symlinked directories are
// followed; a FIFO in a walked tree is skipped with a note, not opened.
func TestDefinitionsThroughLinksAndFIFOs(t *testing.T) {
	t.Parallel()
	real := copyTestdata(t, 0o644, "cookies.bddl")
	dir := t.TempDir()
	link := filepath.Join(dir, "link")
	os.Symlink(real, link)
	if err := mkfifoForTest(filepath.Join(real, "fifo.bddl")); err != nil {
		t.Skip(err)
	}
	for _, args := range [][]string{{"parse", link}, {"validate", link}, {"parse", dir}} {
		done := make(chan cliResult, 1)
		go func() { done <- runBDDL(t, args...) }()
		select {
		case r := <-done:
			if r.code == exitMisuse || !strings.Contains(r.stderr, "fifo.bddl: a FIFO") {
				t.Errorf("%v: exit %d\n%s\n%s", args, r.code, r.stdout, r.stderr)
			}
			if strings.Contains(r.stdout, "0 files") || strings.Contains(r.stdout, "0 problems") {
				t.Errorf("%v found nothing:\n%s", args, r.stdout)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%v hung on a FIFO", args)
		}
	}
}

// TestStdinDefinition: "-" reads a definition from standard input.
func TestStdinDefinition(t *testing.T) {
	t.Parallel()
	src := readFile(t, filepath.Join("testdata", "cookies.bddl"))
	for _, args := range [][]string{{"parse", "-"}, {"fmt", "-"}, {"explain", "-"}, {"validate", "-"}} {
		var out, errw bytes.Buffer
		code := run(args, bytes.NewReader(src), &out, &errw)
		if code == exitMisuse || out.Len() == 0 {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, out.String(), errw.String())
		}
	}
	args := []string{"fmt", "-w", "-"}
	runBDDL(t, args...).wantCode(t, args, exitMisuse)
}

// TestDefinitionSizeCap: a definition over 16 MiB is refused with the
// limit named.
func TestDefinitionSizeCap(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "huge.bddl")
	f, _ := os.Create(path)
	f.Truncate(17 << 20)
	f.Close()
	args := []string{"parse", path}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if !strings.Contains(r.stderr, "16 MiB limit") {
		t.Errorf("stderr: %s", r.stderr)
	}
}

// TestValidateFilters: --select, --ignore, --severity and --quiet.
func TestValidateFilters(t *testing.T) {
	t.Parallel()
	base := []string{"validate", "--kb", validateKB}
	tests := []struct {
		flags    []string
		has, not []string
		code     int
	}{
		{[]string{"--select", "unplaced"}, []string{"[unplaced]"}, []string{"[problem-name]", "[placed-twice]"}, exitFindings},
		{[]string{"--select", "placed*"}, []string{"[placed-twice]"}, []string{"[unplaced]"}, exitFindings},
		{[]string{"--ignore", "unplaced,problem-name"}, []string{"[placed-twice]"}, []string{"[unplaced]", "[problem-name]"}, exitFindings},
		{[]string{"--select", "no-such-code"}, []string{"no such code"}, []string{"error:"}, exitMisuse},
	}
	for _, tc := range tests {
		args := append(append(append([]string(nil), base...), tc.flags...), validateDir)
		r := runBDDL(t, args...)
		r.wantCode(t, args, tc.code)
		for _, h := range tc.has {
			if !strings.Contains(r.stderr, h) {
				t.Errorf("%v lacks %s:\n%s", tc.flags, h, r.stderr)
			}
		}
		for _, n := range tc.not {
			if strings.Contains(r.stderr, n) {
				t.Errorf("%v has %s:\n%s", tc.flags, n, r.stderr)
			}
		}
	}
	args := append(append([]string(nil), base...), "--quiet", validateDir)
	if r := runBDDL(t, args...); r.stdout != "" || r.stderr == "" {
		t.Errorf("--quiet printed a summary:\n%s", r.stdout)
	}
	args = append(append([]string(nil), base...), "--severity", "error", "--format", "json", validateDir)
	for _, rec := range jsonResults(t, runBDDL(t, args...).stdout) {
		if rec["severity"] != "error" {
			t.Errorf("--severity error kept %v", rec)
		}
	}
	args = append(append([]string(nil), base...), "--severity", "fatal", validateDir)
	runBDDL(t, args...).wantCode(t, args, exitMisuse)
}

// TestValidateKBRulesBlameNoFile: findings of the knowledge base do not
// count against the clean file validated.
func TestValidateKBRulesBlameNoFile(t *testing.T) {
	t.Parallel()
	args := []string{"validate", "--kb-rules", "--kb", validateKB, filepath.Join(validateDir, "good_act")}
	r := runBDDL(t, args...)
	if strings.Contains(r.stdout, "file with errors") || !strings.Contains(r.stdout, "in the knowledge base") {
		t.Errorf("summary:\n%s", r.stdout)
	}
}

// TestValidateShards: the shards of a validation cover the files once.
func TestValidateShards(t *testing.T) {
	dir := corpus.ActivitiesDir(t)
	count := func(args ...string) int {
		args = append([]string{"validate", "--select", "read-error"}, append(args, dir)...)
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitOK)
		var n int
		if _, err := fmt.Sscanf(r.stdout, "validated %d", &n); err != nil {
			t.Fatalf("%v: %q", args, r.stdout)
		}
		return n
	}
	whole := count()
	sum := 0
	for i := range 3 {
		sum += count("--shard", fmt.Sprintf("%d/3", i))
	}
	if sum != whole || whole == 0 {
		t.Errorf("shards validated %d problems, one run %d", sum, whole)
	}
}

// TestEmbeddedKBNote: a definition outside any BEHAVIOR-1K tree, with no
// --kb, is validated against the embedded example knowledge base, which
// one note says, suggesting --kb.
func TestEmbeddedKBNote(t *testing.T) {
	t.Setenv("BDDL_KB", "")
	t.Setenv(configEnvVar, "")
	r := runBDDLIn(t, t.TempDir(), "validate", "--quiet", filepath.Join("testdata", "cookies.bddl"))
	if strings.Count(r.stderr, "embedded example knowledge base") != 1 || !strings.Contains(r.stderr, "--kb") {
		t.Errorf("want one note about the knowledge base:\n%s", r.stderr)
	}
}

// TestKBSpecialFile: a FIFO or device as knowledge base is refused, not
// read.
func TestKBSpecialFile(t *testing.T) {
	t.Parallel()
	fifo := filepath.Join(t.TempDir(), "kb.yaml")
	if err := mkfifoForTest(fifo); err != nil {
		t.Skip(err)
	}
	for _, p := range []string{fifo, "/dev/zero"} {
		args := []string{"--kb", p, "kb", "show", "apple.n.01"}
		done := make(chan cliResult, 1)
		go func() { done <- runBDDL(t, args...) }()
		select {
		case r := <-done:
			r.wantCode(t, args, exitMisuse)
			if !strings.Contains(r.stderr, "not a regular file") {
				t.Errorf("%s: %s", p, r.stderr)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("--kb %s hung", p)
		}
	}
}

// TestEmbeddedKBNoteCheck: check with a BEHAVIOR-1K activity library
// and no --kb uses the tree's knowledge base and says so once; without
// one, the note names the embedded default.
func TestEmbeddedKBNoteCheck(t *testing.T) {
	dir := corpus.ActivitiesDir(t)
	t.Setenv("BDDL_KB", "")
	t.Setenv(configEnvVar, "")
	r := runBDDLIn(t, t.TempDir(), "check", "--activities", dir, "--episode", examplePath("tidying_the_living_room", "poses.jsonl"))
	if strings.Count(r.stderr, "bddl: note: using the knowledge base") != 1 || !strings.Contains(r.stderr, corpus.KBDir(t)+" (from the BEHAVIOR-1K tree") {
		t.Errorf("want one note naming the tree's knowledge base:\n%s", r.stderr)
	}
	r = runBDDLIn(t, t.TempDir(), "check", "--episode", examplePath("tidying_the_living_room", "poses.jsonl"))
	if strings.Count(r.stderr, "embedded example knowledge base") != 1 {
		t.Errorf("want one note naming the embedded default:\n%s", r.stderr)
	}
}

// TestActivitiesThroughLinks: an --activities tree whose entries are
// symbolic links (to an activity directory, to a problem file; the tree
// itself a link) loads, and its activities are found by name.
func TestActivitiesThroughLinks(t *testing.T) {
	t.Parallel()
	real := t.TempDir()
	rename := func(src, from, to string) []byte {
		return bytes.Replace(readFile(t, src), []byte(from+"-0"), []byte(to+"-0"), 1)
	}
	writeFile(t, filepath.Join(real, "tidy_up", "problem0.bddl"),
		rename(filepath.Join(examples, "tidying_the_living_room", "problem0.bddl"), "tidying_the_living_room", "tidy_up"))
	writeFile(t, filepath.Join(real, "store", "shoes.bddl"),
		rename(filepath.Join(examples, "cleaning_shoes", "problem0.bddl"), "cleaning_shoes", "shoes_x"))
	lib := t.TempDir()
	os.Symlink(filepath.Join(real, "tidy_up"), filepath.Join(lib, "tidy_up"))
	os.MkdirAll(filepath.Join(lib, "shoes_x"), 0o755)
	os.Symlink(filepath.Join(real, "store", "shoes.bddl"), filepath.Join(lib, "shoes_x", "problem0.bddl"))
	libLink := filepath.Join(t.TempDir(), "lib")
	os.Symlink(lib, libLink)
	dir := t.TempDir()
	for _, c := range []struct{ example, file, from, to string }{
		{"tidying_the_living_room", "poses.jsonl", "tidying_the_living_room", "tidy_up"},
		{"cleaning_shoes", "success.jsonl", "cleaning_shoes", "shoes_x"},
	} {
		ep := filepath.Join(dir, c.to+".jsonl")
		writeFile(t, ep, bytes.Replace(readFile(t, examplePath(c.example, c.file)), []byte(`"activity":"`+c.from+`"`), []byte(`"activity":"`+c.to+`"`), 1))
		args := []string{"check", "--format", "json", "--activities", libLink, "--episode", ep}
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitOK)
		if res := jsonResults(t, r.stdout); len(res) != 1 || res[0]["activity"] != c.to {
			t.Errorf("%s: %v\n%s", ep, res, r.stderr)
		}
	}
}
