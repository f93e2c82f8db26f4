package bddl

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

func diagAt(file string, sev Severity, code string, line, col, off int) *Diagnostic {
	var src *Source
	if file != "" {
		src = NewSource(file, nil)
	}
	return &Diagnostic{Severity: sev, Code: code, Summary: code + " happened",
		Subject: Range{Start: Pos{int32(off), int32(line), int32(col)}, End: Pos{int32(off + 1), int32(line), int32(col + 1)}}, Source: src}
}

func TestSeverity(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		s    Severity
		name string
	}{{Error, "error"}, {Warning, "warning"}, {Info, "info"}} {
		if got := tt.s.String(); got != tt.name {
			t.Errorf("%d.String() = %q, want %q", tt.s, got, tt.name)
		}
		b, err := json.Marshal(tt.s)
		if err != nil || string(b) != `"`+tt.name+`"` {
			t.Errorf("json.Marshal(%v) = %s, %v, want %q", tt.s, b, err, tt.name)
		}
		var back Severity
		if err := json.Unmarshal(b, &back); err != nil || back != tt.s {
			t.Errorf("json.Unmarshal(%s) = %v, %v, want %v", b, back, err, tt.s)
		}
	}
	var s Severity
	if err := s.UnmarshalText([]byte("fatal")); err == nil {
		t.Errorf("UnmarshalText(%q) = nil error, want an error", "fatal")
	}
}

func TestDiagnosticError(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		d    *Diagnostic
		want string
	}{
		{"file and position", diagAt("a.bddl", Error, "extra-paren", 3, 7, 20), "a.bddl:3:7: error: extra-paren happened [extra-paren]"},
		{"position without file", diagAt("", Warning, "w", 1, 2, 1), ":1:2: warning: w happened [w]"},
		{"no position", &Diagnostic{Severity: Error, Code: "c", Summary: "bad", Source: NewSource("f", nil)}, "f: error: bad [c]"},
		{"nothing", &Diagnostic{Severity: Info, Code: "c", Summary: "note"}, "info: note [c]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.d.Error(); got != tt.want {
				t.Errorf("Error() = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestDiagnosticsErr(t *testing.T) {
	t.Parallel()
	warn := diagAt("a", Warning, "w", 1, 1, 0)
	info := diagAt("a", Info, "i", 2, 1, 5)
	bad := diagAt("a", Error, "e", 3, 1, 9)
	tests := []struct {
		name      string
		ds        Diagnostics
		hasErrors bool
		msg       string
	}{
		{"nil", nil, false, "no diagnostics"},
		{"empty", Diagnostics{}, false, "no diagnostics"},
		{"warnings only", Diagnostics{warn, info}, false, warn.Error() + " (and 1 more)"},
		{"one error", Diagnostics{bad}, true, bad.Error()},
		{"error after warnings", Diagnostics{warn, info, bad}, true, warn.Error() + " (and 2 more)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := tt.ds.HasErrors(); got != tt.hasErrors {
				t.Errorf("HasErrors() = %v, want %v", got, tt.hasErrors)
			}
			err := tt.ds.Err()
			if (err != nil) != tt.hasErrors {
				t.Fatalf("Err() = %v, want nil: %v", err, !tt.hasErrors)
			}
			if got := tt.ds.Error(); got != tt.msg {
				t.Errorf("Error() = %q, want %q", got, tt.msg)
			}
			if err == nil {
				return
			}
			wrapped := fmt.Errorf("loading: %w", err)
			ds, ok := AsDiagnostics(wrapped)
			if !ok || len(ds) != len(tt.ds) {
				t.Errorf("AsDiagnostics(wrapped Err()) = %v, %v, want the %d diagnostics", ds, ok, len(tt.ds))
			}
		})
	}
}

