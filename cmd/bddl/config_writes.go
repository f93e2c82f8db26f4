package main

// noteProjectWrites says on stderr which writing flag a bddl.toml set,
// and how to turn it off (config.Project.NoteWrites).
func (g *globalOptions) noteProjectWrites(command string) {
	g.project.NoteWrites(g.err, command, g.fromProject)
}
