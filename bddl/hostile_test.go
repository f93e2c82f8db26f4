package bddl

import (
	"bytes"
	"math"
	"runtime"
	"strings"
	"testing"
)

// TestByteOrderMark checks that a UTF-8 byte-order mark at the start of a
// file is accepted and ignored, and that columns on the first line count
// from after it, in the scanner and in Source.Pos alike.
func TestByteOrderMark(t *testing.T) {
	src := []byte("\xEF\xBB\xBF(define (problem p) (:domain omnigibson) (:objects a.n.01_1 - a.n.01) (:init (cooked a.n.01_1)) (:goal (cooked ?a.n.01_1)))\n")
	f, diags := ParseFile("bom.bddl", src)
	if len(diags) != 0 {
		t.Fatalf("diagnostics for a file with a byte-order mark:\n%s", brief(diags))
	}
	if got := f.Problem.Name.Range.Start; got.Line != 1 || got.Col != 18 || got.Offset != 20 {
		t.Errorf("problem name at %+v, want line 1 col 18 offset 20", got)
	}
	if got := f.Source.Pos(20); got.Col != 18 {
		t.Errorf("Source.Pos(20).Col = %d, want 18", got.Col)
	}
	if line := f.Source.Line(1); bytes.HasPrefix(line, []byte("\xEF")) {
		t.Errorf("Source.Line(1) keeps the byte-order mark: %q", line)
	}
	// A mark anywhere else is not white space.
	if _, diags := ParseFile("bom2.bddl", append([]byte("\n"), src...)); !diags.HasErrors() {
		t.Error("a byte-order mark after the start parsed without error")
	}
}

// TestControlBytesEscaped checks that a diagnostic never copies a raw
// control byte of the source to the terminal, and that its caret still
// lines up under the subject.
func TestControlBytesEscaped(t *testing.T) {
	src := []byte("(define (problem p)\n  (:init (cooked a.n.01_1)) \x1b[2J\x07\x00\x9b \\ \xc2\x85 ))\n")
	_, diags := ParseFile("ctl.bddl", src)
	if len(diags) == 0 {
		t.Fatal("no diagnostics")
	}
	for _, d := range diags {
		text := d.Text()
		for i := 0; i < len(text); i++ {
			if c := text[i]; c < 0x20 && c != '\n' || c == 0x7f {
				t.Fatalf("diagnostic text holds raw byte %#x:\n%q", c, text)
			}
		}
		if strings.ContainsRune(text, '\u0085') {
			t.Fatalf("diagnostic text holds a raw C1 control:\n%q", text)
		}
	}
	// The caret of the diagnostic about the ESC sits under it.
	var esc *Diagnostic
	for _, d := range diags {
		if d.Code == codeInvalidChar && esc == nil {
			esc = d
		}
	}
	if esc == nil {
		t.Fatalf("no invalid-character diagnostic:\n%s", brief(diags))
	}
	lines := strings.Split(esc.Text(), "\n")
	shown, caret := lines[1], lines[2]
	at := strings.IndexByte(caret, '^')
	if at < 0 || at >= len(shown) {
		t.Fatalf("no caret under the line:\n%s\n%s", shown, caret)
	}
	if !strings.HasPrefix(shown[at:], `\x1b`) {
		t.Errorf("caret at %q, want under the escaped ESC:\n%s\n%s", shown[at:], shown, caret)
	}
}

// pathological are inputs built to make a parser keep tokens, recurse,
// backtrack or report without end: each is repeated to n bytes.
var pathological = map[string]func(n int) []byte{
	"open parens":           func(n int) []byte { return bytes.Repeat([]byte("("), n) },
	"close parens":          func(n int) []byte { return bytes.Repeat([]byte(")"), n) },
	"nested without header": func(n int) []byte { return bytes.Repeat([]byte("(a "), n/3) },
	"header then parens": func(n int) []byte {
		return append([]byte("(define (problem p) (:goal "), bytes.Repeat([]byte("("), n)...)
	},
	"deep and": func(n int) []byte {
		return append([]byte("(define (problem p) (:goal "), bytes.Repeat([]byte("(and "), n/5)...)
	},
	"many atoms": func(n int) []byte {
		return append([]byte("(define (problem p) (:init "), bytes.Repeat([]byte("(p a b) "), n/8)...)
	},
	"many broken": func(n int) []byte {
		return append([]byte("(define (problem p) (:goal (and "), bytes.Repeat([]byte("(not) \\ "), n/8)...)
	},
	"many objects": func(n int) []byte {
		return append([]byte("(define (problem p) (:objects "), bytes.Repeat([]byte("a b - "), n/6)...)
	},
	"stray sections": func(n int) []byte {
		return append([]byte("(define (problem p) "), bytes.Repeat([]byte("x (y) "), n/6)...)
	},
	"invalid bytes": func(n int) []byte { return bytes.Repeat([]byte{0xff, ' '}, n/2) },
	"one long name": func(n int) []byte { return append([]byte("(define (problem "), bytes.Repeat([]byte("a"), n)...) },
	"comments":      func(n int) []byte { return bytes.Repeat([]byte(";(((\n"), n/5) },
}

// maxBytesPerInputByte bounds what a parse allocates per input byte, on
// any input: the slabs of the tree are sized from counts of the input,
// and diagnostics are capped, so memory is linear with a small constant.
const maxBytesPerInputByte = 64

// TestPathologicalInputsBounded parses each pathological input at two
// sizes and checks the bytes allocated per input byte against a fixed
// bound, so memory is linear in the input with a small constant. The
// parser's reusable scratch memory (pooled, so present or not by luck) is
// not the input's doing: the least of three parses counts.
func TestPathologicalInputsBounded(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector's instrumentation allocates too (about 1.5 times the bytes)")
	}
	for name, gen := range pathological {
		for _, n := range []int{1 << 14, 1 << 18} {
			src := gen(n)
			per := math.Inf(1)
			for range 3 {
				var before, after runtime.MemStats
				runtime.ReadMemStats(&before)
				ParseFile("hostile.bddl", src)
				runtime.ReadMemStats(&after)
				per = min(per, float64(after.TotalAlloc-before.TotalAlloc)/float64(len(src)))
			}
			if per > maxBytesPerInputByte {
				t.Errorf("%s, %d bytes: %.1f bytes allocated per input byte, want at most %d", name, len(src), per, maxBytesPerInputByte)
			}
		}
	}
}
