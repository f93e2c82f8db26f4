package bddl

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Expected errors are written inside the bad inputs of testdata/errors, as
// a comment on the line the error must be reported at:
//
//	(ontop apple.n.01_1 table.n.02_1   ; ERROR "unclosed-paren: \(ontop"
//	(ontop apple.n.01_1 \ x)           ; ERROR 29 "invalid-character"
//
// The regexp (which cannot contain '"'; write \x22) must match the
// diagnostic's "code: message"; an optional number before it is the column
// the diagnostic must start at. The harness reports both unexpected errors
// (no comment on their line, or none that matches) and missing ones (a
// comment no diagnostic matched), in the manner of go/parser's error_test.
var errorComment = regexp.MustCompile(`;\s*ERROR\s+(?:(\d+)\s+)?"([^"]*)"`)

// expectedError is one ERROR comment.
type expectedError struct {
	line, col int // col is 0 when the comment gives none
	rx        *regexp.Regexp
	text      string
}

// expectedErrors collects the ERROR comments of src.
func expectedErrors(t testing.TB, src []byte) []expectedError {
	t.Helper()
	var out []expectedError
	for i, line := range bytes.Split(src, []byte("\n")) {
		for _, m := range errorComment.FindAllSubmatch(line, -1) {
			e := expectedError{line: i + 1, text: string(m[2])}
			if len(m[1]) > 0 {
				e.col, _ = strconv.Atoi(string(m[1]))
			}
			rx, err := regexp.Compile(e.text)
			if err != nil {
				t.Fatalf("line %d: bad ERROR regexp %q: %v", e.line, e.text, err)
			}
			e.rx = rx
			out = append(out, e)
		}
	}
	return out
}

// checkErrors compares the diagnostics of src with its ERROR comments.
func checkErrors(t *testing.T, name string, src []byte) {
	t.Helper()
	want := expectedErrors(t, src)
	_, diags := ParseFile(name, src)
	used := make([]bool, len(want))
	for _, d := range diags {
		got := d.Code + ": " + d.Summary
		found := false
		for i, e := range want {
			if used[i] || e.line != int(d.Subject.Start.Line) || !e.rx.MatchString(got) {
				continue
			}
			if e.col != 0 && e.col != int(d.Subject.Start.Col) {
				t.Errorf("%s:%d:%d: %q reported at column %d, want column %d", name, d.Subject.Start.Line, d.Subject.Start.Col, got, d.Subject.Start.Col, e.col)
			}
			used[i], found = true, true
			break
		}
		if !found {
			t.Errorf("%s:%d:%d: unexpected error %q", name, d.Subject.Start.Line, d.Subject.Start.Col, got)
		}
	}
	for i, e := range want {
		if !used[i] {
			t.Errorf("%s:%d: missing error matching %q", name, e.line, e.text)
		}
	}
}

// TestErrors runs the ERROR harness on every testdata/errors/*.bddl.
func TestErrors(t *testing.T) {
	t.Parallel()
	for _, in := range globT(t, "testdata/errors/*.bddl") {
		t.Run(filepath.Base(in), func(t *testing.T) {
			t.Parallel()
			src := readT(t, in)
			if len(expectedErrors(t, src)) == 0 {
				t.Fatalf("%s has no ERROR comment", in)
			}
			checkErrors(t, filepath.Base(in), src)
		})
	}
}

// TestErrorCommentSyntax checks the harness's own reading of ERROR comments.
func TestErrorCommentSyntax(t *testing.T) {
	t.Parallel()
	src := []byte("(a)\n(b) ; ERROR \"x: y\"\n(c) ; ERROR 12 \"z\"\n; not an ERROR comment\n")
	got := expectedErrors(t, src)
	if len(got) != 2 {
		t.Fatalf("expectedErrors found %d comments, want 2: %+v", len(got), got)
	}
	if got[0].line != 2 || got[0].col != 0 || got[0].text != "x: y" {
		t.Errorf("first comment = line %d col %d %q, want line 2 col 0 %q", got[0].line, got[0].col, got[0].text, "x: y")
	}
	if got[1].line != 3 || got[1].col != 12 || got[1].text != "z" {
		t.Errorf("second comment = line %d col %d %q, want line 3 col 12 %q", got[1].line, got[1].col, got[1].text, "z")
	}
}

// problemWith returns a small valid problem with goal as its :goal body.
// The goal starts on line 8.
func problemWith(goal string) string {
	return "(define (problem p-0)\n" + //1
		"    (:domain omnigibson)\n" + //2
		"    (:objects apple.n.01_1 - apple.n.01)\n" + //3
		"    (:init\n" + //4
		"        (ontop apple.n.01_1 table.n.02_1)\n" + //5
		"    )\n" + //6
		"    (:goal\n" + //7
		goal + "\n" + //8
		"    )\n" +
		")\n"
}

