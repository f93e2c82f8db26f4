package bddl

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestReferenceGolden reads each testdata/reference file in both modes
// and records the diagnostics of each, and what a Reference-mode load
// holds: the objects and the goal, with the first goal formula and with
// all of them.
func TestReferenceGolden(t *testing.T) {
	t.Parallel()
	for _, in := range globT(t, "testdata/reference/*.bddl") {
		t.Run(filepath.Base(in), func(t *testing.T) {
			t.Parallel()
			src := readT(t, in)
			name := filepath.Base(in)
			var out bytes.Buffer
			for _, mode := range []struct {
				title string
				opts  Options
			}{
				{"strict", Options{}},
				{"reference", Options{Mode: Reference}},
				{"reference, --goal-formulas all", Options{Mode: Reference, Goal: AllGoalFormulas}},
				{"reference, --warnings-as-errors", Options{Mode: Reference, WarningsAsErrors: true}},
			} {
				f, diags := mode.opts.ParseFile(name, src)
				checkRanges(t, src, diags)
				fmt.Fprintf(&out, "-- %s: %d error(s), %d warning(s) --\n", mode.title, count(diags, Error), count(diags, Warning))
				if mode.opts.Mode == Strict || mode.opts.WarningsAsErrors {
					for _, d := range diags {
						fmt.Fprintln(&out, d.Error())
					}
					continue
				}
				diags.WriteText(&out)
				if p := f.Problem; p != nil && !diags.HasErrors() {
					fmt.Fprintf(&out, "objects: %s\n", objectsLine(p))
					fmt.Fprintf(&out, "goal: %s\n", String(p.Goal))
				}
			}
			checkGolden(t, strings.TrimSuffix(in, ".bddl")+".golden", out.Bytes())
		})
	}
}

func count(diags Diagnostics, s Severity) int {
	n := 0
	for _, d := range diags {
		if d.Severity == s {
			n++
		}
	}
	return n
}

func objectsLine(p *Problem) string {
	var parts []string
	for _, d := range p.Objects {
		var names []string
		for _, id := range d.Instances {
			names = append(names, id.Name)
		}
		parts = append(parts, strings.Join(names, " ")+" - "+d.Type.Name)
	}
	return strings.Join(parts, "; ")
}
