package bddl

import (
	"sync"
	"testing"
)

func TestSourcePos(t *testing.T) {
	t.Parallel()
	src := NewSource("x.bddl", []byte("ab\ncd\r\n\nef"))
	tests := []struct {
		name   string
		offset int
		want   Pos
	}{
		{"start", 0, Pos{0, 1, 1}},
		{"mid first line", 1, Pos{1, 1, 2}},
		{"first newline", 2, Pos{2, 1, 3}},
		{"start of second line", 3, Pos{3, 2, 1}},
		{"carriage return", 5, Pos{5, 2, 3}},
		{"newline after carriage return", 6, Pos{6, 2, 4}},
		{"empty line", 7, Pos{7, 3, 1}},
		{"last line", 8, Pos{8, 4, 1}},
		{"end of input", 10, Pos{10, 4, 3}},
		{"past the end is clamped", 99, Pos{10, 4, 3}},
		{"negative is clamped", -5, Pos{0, 1, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := src.Pos(tt.offset); got != tt.want {
				t.Errorf("Pos(%d) = %+v, want %+v", tt.offset, got, tt.want)
			}
		})
	}
}

func TestSourceLine(t *testing.T) {
	t.Parallel()
	src := NewSource("x.bddl", []byte("ab\ncd\r\n\nef"))
	tests := []struct {
		n    int
		want string
		ok   bool
	}{
		{0, "", false},
		{1, "ab", true},
		{2, "cd", true}, // the \r of a CRLF line break is not part of the line
		{3, "", true},
		{4, "ef", true},
		{5, "", false},
		{-1, "", false},
	}
	for _, tt := range tests {
		got := src.Line(tt.n)
		if (got != nil) != tt.ok || string(got) != tt.want {
			t.Errorf("Line(%d) = %q (nil: %v), want %q (nil: %v)", tt.n, got, got == nil, tt.want, !tt.ok)
		}
	}
	if got := src.NumLines(); got != 4 {
		t.Errorf("NumLines() = %d, want 4", got)
	}
}

func TestSourceEdgeCases(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		text     string
		numLines int
		last     string // text of the last line
	}{
		{"empty", "", 1, ""},
		{"only a newline", "\n", 2, ""},
		{"trailing newline", "a\n", 2, ""},
		{"no trailing newline", "a\nb", 2, "b"},
		{"only a carriage return", "\r", 1, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src := NewSource("x", []byte(tt.text))
			if got := src.NumLines(); got != tt.numLines {
				t.Errorf("NumLines() = %d, want %d", got, tt.numLines)
			}
			if got := string(src.Line(tt.numLines)); got != tt.last {
				t.Errorf("Line(%d) = %q, want %q", tt.numLines, got, tt.last)
			}
			end := src.Pos(len(tt.text))
			if int(end.Line) != tt.numLines {
				t.Errorf("Pos(len) = %+v, want line %d", end, tt.numLines)
			}
		})
	}
}

// TestSourceConcurrent checks that the lazily built line table is safe to
// use from many goroutines (run with -race).
func TestSourceConcurrent(t *testing.T) {
	t.Parallel()
	src := NewSource("x", []byte("a\nb\nc\nd\n"))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got := src.Pos(2 * (i % 4)); int(got.Line) != i%4+1 || got.Col != 1 {
				t.Errorf("Pos(%d) = %+v, want line %d col 1", 2*(i%4), got, i%4+1)
			}
		}()
	}
	wg.Wait()
}

func TestPosString(t *testing.T) {
	t.Parallel()
	p := Pos{Offset: 10, Line: 3, Col: 7}
	if got := p.String(); got != "3:7" {
		t.Errorf("Pos.String() = %q, want %q", got, "3:7")
	}
	if got := (Range{Start: p, End: Pos{Offset: 12, Line: 3, Col: 9}}).String(); got != "3:7" {
		t.Errorf("Range.String() = %q, want %q", got, "3:7")
	}
	if (Pos{}).IsValid() {
		t.Errorf("Pos{}.IsValid() = true, want false")
	}
	if !p.IsValid() {
		t.Errorf("%v.IsValid() = false, want true", p)
	}
}
