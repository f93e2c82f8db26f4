package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
)

func TestParseCommand(t *testing.T) {
	t.Parallel()
	good := filepath.Join("testdata", "cookies.bddl")
	broken := filepath.Join("testdata", "broken.bddl")
	domain := filepath.Join("testdata", "domain.bddl")
	tests := []struct {
		name       string
		args       []string
		code       int
		stdout     string
		stderrHas  []string
		stderrNone bool
	}{
		{name: "good problem", args: []string{"parse", good}, code: exitOK,
			stdout: "1 file parsed, 0 with errors\n", stderrNone: true},
		{name: "domain file", args: []string{"parse", domain}, code: exitOK,
			stdout: "1 file parsed, 0 with errors\n", stderrNone: true},
		{name: "several files", args: []string{"parse", good, domain, good}, code: exitOK,
			stdout: "2 files parsed, 0 with errors\n", stderrNone: true}, // a file named twice is parsed once
		{name: "file with errors", args: []string{"parse", broken}, code: exitFindings,
			stdout: "1 file parsed, 1 with errors\n",
			stderrHas: []string{
				broken + ":8:6: error: unexpected character \"\\\\\" [invalid-character]",
				"    8 |     )\\\n",
				broken + ":11:14: error: forall has no variable declaration [missing-declaration]",
			}},
		{name: "good and bad", args: []string{"parse", good, broken}, code: exitFindings,
			stdout: "2 files parsed, 1 with errors\n", stderrHas: []string{broken + ":8:6:"}},
		{name: "directory", args: []string{"parse", "testdata"}, code: exitFindings,
			stderrHas: []string{filepath.Join("testdata", "broken.bddl") + ":8:6:"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := runBDDL(t, tt.args...)
			r.wantCode(t, tt.args, tt.code)
			if tt.stdout != "" && r.stdout != tt.stdout {
				t.Errorf("stdout = %q, want %q", r.stdout, tt.stdout)
			}
			for _, want := range tt.stderrHas {
				if !strings.Contains(r.stderr, want) {
					t.Errorf("stderr does not contain %q:\n%s", want, r.stderr)
				}
			}
			if tt.stderrNone && r.stderr != "" {
				t.Errorf("stderr = %q, want nothing", r.stderr)
			}
		})
	}
}

