package libero

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

// Expected findings are written inside the bad inputs of testdata/errors,
// as a comment on the line the finding must be reported at:
//
//	(On moka_pot_1 kitchen_table_mokka_region) ; ERROR 20 "libero-region-ref: no region"
//
// The regexp must match the finding's "code: message"; an optional number
// before it is the column the finding must start at. Unexpected findings
// (warnings too) and missing ones both fail, as in bddl's own harness.
var errorComment = regexp.MustCompile(`;\s*ERROR\s+(?:(\d+)\s+)?"([^"]*)"`)

type expected struct {
	line, col int
	rx        *regexp.Regexp
	text      string
}

// diagnose reads src as an authoring command does: strict parse, then
// validation when the parse is clean.
func diagnose(name string, src []byte) bddl.Diagnostics {
	p, diags := bddl.Options{Dialect: bddl.DialectLibero}.ParseProblem(name, src)
	if !diags.HasErrors() && p != nil {
		diags = append(diags, Validate(p)...)
	}
	return diags
}

func TestErrors(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "errors", "*.bddl"))
	if len(files) == 0 {
		t.Fatal("no test inputs")
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			t.Parallel()
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var want []expected
			for i, line := range bytes.Split(src, []byte("\n")) {
				for _, m := range errorComment.FindAllSubmatch(line, -1) {
					e := expected{line: i + 1, text: string(m[2]), rx: regexp.MustCompile(string(m[2]))}
					if len(m[1]) > 0 {
						e.col, _ = strconv.Atoi(string(m[1]))
					}
					want = append(want, e)
				}
			}
			used := make([]bool, len(want))
			for _, d := range diagnose(f, src) {
				got := d.Code + ": " + d.Summary
				found := false
				for i, e := range want {
					if used[i] || e.line != int(d.Subject.Start.Line) || !e.rx.MatchString(got) {
						continue
					}
					if e.col != 0 && e.col != int(d.Subject.Start.Col) {
						t.Errorf("%s:%d:%d: %q reported at column %d, want %d", f, d.Subject.Start.Line, d.Subject.Start.Col, got, d.Subject.Start.Col, e.col)
					}
					used[i], found = true, true
					break
				}
				if !found {
					t.Errorf("%s:%d:%d: unexpected %s %q", f, d.Subject.Start.Line, d.Subject.Start.Col, d.Severity, got)
				}
			}
			for i, e := range want {
				if !used[i] {
					t.Errorf("%s:%d: missing finding matching %q", f, e.line, e.text)
				}
			}
		})
	}
}
