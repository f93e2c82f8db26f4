package main

import (
	"encoding/json"
	"io"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

// Reading definitions is batch's (internal/jobs/batch/definitions.go);
// these are the spellings the commands use, with misuse for the
// command line's mistakes.

var (
	isDefinitionFile = batch.IsDefinitionFile
	readDefinition   = batch.ReadDefinition
)

func (g *globalOptions) expandDefinitions(paths []string) ([]batch.Input, error) {
	ins, err := batch.ExpandDefinitions(paths, noter(g.err))
	if err != nil {
		return nil, misuse("%v", err)
	}
	return ins, nil
}

func (g *globalOptions) expandDefinitionsEach(paths []string, yield func(batch.Input)) error {
	if err := batch.ExpandDefinitionsEach(paths, noter(g.err), yield); err != nil {
		return misuse("%v", err)
	}
	return nil
}

// parsed is one file's parse result (batch.Parsed).
type parsed struct {
	path  string
	file  *bddl.File
	diags bddl.Diagnostics
	err   error
}

func parseOneWith(in batch.Input, stdin io.Reader, opts bddl.Options) parsed {
	p := batch.ParseDefinition(in, stdin, opts)
	return parsed{p.Path, p.File, p.Diags, p.Err}
}

// jsonLines is the encoder of every --format json output: one value per
// line, without HTML escaping.
func jsonLines(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}