// TestMalformed covers bad inputs that cannot carry an ERROR comment or are
// better built by code: each case gives the first diagnostic's code and
// position, and how many diagnostics there must be.
func TestMalformed(t *testing.T) {
	t.Parallel()
	deep := func(n int, op string) string {
		return strings.Repeat("("+op+" ", n) + "(cooked ?apple.n.01_1)" + strings.Repeat(")", n)
	}
	tests := []struct {
		name  string
		src   string
		code  string
		pos   string // line:col of the first diagnostic
		count int    // number of diagnostics
	}{
		{name: "empty file", src: "", code: "empty-file", pos: "1:1", count: 1},
		{name: "only white space", src: " \n\t\r\n  ", code: "empty-file", pos: "1:1", count: 1},
		{name: "only a comment", src: "; nothing here\n", code: "empty-file", pos: "1:1", count: 1},
		{name: "non-UTF-8 in an atom", src: problemWith("(cooked apple\xff.n.01_1)"), code: "invalid-utf8", pos: "8:14", count: 1},
		{name: "non-UTF-8 byte run", src: problemWith("(cooked \xfe\xff\xfe)"), code: "invalid-utf8", pos: "8:9", count: 1},
		{name: "non-UTF-8 between sections", src: "(define (problem p) (:domain d) \xc3 (:objects) (:init) (:goal (and)))", code: "invalid-utf8", pos: "1:33", count: 1},
		{name: "truncated UTF-8 at the end of input", src: problemWith("(and)") + "\xe2\x82", code: "invalid-utf8", pos: "11:1", count: 1},
		{name: "non-UTF-8 in a comment is fine", src: problemWith("(and) ; caf\xe9"), count: 0},
		{name: "UTF-8 letters in names are fine", src: problemWith("(cooked ?café.n.01_1)"), count: 0},
		// The goal formula is at depth 1, so n nested nots put the atom at
		// depth n+1; each "(not " is 5 bytes.
		{name: "nesting at the limit", src: problemWith(deep(maxDepth-1, "not")), count: 0},
		{name: "nesting past the limit", src: problemWith(deep(maxDepth, "not")), code: "too-deep", pos: fmt.Sprintf("8:%d", 1+5*maxDepth), count: 1},
		{name: "100000 nested ands", src: problemWith(deep(100000, "and")), code: "too-deep", pos: fmt.Sprintf("8:%d", 1+5*maxDepth), count: 1},
		// The innermost (and that was parsed is reported; the too-deep error
		// just after it on the same line is dropped as a consequence.
		{name: "100000 unclosed ands", src: problemWith(strings.Repeat("(and ", 100000)), code: "unclosed-paren", pos: fmt.Sprintf("8:%d", 1+5*(maxDepth-1)), count: 1},
		{name: "100000 nested quantifiers", src: problemWith(strings.Repeat("(forall (?x - a.n.01) ", 100000) + "(p ?x)" + strings.Repeat(")", 100000)), code: "too-deep", count: 1},
		{name: "100000 open parens in :init", src: "(define (problem p) (:domain d) (:objects) (:init\n" + strings.Repeat("(\n", 100000), code: "missing-section", pos: "1:18", count: 3},
		// One error per line: extra parens on one line give one error, on
		// separate lines one each, up to the cap.
		{name: "100000 close parens on one line", src: "(define (problem p) (:domain d) (:objects) (:init) (:goal (and)))" + strings.Repeat(")", 100000), code: "extra-paren", pos: "1:66", count: 1},
		{name: "100000 close parens on separate lines", src: "(define (problem p) (:domain d) (:objects) (:init) (:goal (and)))\n" + strings.Repeat(")\n", 100000), code: "extra-paren", pos: "2:1", count: maxErrors + 1},
		{name: "only a close paren", src: ")", code: "unexpected-token", pos: "1:1", count: 1},
		{name: "not a definition", src: "(foo bar)", code: "unexpected-token", pos: "1:2", count: 1},
		{name: "define without a name", src: "(define (problem))", code: "unexpected-token", pos: "1:17", count: 1},
		{name: "define of an unknown kind", src: "(define (activity x))", code: "unexpected-token", pos: "1:10", count: 1},
		{name: "stray character before define", src: `\(define (problem x))`, code: "invalid-character", pos: "1:1", count: 1},
		{name: "non-UTF-8 before define", src: "\xff(define (problem x))", code: "invalid-utf8", pos: "1:1", count: 1},
		{name: "header only", src: "(define (problem x)", code: "unclosed-paren", pos: "1:1", count: 1},
		{name: "define without sections", src: "(define (problem x))", code: "missing-section", pos: "1:18", count: 1},
		{name: "domain without predicates", src: "(define (domain x))", code: "missing-section", pos: "1:17", count: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, diags := ParseFile("bad.bddl", []byte(tt.src))
			checkRanges(t, []byte(tt.src), diags)
			if tt.count >= 0 && len(diags) != tt.count {
				t.Errorf("ParseFile gave %d diagnostics, want %d:\n%s", len(diags), tt.count, brief(diags))
			}
			if tt.count == 0 || len(diags) == 0 {
				return
			}
			if !diags.HasErrors() {
				t.Errorf("ParseFile diagnostics hold no error:\n%s", brief(diags))
			}
			d := diags[0]
			if tt.code != "" && d.Code != tt.code {
				t.Errorf("ParseFile code = %s, want %s (%s)", d.Code, tt.code, d.Error())
			}
			if tt.pos != "" && d.Subject.Start.String() != tt.pos {
				t.Errorf("ParseFile error at %s, want %s (%s)", d.Subject.Start, tt.pos, d.Error())
			}
		})
	}
}