func TestAsDiagnostics(t *testing.T) {
	t.Parallel()
	d := diagAt("a", Error, "e", 1, 1, 0)
	if ds, ok := AsDiagnostics(fmt.Errorf("x: %w", d)); !ok || len(ds) != 1 || ds[0] != d {
		t.Errorf("AsDiagnostics(wrapped *Diagnostic) = %v, %v, want [d], true", ds, ok)
	}
	if ds, ok := AsDiagnostics(errors.New("plain")); ok || ds != nil {
		t.Errorf("AsDiagnostics(plain error) = %v, %v, want nil, false", ds, ok)
	}
	if _, ok := AsDiagnostics(nil); ok {
		t.Errorf("AsDiagnostics(nil) ok = true, want false")
	}
}

func TestDiagnosticsSort(t *testing.T) {
	t.Parallel()
	a1 := diagAt("a", Error, "a1", 1, 1, 0)
	a2 := diagAt("a", Error, "a2", 2, 1, 10)
	a2w := diagAt("a", Warning, "a2w", 2, 1, 10) // same place as a2: keeps its order
	b1 := diagAt("b", Error, "b1", 1, 1, 0)
	none := &Diagnostic{Severity: Error, Code: "none", Summary: "no file"}
	ds := Diagnostics{b1, a2, a2w, none, a1}
	ds.Sort()
	var got []string
	for _, d := range ds {
		got = append(got, d.Code)
	}
	want := []string{"none", "a1", "a2", "a2w", "b1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Sort order (-want +got):\n%s", diff)
	}
}

