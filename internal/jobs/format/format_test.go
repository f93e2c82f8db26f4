package format

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

func TestFormatter(t *testing.T) {
	t.Parallel()
	src, out := []byte("(a  b)\n"), []byte("(a b)\n")
	for _, tc := range []struct {
		name     string
		mode     Mode
		listToo  bool
		same     bool // the file is already formatted
		want     string
		findings bool
		written  bool
	}{
		{"print", Print, false, false, "(a b)\n", false, false},
		{"print formatted", Print, false, true, "(a b)\n", false, false},
		{"list", List, true, false, "F\n", false, false},
		{"list formatted", List, true, true, "", false, false},
		{"check", Check, false, false, "F\n", true, false},
		{"check -l lists once", Check, true, false, "F\n", true, false},
		{"check formatted", Check, false, true, "", false, false},
		{"diff", Diff, false, false, "--- F\n+++ F (formatted)\n", true, false},
		{"diff -l", Diff, true, false, "F\n--- F\n", true, false},
		{"write", Write, false, false, "", false, true},
		{"write -l", Write, true, false, "F\n", false, true},
	} {
		path := filepath.Join(t.TempDir(), "f.bddl")
		in := src
		if tc.same {
			in = out
		}
		if err := os.WriteFile(path, in, 0o644); err != nil {
			t.Fatal(err)
		}
		var stdout, stderr bytes.Buffer
		f := &Formatter{Mode: tc.mode, ListToo: tc.listToo, Out: &stdout, Err: &stderr}
		f.File(path, in, out)
		got := strings.ReplaceAll(stdout.String(), path, "F")
		if !strings.HasPrefix(got, tc.want) || tc.want == "" && got != "" {
			t.Errorf("%s: output %q, want it to start with %q", tc.name, got, tc.want)
		}
		if f.Findings() != tc.findings {
			t.Errorf("%s: Findings() = %v, want %v", tc.name, f.Findings(), tc.findings)
		}
		b, _ := os.ReadFile(path)
		if written := bytes.Equal(b, out) && !bytes.Equal(in, out); written != tc.written {
			t.Errorf("%s: file rewritten = %v, want %v", tc.name, written, tc.written)
		}
	}
}

// TestFiles: a file with syntax errors is reported and makes the run's
// findings; -w refuses standard input before anything is read.
func TestFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.bddl")
	if err := os.WriteFile(bad, []byte("(define (problem"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	f := &Formatter{Out: &out, Err: &errw}
	if !f.Files([]batch.Input{{Path: bad, Arg: bad}}, nil, bddl.Options{}) || errw.Len() == 0 {
		t.Errorf("Files(bad.bddl) found nothing; stderr %q", errw.String())
	}
	w := &Formatter{Mode: Write}
	if err := w.CheckInputs([]batch.Input{{Path: batch.Stdin, Arg: "-"}}); err == nil || err.Error() != "-w cannot rewrite standard input" {
		t.Errorf("CheckInputs(-) under -w = %v", err)
	}
	if err := f.CheckInputs([]batch.Input{{Path: batch.Stdin, Arg: "-"}}); err != nil {
		t.Errorf("CheckInputs(-) printing = %v", err)
	}
}
