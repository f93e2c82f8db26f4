package main

import (
	"io"
	"os"

	"github.com/openbddl/bddl/internal/jobs/batch"
)

// palette colours text for a terminal; the zero palette leaves it plain.
type palette struct{ on bool }

// paletteFor colours output to w when w is a terminal, NO_COLOR is unset
// or empty (https://no-color.org) and TERM is not "dumb".
func paletteFor(w io.Writer) palette {
	return palette{on: os.Getenv("NO_COLOR") == "" && os.Getenv("TERM") != "dumb" && batch.IsTerminal(w)}
}

func (p palette) wrap(code, s string) string {
	if !p.on {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (p palette) red(s string) string    { return p.wrap("31", s) }
func (p palette) green(s string) string  { return p.wrap("32", s) }
func (p palette) yellow(s string) string { return p.wrap("33", s) }
