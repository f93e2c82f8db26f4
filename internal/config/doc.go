// Package config finds and reads bddl's project file, bddl.toml, as ruff
// and uv find theirs: $BDDL_CONFIG names it ("none" for none), else the
// first bddl.toml in the working directory or a parent. The file names
// the knowledge base and the activity library (paths relative to it) and
// gives flag defaults for every command ([defaults]) or one
// ([defaults.check], [defaults.episode.convert]); an unknown key is an
// error with a did-you-mean. Applying the defaults to a command's flags
// is the command line's business.
//
// config is a ground utility: it imports the standard library, the TOML
// decoder and the other ground utilities of internal/ (fsutil, suggest),
// and every package may import it.
package config
