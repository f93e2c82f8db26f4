package bddl

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// longLineDiags are n diagnostics, one per name, on one line of n names.
func longLineDiags(n int) Diagnostics {
	line := strings.Repeat("apple.n.01_1 ", n)
	src := "(define (problem p)\n  (:objects " + line + "- apple.n.01)\n)\n"
	f, _ := ParseFile("long.bddl", []byte(src))
	var out Diagnostics
	for i := range n {
		col := int32(len("  (:objects ") + 13*i + 1)
		out = append(out, &Diagnostic{Severity: Error, Code: "duplicate-instance", Summary: "declared twice", Source: f.Source,
			Subject: Range{Start: Pos{Line: 2, Col: col, Offset: 0}, End: Pos{Line: 2, Col: col + 12}}})
	}
	return out
}

// TestTextLongLine: every diagnostic on a long line shows a window of it
// with the caret under its subject, whatever its column.
func TestTextLongLine(t *testing.T) {
	t.Parallel()
	ds := longLineDiags(2000)
	for _, i := range []int{0, 1, 1000, 1999} {
		text := ds[i].Text()
		lines := strings.Split(text, "\n")
		if len(lines) < 3 || len(lines[1]) > 4*maxShownLine {
			t.Fatalf("diagnostic %d:\n%s", i, text)
		}
		src, caret := []rune(lines[1]), []rune(lines[2])
		at := strings.IndexRune(string(caret), '^')
		if at < 0 || string(src[len([]rune(string(caret[:at]))):][:12]) != "apple.n.01_1" {
			t.Errorf("diagnostic %d: the caret is not under its subject:\n%s", i, text)
		}
	}
}

// BenchmarkTextLongLine: rendering is linear in the diagnostics, whatever
// the line's length (20,000 on one line took 17 s when each measured the
// line up to its column).
func BenchmarkTextLongLine(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		ds := longLineDiags(n)
		b.Run(fmt.Sprintf("findings=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var sb strings.Builder
				if err := ds.WriteText(&sb); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/finding")
		})
	}
}

// TestPathBytes: a file name that is not UTF-8 is kept as bytes beside
// the U+FFFD the JSON string shows.
func TestPathBytes(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, want string }{
		{"ok.bddl", ""}, {"é.bddl", ""}, {"bad\xffname.bddl", "YmFk/25hbWUuYmRkbA=="},
	} {
		if got := PathBytes(tc.name); got != tc.want {
			t.Errorf("PathBytes(%q) = %q, want %q", tc.name, got, tc.want)
		}
	}
	f, _ := ParseFile("bad\xff.bddl", []byte("(define"))
	d := &Diagnostic{Source: f.Source, Severity: Error, Summary: "x"}
	b, err := json.Marshal(d.Record())
	if err != nil || !strings.Contains(string(b), `"path_bytes":"YmFk/y5iZGRs"`) {
		t.Errorf("record: %s %v", b, err)
	}
}
