// Package schemas holds the JSON Schemas (draft 2020-12) of the records
// bddl's commands print with --format json, one file per record type, and
// which commands print each (bddl schema lists them). The episode
// formats' schemas live with their readers (episode.Schema,
// libero.Schema); Descriptions names them too.
//
// schemas is a ground utility: it imports the standard library only,
// and every package may import it.
package schemas

import (
	"embed"
	"io/fs"
	"sort"
)

//go:embed schemas/*.schema.json
var files embed.FS

// Descriptions are the record types and which commands print each.
var Descriptions = map[string]string{
	"result":         "check --format json, check -o, results merge",
	"init":           "check --init --format json, check --init -o (lines with \"record\": \"init\")",
	"finding":        "validate --format json, kb check --format json",
	"scenes":         "validate --scenes --format json (lines with \"record\": \"scenes\")",
	"converted":      "episode convert, from-omnigibson, from-oopsie and from-dora with --format json",
	"parse":          "parse --format json",
	"explain":        "explain --format json",
	"synset":         "kb show, kb search, kb tree with --format json",
	"episode":        "the episode files check reads (also: bddl episode schema)",
	"sample":         "sample --format json",
	"transition":     "transition list --format json",
	"rule-explain":   "transition explain --format json",
	"libero-episode": "the LIBERO episode files check reads (bddl sample writes them for LIBERO tasks)",
	"serve":          "the lines of bddl serve: handshake, requests, responses",
	"setting":        "config --format json",
	"annotation":     "annotate --format json",
	"agreement":      "annotations compare --format json",
	"version":        "version --format json",
}

// Names are the record types, sorted.
func Names() []string {
	names := make([]string, 0, len(Descriptions))
	for n := range Descriptions {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// File is the schema of a record type held here (not episode or
// libero-episode, whose schemas their packages hold).
func File(name string) ([]byte, error) { return fs.ReadFile(files, "schemas/"+name+".schema.json") }