// brief lists diagnostics one per line, cut short, for failure messages
// about inputs too long to print.
func brief(ds Diagnostics) string {
	var b strings.Builder
	for i, d := range ds {
		if i == 10 {
			fmt.Fprintf(&b, "... and %d more\n", len(ds)-i)
			break
		}
		line := d.Error()
		if len(line) > 200 {
			line = line[:200] + "..."
		}
		b.WriteString(line + "\n")
	}
	return b.String()
}

// checkRanges checks that every diagnostic points into src: offsets within
// [0, len(src)], start before end, and line and column agreeing with the
// offset.
func checkRanges(t testing.TB, src []byte, diags Diagnostics) {
	t.Helper()
	s := NewSource("", src)
	for _, d := range diags {
		r := d.Subject
		if r.Start.Offset < 0 || r.Start.Offset > r.End.Offset || int(r.End.Offset) > len(src) {
			t.Errorf("%s: range %+v is not inside the %d-byte source", d.Error(), r, len(src))
			continue
		}
		if got := s.Pos(int(r.Start.Offset)); got != r.Start {
			t.Errorf("%s: start %+v disagrees with its offset, which is at %+v", d.Error(), r.Start, got)
		}
		if got := s.Pos(int(r.End.Offset)); got != r.End {
			t.Errorf("%s: end %+v disagrees with its offset, which is at %+v", d.Error(), r.End, got)
		}
		if d.Source == nil {
			t.Errorf("%s: diagnostic has no Source", d.Error())
		}
		if d.Code == "" || d.Summary == "" {
			t.Errorf("%s: diagnostic lacks a code or summary", d.Error())
		}
	}
}

// TestErrorCap checks that a file with 100 independent errors reports the
// first maxErrors of them, in source order, then one too-many-errors
// diagnostic.
func TestErrorCap(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("(define (problem cap-0)\n (:domain omnigibson)\n (:objects)\n (:init\n")
	const n = 100
	for i := range n {
		fmt.Fprintf(&b, "  (cooked apple.n.01_%d) \\\n", i+1) // line 5+i: a stray '\'
	}
	b.WriteString(" )\n (:goal (and)))\n")
	src := []byte(b.String())
	_, diags := ParseFile("cap.bddl", src)
	checkRanges(t, src, diags)
	if len(diags) != maxErrors+1 {
		t.Fatalf("ParseFile gave %d diagnostics, want %d:\n%s", len(diags), maxErrors+1, brief(diags))
	}
	for i, d := range diags[:maxErrors] {
		if d.Code != "invalid-character" || int(d.Subject.Start.Line) != 5+i {
			t.Errorf("diagnostic %d = %s, want invalid-character on line %d", i, d.Error(), 5+i)
		}
	}
	last := diags[maxErrors]
	if last.Code != "too-many-errors" || last.Severity != Error || !strings.Contains(last.Summary, fmt.Sprint(maxErrors)) {
		t.Errorf("last diagnostic = %s, want too-many-errors naming the cap %d", last.Error(), maxErrors)
	}

	// Fewer errors than the cap are all reported, with no cap diagnostic.
	src = []byte(strings.Replace(string(src), " \\\n", "\n", n-maxErrors+1))
	_, diags = ParseFile("cap.bddl", src)
	if len(diags) != maxErrors-1 {
		t.Errorf("with %d errors ParseFile gave %d diagnostics, want all %d:\n%s", maxErrors-1, len(diags), maxErrors-1, brief(diags))
	}
	for _, d := range diags {
		if d.Code == "too-many-errors" {
			t.Errorf("too-many-errors reported below the cap")
		}
	}
}

// TestOneErrorPerLine checks that when several errors fall on one line
// only the first is kept: the others are nearly always its consequences.
func TestOneErrorPerLine(t *testing.T) {
	t.Parallel()
	src := problemWith("(and (cooked \\ ?apple.n.01_1) () (not) $)")
	_, diags := ParseFile("line.bddl", []byte(src))
	if len(diags) != 1 || diags[0].Code != "invalid-character" || diags[0].Subject.Start.String() != "8:14" {
		t.Errorf("ParseFile diagnostics:\n%swant one invalid-character at 8:14", brief(diags))
	}
}
