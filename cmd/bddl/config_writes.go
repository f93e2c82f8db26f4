package main

import (
	"fmt"
	"slices"
)

// projectWriteFlags are the flags that make a command write to a user's
// files: set by a bddl.toml (perhaps one in a parent directory the user
// did not think of), they turn a command run to read into one that
// rewrites files or appends to one.
var projectWriteFlags = []string{"write", "output", "out"}

// noteProjectWrites says on stderr which writing flag a bddl.toml set,
// and how to turn it off, so that the write is never silent.
func (g *globalOptions) noteProjectWrites(command string) {
	if g.project == nil {
		return
	}
	for _, name := range projectWriteFlags {
		if slices.Contains(g.fromProject, name) {
			fmt.Fprintf(g.err, "bddl: note: %s --%s is set by %s: this run writes to files (give --%s on the command line to override, or BDDL_CONFIG=none to ignore the file)\n",
				command, name, g.project.Path, name)
		}
	}
}
