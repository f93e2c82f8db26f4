package oopsie

import (
	"strconv"
	"strings"
)

// Error is a problem with an episode file: the file, the object path in
// it, the row.
type Error struct {
	File string
	Path string
	Row  int // -1 when not about a row
	Msg  string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	b.WriteString(": ")
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Row >= 0 {
		b.WriteString("row ")
		b.WriteString(strconv.Itoa(e.Row))
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}
