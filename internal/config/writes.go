package config

import (
	"fmt"
	"io"
	"slices"
)

// WriteFlags are the flags that make a command write to a user's files:
// set by a bddl.toml (perhaps one in a parent directory the user did not
// think of), they turn a command run to read into one that rewrites
// files or appends to one.
var WriteFlags = []string{"write", "output", "out"}

// NoteWrites says on w which writing flag the project file set (set are
// the flags Apply set), and how to turn it off, so that the write is
// never silent.
func (p *Project) NoteWrites(w io.Writer, command string, set []string) {
	if p == nil {
		return
	}
	for _, name := range WriteFlags {
		if slices.Contains(set, name) {
			fmt.Fprintf(w, "bddl: note: %s --%s is set by %s: this run writes to files (give --%s on the command line to override, or BDDL_CONFIG=none to ignore the file)\n",
				command, name, p.Path, name)
		}
	}
}
