package report

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/kb"
)

// validatedExamples validates the embedded examples, and adds a file
// that could not be read.
func validatedExamples(t *testing.T) []File {
	t.Helper()
	lib := activities.Examples()
	var out []File
	for _, a := range lib.Activities {
		out = append(out, File{Path: a.Path, Problem: a.Problem != nil, Report: a.Validate(kb.Default())})
	}
	return append(out, File{Path: "gone.bddl", Err: errors.New("gone.bddl: no such file")})
}

// TestWriteJSON: every line is a JSON object whose first field is its
// record kind; an unreadable file is a read-error finding and fails.
func TestWriteJSON(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	files := validatedExamples(t)
	failed, err := WriteJSON(&b, files, []kb.Finding{{Code: "cycle", Severity: kb.SeverityWarning, Message: "m"}}, true)
	if err != nil || !failed {
		t.Fatalf("WriteJSON = %v, %v; want failed (a file could not be read)", failed, err)
	}
	kinds := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(b.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil || !strings.HasPrefix(line, `{"record":"`) {
			t.Fatalf("line %s: %v", line, err)
		}
		kinds[rec["record"].(string)]++
		if rec["code"] == "read-error" && (rec["file"] != "gone.bddl" || rec["severity"] != "error") {
			t.Errorf("read error record: %s", line)
		}
		if rec["code"] == "cycle" && rec["rule"] != "kb" {
			t.Errorf("kb record: %s", line)
		}
	}
	if kinds["finding"] < 2 {
		t.Errorf("records %v: want the read error and the kb finding at least", kinds)
	}
}

// TestWriteText: findings go to the diagnostics stream, the summary to
// out; Quiet leaves the summary out.
func TestWriteText(t *testing.T) {
	t.Parallel()
	files := validatedExamples(t)
	var out, errw bytes.Buffer
	failed, err := WriteText(&out, &errw, files, nil, Options{})
	if err != nil || !failed {
		t.Fatalf("WriteText = %v, %v", failed, err)
	}
	if !strings.Contains(errw.String(), "gone.bddl: no such file") || !strings.Contains(out.String(), "; 1 file with errors") ||
		!strings.HasPrefix(out.String(), "CODE") && !strings.HasPrefix(out.String(), "validated ") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out.String(), errw.String())
	}
	out.Reset()
	if _, err := WriteText(&out, &errw, files[:0], nil, Options{Quiet: true}); err != nil || out.Len() != 0 {
		t.Errorf("quiet: %q, %v", out.String(), err)
	}
	if _, _ = WriteText(&out, &errw, nil, nil, Options{}); out.String() != "validated 0 problems: no findings\n" {
		t.Errorf("nothing validated: %q", out.String())
	}
}
