// Package format is the job of 'bddl fmt' on one file after another:
// given a file's text and its canonical layout (bddl.Format), it prints
// the formatted text, lists the file, prints a unified diff or rewrites
// the file atomically, and remembers whether any file changed or failed.
// Files runs it over the inputs, parsed in parallel and let go of one
// after another. Parsing and formatting are package bddl's; cmd/bddl
// keeps the flags and the expansion of its arguments.
//
// It is at the jobs level: it may import every package but cmd (it uses
// bddl, internal/fsutil and go-udiff).
package format