func TestDiagnosticText(t *testing.T) {
	t.Parallel()
	src := NewSource("p.bddl", []byte("(a)\n\t(b c)\n(d)"))
	tests := []struct {
		name string
		d    *Diagnostic
		want string
	}{
		{
			name: "one-line subject with detail; tabs shown as one space",
			d: &Diagnostic{Severity: Error, Code: "c", Summary: "bad b", Detail: "fix it", Source: src,
				Subject: Range{Start: src.Pos(6), End: src.Pos(9)}},
			want: "p.bddl:2:3: error: bad b [c]\n    2 |  (b c)\n      |   ^^^\n      = fix it\n",
		},
		{
			name: "empty subject gets one caret",
			d: &Diagnostic{Severity: Warning, Code: "c", Summary: "here", Source: src,
				Subject: Range{Start: src.Pos(11), End: src.Pos(11)}},
			want: "p.bddl:3:1: warning: here [c]\n    3 | (d)\n      | ^\n",
		},
		{
			name: "multi-line subject is underlined to the end of its first line",
			d: &Diagnostic{Severity: Error, Code: "c", Summary: "span", Source: src,
				Subject: Range{Start: src.Pos(1), End: src.Pos(8)}},
			want: "p.bddl:1:2: error: span [c]\n    1 | (a)\n      |  ^^\n",
		},
		{
			name: "no source",
			d:    &Diagnostic{Severity: Error, Code: "c", Summary: "lost", Detail: "look elsewhere"},
			want: "error: lost [c]\n      = look elsewhere\n",
		},
		{
			name: "position past the last line",
			d:    &Diagnostic{Severity: Error, Code: "c", Summary: "far", Source: src, Subject: Range{Start: Pos{0, 9, 1}, End: Pos{0, 9, 1}}},
			want: "p.bddl:9:1: error: far [c]\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, tt.d.Text()); diff != "" {
				t.Errorf("Text() mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestDiagnosticTextCaretUnderNonASCII checks that the caret sits under the
// subject when characters of more than one byte come before it on its
// line: columns count bytes, but the rendered line shows characters.
func TestDiagnosticTextCaretUnderNonASCII(t *testing.T) {
	t.Parallel()
	src := []byte("(define (problem p)\n (:domain d)\n (:objects café.n.01_1 - café.n.01)\n (:init (cooked café.n.01_1) $)\n (:goal (cooked ?café.n.01_1)))\n")
	_, diags := ParseFile("p.bddl", src)
	if len(diags) != 1 || diags[0].Code != "invalid-character" {
		t.Fatalf("ParseFile diagnostics = %v, want one invalid-character", diags)
	}
	lines := strings.Split(diags[0].Text(), "\n")
	shown, carets := lines[1], lines[2]
	col := strings.Index(carets, "^")
	if col < 0 || col >= len([]rune(shown)) {
		t.Fatalf("caret line %q has no caret under the source line %q", carets, shown)
	}
	if got := []rune(shown)[col]; got != '$' {
		t.Errorf("caret is under %q, want under '$':\n%s\n%s", got, shown, carets)
	}
}

func TestWriteTextError(t *testing.T) {
	t.Parallel()
	ds := Diagnostics{diagAt("a", Error, "e", 1, 1, 0)}
	want := errors.New("disk full")
	if err := ds.WriteText(failingWriter{want}); !errors.Is(err, want) {
		t.Errorf("WriteText to a failing writer = %v, want %v", err, want)
	}
	var b strings.Builder
	if err := ds.WriteText(&b); err != nil || b.String() != ds[0].Text() {
		t.Errorf("WriteText = %q, %v, want %q, nil", b.String(), err, ds[0].Text())
	}
}

type failingWriter struct{ err error }

func (w failingWriter) Write([]byte) (int, error) { return 0, w.err }

func TestDiagnosticJSON(t *testing.T) {
	t.Parallel()
	src := NewSource("p.bddl", []byte("(a)\n(bb)\n"))
	d := &Diagnostic{Severity: Error, Code: "extra-paren", Summary: "extra", Detail: "delete it", Source: src,
		Subject: Range{Start: src.Pos(5), End: src.Pos(7)}}
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", b, err)
	}
	want := map[string]any{
		"file": "p.bddl", "line": 2.0, "col": 2.0, "end_line": 2.0, "end_col": 4.0, "offset": 5.0,
		"severity": "error", "code": "extra-paren", "message": "extra", "fix": "delete it",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("json.Marshal(diagnostic) mismatch (-want +got):\n%s", diff)
	}
	// Without a fix the field is left out; a list marshals as an array.
	d.Detail = ""
	b, err = json.Marshal(Diagnostics{d})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"fix"`) || !strings.HasPrefix(string(b), "[{") {
		t.Errorf("json.Marshal(Diagnostics{d}) = %s, want an array without a fix field", b)
	}
}

// TestParseDiagnosticsHaveSource checks that every diagnostic of ParseFile
// carries the file's Source, so it renders with its file name and line.
func TestParseDiagnosticsHaveSource(t *testing.T) {
	t.Parallel()
	for _, in := range globT(t, "testdata/errors/*.bddl") {
		f, diags := ParseFile(in, readT(t, in))
		for _, d := range diags {
			if d.Source != f.Source {
				t.Errorf("%s: diagnostic %q has Source %p, want the file's %p", in, d.Error(), d.Source, f.Source)
			}
		}
	}
}

// TestLongLineClipped: a diagnostic on a very long line shows a window
// around the subject, not the whole line, and the caret still points at
// the subject.
func TestLongLineClipped(t *testing.T) {
	line := strings.Repeat("a ", 2500) + "(bad)" + strings.Repeat(" b", 2500)
	src := NewSource("long.bddl", []byte(line+"\n"))
	col := int32(strings.Index(line, "(bad)") + 1)
	d := &Diagnostic{Severity: Error, Code: "c", Summary: "bad", Source: src,
		Subject: Range{Start: Pos{Line: 1, Col: col}, End: Pos{Line: 1, Col: col + 5}}}
	text := d.Text()
	lines := strings.Split(text, "\n")
	if len(text) > 600 || len(lines) < 3 {
		t.Fatalf("not clipped (%d bytes):\n%.400s", len(text), text)
	}
	src1, caret := lines[1], lines[2]
	i := strings.Index(src1, "(bad)")
	j := strings.Index(caret, "^^^^^")
	if i < 0 || j < 0 || utf8.RuneCountInString(src1[:i]) != utf8.RuneCountInString(caret[:j]) {
		t.Errorf("the caret does not point at the subject:\n%s\n%s", src1, caret)
	}
	if !strings.Contains(src1, "…") {
		t.Errorf("no mark where the line was cut: %s", src1)
	}
}
