package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var (
	validateDir = filepath.Join("testdata", "validate")
	validateKB  = filepath.Join(validateDir, "kb.yaml")
)

// TestValidateExamples: with no path, the embedded examples validate
// against the embedded default knowledge base without errors.
func TestValidateExamples(t *testing.T) {
	t.Parallel()
	args := []string{"validate"}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if !strings.Contains(r.stdout, "validated ") || strings.Contains(r.stderr, ": error: ") {
		t.Errorf("bddl validate:\nstdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
}

func TestValidateText(t *testing.T) {
	t.Parallel()
	args := []string{"validate", "--kb", validateKB, validateDir}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	bad := filepath.Join(validateDir, "bad_act", "problem0.bddl")
	for _, want := range []string{
		bad + ":1:18: error: problem bad_act-1 is in bad_act/problem0.bddl, so it must be named bad_act-0 [problem-name]",
		bad + ":5:9: error: bowl.n.01_1 is not placed",
		"    5 |         bowl.n.01_1 - bowl.n.01\n      |         ^^^^^^^^^^^\n      = place it, e.g. (ontop bowl.n.01_1 countertop.n.01_1)",
		"[placed-twice]",
		"[inapplicable]",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "good_act") {
		t.Errorf("findings about the good definition:\n%s", r.stderr)
	}
	for _, want := range []string{"CODE", "unplaced", "placement", "validated 2 problems: 4 errors, 0 warnings; 1 file with errors"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestValidateClean(t *testing.T) {
	t.Parallel()
	args := []string{"validate", "--kb", validateKB, filepath.Join(validateDir, "good_act")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	if want := "validated 1 problem: no findings\n"; r.stdout != want || r.stderr != "" {
		t.Errorf("stdout %q, stderr %q; want %q and nothing", r.stdout, r.stderr, want)
	}
}

func TestValidateJSON(t *testing.T) {
	t.Parallel()
	args := []string{"validate", "--format", "json", "--kb", validateKB, "--scenes", "--kb-rules", validateDir}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	codes := map[string]int{}
	scenes := 0
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("not JSON: %q: %v", line, err)
		}
		if _, ok := rec["scenes"]; ok {
			scenes++
			continue
		}
		for _, field := range []string{"file", "severity", "code", "rule", "message"} {
			if _, ok := rec[field]; !ok {
				t.Errorf("record lacks %s: %s", field, line)
			}
		}
		if rec["rule"] != "kb" {
			for _, field := range []string{"line", "col", "end_line", "end_col", "fix"} {
				if _, ok := rec[field]; !ok {
					t.Errorf("record lacks %s: %s", field, line)
				}
			}
		}
		codes[rec["code"].(string)]++
	}
	for _, code := range []string{"problem-name", "unplaced", "placed-twice", "inapplicable", "rule-clash"} {
		if codes[code] != 1 {
			t.Errorf("%d %s records, want 1 (all: %v)", codes[code], code, codes)
		}
	}
	if scenes != 2 {
		t.Errorf("%d scene records, want 2:\n%s", scenes, r.stdout)
	}
	if r.stderr != "" {
		t.Errorf("stderr: %s", r.stderr)
	}
}

func TestValidateScenes(t *testing.T) {
	t.Parallel()
	args := []string{"validate", "--scenes", "--kb", validateKB, filepath.Join(validateDir, "good_act", "problem0.bddl")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitOK)
	for _, want := range []string{
		"problem0.bddl: 2 of 3 scenes can host it; it needs kitchen (countertop.n.01_1 floor.n.01_1)",
		"  --  Garden_0  no kitchen",
		"  ok  House_0   kitchen_0",
		"  ok  Studio_0  kitchen_0",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
}

func TestValidateKBRules(t *testing.T) {
	t.Parallel()
	args := []string{"validate", "--kb-rules", "--kb", validateKB, filepath.Join(validateDir, "good_act")}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if !strings.Contains(r.stderr, `heat_cook rules "cookies" and "apple_cookies" clash`) || !strings.Contains(r.stdout, "rule-clash") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", r.stdout, r.stderr)
	}
}

func TestValidateMisuse(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"validate", "--format", "xml"},
		{"validate", filepath.Join(validateDir, "no_such_file.bddl")},
		{"validate", "--kb", filepath.Join(validateDir, "no_such_kb.yaml")},
		{"validate", "--no-such-flag"},
	} {
		r := runBDDL(t, args...)
		r.wantCode(t, args, exitMisuse)
	}
}

// TestValidateDomainFlag: --domain replaces the embedded domain, so a
// predicate the file does not declare is reported, and a file that is not
// a domain is misuse.
func TestValidateDomainFlag(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	small := filepath.Join(dir, "domain.bddl")
	if err := os.WriteFile(small, []byte("(define (domain omnigibson)\n    (:predicates (ontop ?a ?b) (inroom ?a ?b))\n)\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(validateDir, "good_act")
	args := []string{"validate", "--kb", validateKB, "--domain", small, good}
	r := runBDDL(t, args...)
	r.wantCode(t, args, exitFindings)
	if !strings.Contains(r.stderr, "predicate cooked is not declared by domain omnigibson [unknown-predicate]") {
		t.Errorf("stderr lacks the unknown predicate:\n%s", r.stderr)
	}
	args = []string{"validate", "--kb", validateKB, "--domain", filepath.Join(good, "problem0.bddl"), good}
	r = runBDDL(t, args...)
	r.wantCode(t, args, exitMisuse)
}