// TestParseDirectory checks that a directory is walked for *.bddl files
// only, in nested directories too.
func TestParseDirectory(t *testing.T) {
	t.Parallel()
	dir := copyTestdata(t, 0o644, "cookies.bddl", "domain.bddl")
	sub := filepath.Join(dir, "nested", "deeper")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	src := readFile(t, filepath.Join("testdata", "broken.bddl"))
	for _, name := range []string{filepath.Join(sub, "problem0.bddl"), filepath.Join(dir, "notes.txt"), filepath.Join(dir, "problem.bddl.orig")} {
		if err := os.WriteFile(name, src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	args := []string{"parse", dir}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if want := "3 files parsed, 1 with errors\n"; r.stdout != want {
		t.Errorf("stdout = %q, want %q", r.stdout, want)
	}
	if !strings.Contains(r.stderr, filepath.Join(sub, "problem0.bddl")+":8:6:") {
		t.Errorf("stderr does not report the nested file:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "notes.txt") || strings.Contains(r.stderr, ".orig") {
		t.Errorf("stderr reports files that are not *.bddl:\n%s", r.stderr)
	}
	// A file named on the command line is parsed whatever its name.
	args = []string{"parse", filepath.Join(dir, "notes.txt")}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
}

// parseJSONLines decodes the JSON lines of bddl parse --format json.
func parseJSONLines(t *testing.T, out string) []map[string]any {
	t.Helper()
	var recs []map[string]any
	sc := bufio.NewScanner(strings.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("stdout line is not JSON: %v\n%s", err, sc.Text())
		}
		recs = append(recs, rec)
	}
	return recs
}

func TestParseJSON(t *testing.T) {
	t.Parallel()
	good := filepath.Join("testdata", "cookies.bddl")
	broken := filepath.Join("testdata", "broken.bddl")
	domain := filepath.Join("testdata", "domain.bddl")
	args := []string{"parse", "--format", "json", good, broken, domain}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	recs := parseJSONLines(t, r.stdout)
	if len(recs) != 3 {
		t.Fatalf("got %d JSON lines, want 3:\n%s", len(recs), r.stdout)
	}
	for i, want := range []string{good, broken, domain} {
		if recs[i]["file"] != want {
			t.Errorf("line %d file = %v, want %s", i+1, recs[i]["file"], want)
		}
	}

	// The good problem: its AST with kinds and ranges, no diagnostics.
	p, ok := recs[0]["problem"].(map[string]any)
	if !ok {
		t.Fatalf("line 1 has no problem object: %v", recs[0])
	}
	if name := p["name"].(map[string]any)["name"]; name != "baking_sugar_cookies-0" {
		t.Errorf("problem name = %v", name)
	}
	goal := p["goal"].(map[string]any)
	if goal["kind"] != "and" {
		t.Errorf("goal kind = %v, want and", goal["kind"])
	}
	rng := goal["range"].(map[string]any)
	start := rng["start"].(map[string]any)
	if start["line"] != 18.0 || start["col"] != 9.0 {
		t.Errorf("goal range start = %v, want line 18 col 9", start)
	}
	if d := recs[0]["diagnostics"].([]any); len(d) != 0 {
		t.Errorf("good file diagnostics = %v, want []", d)
	}
	if _, ok := recs[0]["domain"]; ok {
		t.Errorf("problem record has a domain field: %v", recs[0])
	}

	// The broken problem: a partial tree and its diagnostics.
	if _, ok := recs[1]["problem"].(map[string]any); !ok {
		t.Errorf("broken file has no partial problem: %v", recs[1])
	}
	diags := recs[1]["diagnostics"].([]any)
	if len(diags) != 2 {
		t.Fatalf("broken file has %d diagnostics, want 2: %v", len(diags), diags)
	}
	d := diags[0].(map[string]any)
	for k, want := range map[string]any{"file": broken, "line": 8.0, "col": 6.0, "severity": "error", "code": "invalid-character"} {
		if d[k] != want {
			t.Errorf("diagnostic %s = %v, want %v", k, d[k], want)
		}
	}

	// The domain: its predicates.
	dom, ok := recs[2]["domain"].(map[string]any)
	if !ok || len(dom["predicates"].([]any)) != 2 {
		t.Errorf("domain record = %v, want a domain with 2 predicates", recs[2])
	}

	// Diagnostics still go to stderr; no text summary on stdout.
	if !strings.Contains(r.stderr, broken+":8:6:") {
		t.Errorf("stderr lacks the diagnostics:\n%s", r.stderr)
	}
	if strings.Contains(r.stdout, "files parsed") {
		t.Errorf("json output has the text summary:\n%s", r.stdout)
	}
}

// TestParseCorpus runs bddl parse over the BEHAVIOR-1K corpus directory.
func TestParseCorpus(t *testing.T) {
	t.Parallel()
	dir := corpus.ActivitiesDir(t)
	n := len(corpus.ActivityFiles(t))
	args := []string{"parse", dir}
	r := runBDDL(t, args...)
	if !corpus.Recorded(t) {
		// Another corpus: every file is counted, and a file with errors
		// exits 1.
		if !strings.HasPrefix(r.stdout, fmt.Sprintf("%d files parsed, ", n)) || (r.code == exitOK) != strings.Contains(r.stdout, ", 0 with errors") {
			t.Errorf("bddl parse %s: exit %d, stdout %q", dir, r.code, r.stdout)
		}
		return
	}
	r.wantCode(t, args, exitFindings)
	if want := fmt.Sprintf("%d files parsed, 1 with errors\n", n); r.stdout != want {
		t.Errorf("stdout = %q, want %q", r.stdout, want)
	}
	bad := filepath.Join(dir, "wash_a_baseball_cap", "problem0.bddl")
	if want := bad + ":22:6: error: unexpected character \"\\\\\" [invalid-character]\n"; !strings.HasPrefix(r.stderr, want) {
		t.Errorf("stderr = %q, want it to start with %q", r.stderr, want)
	}

	args = []string{"parse", "--format", "json", dir}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	recs := parseJSONLines(t, r.stdout)
	if len(recs) != n {
		t.Fatalf("got %d JSON lines, want %d", len(recs), n)
	}
	for _, rec := range recs {
		_, isProblem := rec["problem"]
		_, isDomain := rec["domain"]
		if isProblem == isDomain {
			t.Errorf("%v: want exactly one of problem and domain", rec["file"])
		}
	}
}

// TestParseStreamsInOrder: with stdout and stderr on one stream (2>&1),
// each file's diagnostics come just before its JSON record, the records
// in walk order, however the workers finish; an argument that fails
// after a directory was walked leaves nothing of that directory printed.
func TestParseStreamsInOrder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := readFile(t, filepath.Join("testdata", "domain.bddl")) // records shorter than a write buffer
	broken := readFile(t, filepath.Join("testdata", "broken.bddl"))
	var want []string // walk order
	for i := range 40 {
		sub := filepath.Join(dir, fmt.Sprintf("d%02d", i))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		src := good
		if i%3 == 1 {
			src = broken
		}
		p := filepath.Join(sub, "problem0.bddl")
		if err := os.WriteFile(p, src, 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, p)
	}
	var both strings.Builder
	code := run([]string{"parse", "--format", "json", dir}, strings.NewReader(""), &both, &both)
	if code != exitFindings {
		t.Fatalf("exit %d, want %d:\n%s", code, exitFindings, both.String())
	}
	var records []string
	lastDiag := "" // the file of the last diagnostic line since the last record
	for _, line := range strings.Split(strings.TrimSuffix(both.String(), "\n"), "\n") {
		if strings.HasPrefix(line, "{") {
			var rec struct{ File string }
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatal(err)
			}
			if lastDiag != "" && lastDiag != rec.File {
				t.Errorf("diagnostics of %s before the record of %s", lastDiag, rec.File)
			}
			records, lastDiag = append(records, rec.File), ""
			continue
		}
		if file, _, ok := strings.Cut(line, ".bddl:"); ok && strings.HasPrefix(line, dir) {
			lastDiag = file + ".bddl"
		}
	}
	if strings.Join(records, "\n") != strings.Join(want, "\n") {
		t.Errorf("records in order\n%s\nwant\n%s", strings.Join(records, "\n"), strings.Join(want, "\n"))
	}

	args := []string{"parse", dir, filepath.Join(dir, "missing.bddl")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
	if r.stdout != "" || strings.Contains(r.stderr, "error:") {
		t.Errorf("a failed expansion printed reports:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
}
