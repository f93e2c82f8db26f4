package parserun

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/internal/jobs/batch"
)

const good = `(define (problem p_0)
    (:domain omnigibson)
    (:objects
        apple.n.01_1 - apple.n.01
    )
    (:init
        (cooked apple.n.01_1)
    )
    (:goal
        (and
            (not (cooked ?apple.n.01_1))
        )
    )
)
`

// TestRun: files are reported in input order, a broken one counts as
// failed with its diagnostics on Err, and JSON is one record per file.
func TestRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var ins []batch.Input
	for i, src := range []string{good, "(define (problem broken", good} {
		p := filepath.Join(dir, string(rune('a'+i))+".bddl")
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		ins = append(ins, batch.Input{Path: p, Arg: dir})
	}
	expand := func(yield func(batch.Input)) error {
		for _, in := range ins {
			yield(in)
		}
		return nil
	}
	for _, asJSON := range []bool{false, true} {
		var out, errw bytes.Buffer
		failed, err := Run(Options{Expand: expand, JSON: asJSON, Out: &out, Err: &errw})
		if err != nil || failed != 1 {
			t.Fatalf("Run(json=%v) = %d, %v, want 1 failed", asJSON, failed, err)
		}
		if !strings.Contains(errw.String(), "b.bddl") {
			t.Errorf("Run(json=%v) stderr %q names no broken file", asJSON, errw.String())
		}
		if !asJSON {
			if out.String() != "3 files parsed, 1 with errors\n" {
				t.Errorf("Run text stdout = %q", out.String())
			}
			continue
		}
		lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
		if len(lines) != 3 {
			t.Fatalf("Run json: %d lines, want 3:\n%s", len(lines), out.String())
		}
		for i, l := range lines {
			var r struct {
				File        string
				Diagnostics []any
			}
			if err := json.Unmarshal([]byte(l), &r); err != nil || r.File != ins[i].Path || r.Diagnostics == nil {
				t.Errorf("line %d = %s (%v)", i, l, err)
			}
		}
	}
}
