// Package format is the job of 'bddl fmt' on one file after another:
// given a file's text and its canonical layout (bddl.Format), it prints
// the formatted text, lists the file, prints a unified diff or rewrites
// the file atomically, and remembers whether any file changed or failed.
// Parsing and formatting are package bddl's; cmd/bddl keeps the flags,
// the walk over inputs and the exit codes.
//
// It is at the jobs level: it may import every package but cmd (it uses
// bddl, internal/fsutil and go-udiff).
package format
