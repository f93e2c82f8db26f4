package main

import (
	"encoding/json"
	"io"
	"strings"
	"sync"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

func isDefinitionFile(name string) bool { return strings.HasSuffix(name, ".bddl") }

// expandDefinitions expands the command-line paths of parse, validate
// and fmt: files as given ("-" for standard input), directories walked
// for *.bddl files (links followed, special files skipped with a note),
// doublestar globs. Finding nothing is misuse.
func (g *globalOptions) expandDefinitions(paths []string) ([]batch.Input, error) {
	var ins []batch.Input
	if err := g.expandDefinitionsEach(paths, func(in batch.Input) { ins = append(ins, in) }); err != nil {
		return nil, err
	}
	return ins, nil
}

// expandDefinitionsEach is expandDefinitions handing each file to yield
// as it is found.
func (g *globalOptions) expandDefinitionsEach(paths []string, yield func(batch.Input)) error {
	err := batch.ExpandEach(paths, batch.ExpandOptions{What: "definitions", Match: isDefinitionFile,
		Describe: "*.bddl", Stdin: true, Note: noter(g.err)}, yield)
	if err != nil {
		return misuse("%v", err)
	}
	return nil
}

// readDefinition reads a definition, at most fsutil.DefinitionLimit
// bytes: a file named on the command line may be a pipe or "-"; a file
// found by walking must be regular.
func readDefinition(in batch.Input, stdin io.Reader) ([]byte, error) {
	if in.Path == in.Arg {
		return fsutil.ReadArg(in.Path, stdin, fsutil.DefinitionLimit)
	}
	// The walk took only regular files (and links to them): one open,
	// read and close, without stats, as the I/O floor does.
	buf := readBuffers.Get().(*[]byte)
	defer readBuffers.Put(buf)
	return fsutil.ReadWalked(in.Path, 0, fsutil.DefinitionLimit, buf)
}

// readDefinitionInto is readDefinition into a worker's scratch buffer:
// the result is valid until the next read into buf, for a caller that
// keeps nothing of the file (not even its AST, whose names share the
// bytes) once done with it.
func readDefinitionInto(in batch.Input, stdin io.Reader, buf *[]byte) ([]byte, error) {
	if in.Path == in.Arg {
		return fsutil.ReadArg(in.Path, stdin, fsutil.DefinitionLimit)
	}
	return fsutil.ReadWalkedInto(in.Path, 0, fsutil.DefinitionLimit, buf)
}

// readBuffers are scratch buffers for ReadWalked, one per worker at a time.
var readBuffers = sync.Pool{New: func() any { return new([]byte) }}

// parsed is one file's parse result.
type parsed struct {
	path  string
	file  *bddl.File
	diags bddl.Diagnostics
	err   error // reading the file failed
}

// parseInputs reads and parses files on all cores, returning results in
// the order of the inputs.
func parseInputs(ins []batch.Input, stdin io.Reader) []parsed {
	return parseInputsWith(ins, stdin, bddl.Options{})
}

// parseInputsWith is parseInputs under a reading policy.
func parseInputsWith(ins []batch.Input, stdin io.Reader, opts bddl.Options) []parsed {
	out := make([]parsed, 0, len(ins))
	eachParsed(ins, stdin, opts, func(p parsed) { out = append(out, p) })
	return out
}

// eachParsed parses the inputs in parallel and hands each to use in
// order, holding only the files parsed ahead of it: a command that is
// done with a file when use returns (fmt) runs in memory independent of
// the number of files.
func eachParsed(ins []batch.Input, stdin io.Reader, opts bddl.Options, use func(parsed)) {
	_ = batch.Stream(0, func(yield func(batch.Input)) error {
		for _, in := range ins {
			yield(in)
		}
		return nil
	}, func() func(batch.Input) parsed {
		return func(in batch.Input) parsed { return parseOneWith(in, stdin, opts) }
	}, func(p parsed) error {
		use(p)
		return nil
	})
}

func parseOne(in batch.Input, stdin io.Reader) parsed { return parseOneWith(in, stdin, bddl.Options{}) }

// parseOneWith reads and parses one file under a reading policy.
func parseOneWith(in batch.Input, stdin io.Reader, opts bddl.Options) parsed {
	src, err := readDefinition(in, stdin)
	if err != nil {
		return parsed{path: in.Path, err: err}
	}
	f, diags := opts.ParseFile(in.Path, src)
	return parsed{path: in.Path, file: f, diags: diags}
}

// jsonLines is the encoder of every --format json output: one value per
// line, without HTML escaping.
func jsonLines(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}

// firstDiag is the first error of a file's diagnostics, for a one-line reason.
func firstDiag(d bddl.Diagnostics) string {
	for _, x := range d {
		if x.Severity == bddl.Error {
			return x.Error()
		}
	}
	return d.Error()
}
