package bddl

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update rewrites golden files instead of comparing against them:
//
//	go test ./bddl -run Golden -update
var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// checkGolden compares got with the golden file at path, or rewrites the
// file when -update is set.
func checkGolden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./bddl -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), string(got)); diff != "" {
		t.Errorf("%s mismatch (-want +got):\n%s\nrun go test ./bddl -update if the change is intended", path, diff)
	}
}

// globT lists testdata files matching pattern, failing when there are none
// so that a renamed directory cannot make a test pass vacuously.
func globT(t testing.TB, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(pattern)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no files match %s", pattern)
	}
	return files
}

func readT(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// dumpFile renders a parsed file for the parse golden files: the problem's
// DebugString, or a domain's predicates, then where each section and
// comment was found. The whole file's range is left out: TestDefineRange
// checks it.
func dumpFile(f *File) string {
	var b strings.Builder
	switch {
	case f.Problem != nil:
		p := f.Problem
		b.WriteString(p.DebugString())
		dumpSections(&b, p.Sections)
		dumpComments(&b, p.Comments)
	case f.Domain != nil:
		d := f.Domain
		fmt.Fprintf(&b, "domain %s\nrequirements:", d.Name.Name)
		for _, r := range d.Requirements {
			b.WriteString(" " + r.Name)
		}
		b.WriteString("\npredicates:\n")
		for _, p := range d.Predicates {
			fmt.Fprintf(&b, "  %s-%s %s", p.Range.Start, p.Range.End, p.Name.Name)
			for _, a := range p.Params {
				b.WriteString(" ?" + a.Name)
			}
			b.WriteString("\n")
		}
		dumpSections(&b, d.Sections)
		dumpComments(&b, d.Comments)
	default:
		b.WriteString("no definition\n")
	}
	return b.String()
}

func dumpSections(b *strings.Builder, ss []Section) {
	b.WriteString("sections:\n")
	for _, s := range ss {
		fmt.Fprintf(b, "  %s-%s %s\n", s.Range.Start, s.Range.End, s.Keyword.Name)
	}
}

func dumpComments(b *strings.Builder, cs []Comment) {
	b.WriteString("comments:\n")
	for _, c := range cs {
		fmt.Fprintf(b, "  %s-%s %s\n", c.Range.Start, c.Range.End, c.Text)
	}
}

// TestParseGolden checks the AST of each testdata/parse/*.bddl, in compact
// debug form, against its .golden file. Every input is valid.
func TestParseGolden(t *testing.T) {
	t.Parallel()
	for _, in := range globT(t, "testdata/parse/*.bddl") {
		t.Run(filepath.Base(in), func(t *testing.T) {
			t.Parallel()
			f, diags := ParseFile(filepath.Base(in), readT(t, in))
			if len(diags) != 0 {
				t.Fatalf("ParseFile(%q) diagnostics:\n%s", in, diagText(diags))
			}
			checkGolden(t, strings.TrimSuffix(in, ".bddl")+".golden", []byte(dumpFile(f)))
		})
	}
}

// TestFormatGolden checks the formatter on testdata/format/X.input against
// X.golden, and that the output re-parses to the same tree, keeps every
// comment, and is a fixed point of Format.
func TestFormatGolden(t *testing.T) {
	t.Parallel()
	for _, in := range globT(t, "testdata/format/*.input") {
		t.Run(filepath.Base(in), func(t *testing.T) {
			t.Parallel()
			f, diags := ParseFile(in, readT(t, in))
			if len(diags) != 0 {
				t.Fatalf("ParseFile(%q) diagnostics:\n%s", in, diagText(diags))
			}
			got := Format(f)
			checkGolden(t, strings.TrimSuffix(in, ".input")+".golden", got)
			checkRoundTrip(t, in, f, got)
		})
	}
}

// checkRoundTrip checks that out, the formatted text of f, parses without
// diagnostics to the same tree with the same comments, and formats to
// itself.
func checkRoundTrip(t testing.TB, name string, f *File, out []byte) {
	t.Helper()
	f2, diags := ParseFile(name, out)
	if len(diags) != 0 {
		t.Fatalf("ParseFile(Format(%s)) diagnostics:\n%s\nformatted text:\n%s", name, diagText(diags), out)
	}
	if diff := cmp.Diff(treeOf(f), treeOf(f2)); diff != "" {
		t.Errorf("ParseFile(Format(%s)) changed the tree (-before +after):\n%s", name, diff)
	}
	if diff := cmp.Diff(commentTexts(f), commentTexts(f2)); diff != "" {
		t.Errorf("Format(%s) changed the comments (-before +after):\n%s", name, diff)
	}
	if again := Format(f2); !bytes.Equal(again, out) {
		t.Errorf("Format is not idempotent on %s (-once +twice):\n%s", name, cmp.Diff(string(out), string(again)))
	}
}

// treeOf is what a round trip must preserve: the problem's debug form, or a
// domain's name, requirements and predicates.
func treeOf(f *File) string {
	switch {
	case f.Problem != nil:
		return f.Problem.DebugString()
	case f.Domain != nil:
		var b strings.Builder
		b.WriteString("domain " + f.Domain.Name.Name + "\n")
		for _, r := range f.Domain.Requirements {
			b.WriteString(r.Name + "\n")
		}
		for _, p := range f.Domain.Predicates {
			b.WriteString("(" + p.Name.Name)
			for _, a := range p.Params {
				b.WriteString(" ?" + a.Name)
			}
			b.WriteString(")\n")
		}
		return b.String()
	}
	return "<none>"
}

// commentTexts lists a file's comments in order. The formatter may move a
// comment to its own line, but must neither drop nor reorder comments.
func commentTexts(f *File) []string {
	var cs []Comment
	switch {
	case f.Problem != nil:
		cs = f.Problem.Comments
	case f.Domain != nil:
		cs = f.Domain.Comments
	}
	var out []string
	for _, c := range cs {
		out = append(out, c.Text)
	}
	return out
}

func diagText(ds Diagnostics) string {
	var b strings.Builder
	ds.WriteText(&b)
	return b.String()
}

// TestDiagGolden checks the rendering of the diagnostics of each
// testdata/diag/X.bddl, as text and as JSON lines, against X.golden.
func TestDiagGolden(t *testing.T) {
	t.Parallel()
	for _, in := range globT(t, "testdata/diag/*.bddl") {
		t.Run(filepath.Base(in), func(t *testing.T) {
			t.Parallel()
			_, diags := ParseFile(filepath.Base(in), readT(t, in))
			if !diags.HasErrors() {
				t.Fatalf("ParseFile(%q) reported no error; diag inputs must be bad", in)
			}
			var b bytes.Buffer
			b.WriteString("-- text --\n")
			if err := diags.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			b.WriteString("-- json --\n")
			for _, d := range diags {
				js, err := json.Marshal(d)
				if err != nil {
					t.Fatalf("json.Marshal(%v): %v", d, err)
				}
				b.Write(js)
				b.WriteByte('\n')
			}
			checkGolden(t, strings.TrimSuffix(in, ".bddl")+".golden", b.Bytes())
		})
	}
}

// TestDiagTextLayout checks the text rendering's structure on every diag
// input independently of the golden files: a header with file:line:col and
// the code, the source line, and a caret line as long as the subject when
// the subject is on one line.
func TestDiagTextLayout(t *testing.T) {
	t.Parallel()
	for _, in := range globT(t, "testdata/diag/*.bddl") {
		t.Run(filepath.Base(in), func(t *testing.T) {
			t.Parallel()
			name := filepath.Base(in)
			_, diags := ParseFile(name, readT(t, in))
			for _, d := range diags {
				lines := strings.Split(strings.TrimSuffix(d.Text(), "\n"), "\n")
				if lines[0] != d.Error() {
					t.Errorf("Text() first line = %q, want Error() = %q", lines[0], d.Error())
				}
				if want := fmt.Sprintf("%s:%d:%d: error: ", name, d.Subject.Start.Line, d.Subject.Start.Col); !strings.HasPrefix(lines[0], want) {
					t.Errorf("Text() header %q does not start with %q", lines[0], want)
				}
				if !strings.HasSuffix(lines[0], "["+d.Code+"]") {
					t.Errorf("Text() header %q does not end with the code [%s]", lines[0], d.Code)
				}
				if len(lines) < 3 {
					t.Errorf("Text() of %s has no source and caret lines:\n%s", d.Error(), d.Text())
					continue
				}
				if want := fmt.Sprintf("%5d | ", d.Subject.Start.Line); !strings.HasPrefix(lines[1], want) {
					t.Errorf("source line %q does not start with %q", lines[1], want)
				}
				_, carets, ok := strings.Cut(lines[2], "| ")
				if !ok {
					t.Fatalf("caret line %q has no '| '", lines[2])
				}
				carets = strings.TrimLeft(carets, " ")
				if strings.Trim(carets, "^") != "" || carets == "" {
					t.Errorf("%s: caret line %q is not a run of carets", d.Error(), lines[2])
				}
				r := d.Subject
				if r.Start.Line == r.End.Line && r.End.Col > r.Start.Col {
					if want := int(r.End.Col - r.Start.Col); len(carets) != want {
						t.Errorf("%s: caret line %q has %d carets, want %d", d.Error(), lines[2], len(carets), want)
					}
				}
			}
			if !slices.IsSortedFunc(diags, func(a, b *Diagnostic) int { return int(a.Subject.Start.Offset - b.Subject.Start.Offset) }) {
				t.Errorf("diagnostics are not sorted by position")
			}
		})
	}
}
