// Package config finds and reads bddl's project file, bddl.toml, as ruff
// and uv find theirs: $BDDL_CONFIG names it ("none" for none), else the
// first bddl.toml in the working directory or a parent. The file names
// the knowledge base and the activity library (paths relative to it) and
// gives flag defaults for every command ([defaults]) or one
// ([defaults.check], [defaults.episode.convert]); an unknown key is an
// error with a did-you-mean. Project.Apply sets a cobra command's unset
// flags from the file, Project.Problems checks every key against the
// command tree as bddl config reports it, and InputPaths lists the input
// paths a command was given (the knowledge base is inferred from them).
//
// config is a ground utility: it imports the standard library, the TOML
// decoder, cobra and pflag, and the other ground utilities of internal/
// (fsutil, suggest), and every package may import it.
package config
