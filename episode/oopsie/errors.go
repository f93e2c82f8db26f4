package oopsie

import "github.com/openbddl/bddl/episode/recording"

// Error is a problem with an episode file: the file, the object path in
// it, the row.
type Error struct {
	File string
	Path string
	Row  int // -1 when not about a row
	Msg  string
}

func (e *Error) Error() string { return recording.ErrorText(e.File, e.Path, e.Row, e.Msg) }
