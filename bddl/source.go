package bddl

import (
	"fmt"
	"sort"
	"sync"
)

// Pos is a position in a source file. Line and Col are 1-based; Col counts
// bytes, as Go's own tools do. Offset is the 0-based byte offset. The
// fields are 32-bit because every AST node carries two positions: it keeps
// trees small, and BDDL files are far below 2 GiB.
type Pos struct {
	Offset int32 `json:"offset"`
	Line   int32 `json:"line"`
	Col    int32 `json:"col"`
}

// IsValid reports whether the position was set.
func (p Pos) IsValid() bool { return p.Line > 0 }

func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Range is the half-open source range [Start, End) of a node or diagnostic.
type Range struct {
	Start Pos `json:"start"`
	End   Pos `json:"end"`
}

func (r Range) String() string { return r.Start.String() }

// Source is one file's text with a line table, shared by every node and
// diagnostic that points into it.
type Source struct {
	Name string
	Text []byte

	once  sync.Once
	lines []int // byte offset at which each line starts; built on first use
}

// NewSource wraps text read from name.
func NewSource(name string, text []byte) *Source {
	return &Source{Name: name, Text: text}
}

// lineTable is built lazily: parsing records positions as it scans, so the
// table is only needed to render diagnostics.
func (s *Source) lineTable() []int {
	s.once.Do(func() {
		s.lines = append(s.lines, 0)
		for i, c := range s.Text {
			if c == '\n' {
				s.lines = append(s.lines, i+1)
			}
		}
	})
	return s.lines
}

// Pos converts a byte offset into a position.
func (s *Source) Pos(offset int) Pos {
	lines := s.lineTable()
	offset = max(0, min(offset, len(s.Text)))
	line := sort.Search(len(lines), func(i int) bool { return lines[i] > offset }) - 1
	start := lines[line]
	if line == 0 && offset >= 3 && len(s.Text) >= 3 && string(s.Text[:3]) == bom {
		start = 3 // columns count from after a byte-order mark
	}
	return Pos{Offset: int32(offset), Line: int32(line + 1), Col: int32(offset - start + 1)}
}

// Line returns the text of the 1-based line n without its line break.
func (s *Source) Line(n int) []byte {
	lines := s.lineTable()
	if n < 1 || n > len(lines) {
		return nil
	}
	start := lines[n-1]
	end := len(s.Text)
	if n < len(lines) {
		end = lines[n] - 1
	}
	if end > start && s.Text[end-1] == '\r' {
		end--
	}
	if n == 1 && end-start >= 3 && string(s.Text[:3]) == bom {
		start += 3 // columns count from after a byte-order mark
	}
	return s.Text[start:end]
}

// NumLines is the number of lines in the source.
func (s *Source) NumLines() int { return len(s.lineTable()) }
