package batch

import (
	"io"
	"strings"
	"sync"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
)

// Definitions as parse, validate, fmt and sample take them: expanded from
// the command line, read within fsutil.DefinitionLimit and parsed on all
// cores in input order.

// IsDefinitionFile reports whether a walked file is a definition.
func IsDefinitionFile(name string) bool { return strings.HasSuffix(name, ".bddl") }

// ExpandDefinitionsEach expands the command-line paths of parse,
// validate, fmt and sample: files as given ("-" for standard input),
// directories walked for *.bddl files (links followed, special files
// skipped with a note), doublestar globs; each file is handed to yield
// as it is found. Finding nothing is an error.
func ExpandDefinitionsEach(paths []string, note func(string), yield func(Input)) error {
	return ExpandEach(paths, ExpandOptions{What: "definitions", Match: IsDefinitionFile,
		Describe: "*.bddl", Stdin: true, Note: note}, yield)
}

// ExpandDefinitions is ExpandDefinitionsEach into a slice.
func ExpandDefinitions(paths []string, note func(string)) ([]Input, error) {
	var ins []Input
	if err := ExpandDefinitionsEach(paths, note, func(in Input) { ins = append(ins, in) }); err != nil {
		return nil, err
	}
	return ins, nil
}

// ReadDefinition reads a definition, at most fsutil.DefinitionLimit
// bytes: a file named on the command line may be a pipe or "-"; a file
// found by walking must be regular.
func ReadDefinition(in Input, stdin io.Reader) ([]byte, error) {
	if in.Path == in.Arg {
		return fsutil.ReadArg(in.Path, stdin, fsutil.DefinitionLimit)
	}
	// The walk took only regular files (and links to them): one open,
	// read and close, without stats, as the I/O floor does.
	buf := readBuffers.Get().(*[]byte)
	defer readBuffers.Put(buf)
	return fsutil.ReadWalked(in.Path, 0, fsutil.DefinitionLimit, buf)
}

// ReadDefinitionInto is ReadDefinition into a worker's scratch buffer:
// the result is valid until the next read into buf, for a caller that
// keeps nothing of the file (not even its AST, whose names share the
// bytes) once done with it.
func ReadDefinitionInto(in Input, stdin io.Reader, buf *[]byte) ([]byte, error) {
	if in.Path == in.Arg {
		return fsutil.ReadArg(in.Path, stdin, fsutil.DefinitionLimit)
	}
	return fsutil.ReadWalkedInto(in.Path, 0, fsutil.DefinitionLimit, buf)
}

// readBuffers are scratch buffers for ReadWalked, one per worker at a time.
var readBuffers = sync.Pool{New: func() any { return new([]byte) }}

// Parsed is one file's parse result.
type Parsed struct {
	Path  string
	File  *bddl.File
	Diags bddl.Diagnostics
	Err   error // reading the file failed
}

// ParseDefinitions reads and parses files on all cores under a reading
// policy, returning results in the order of the inputs.
func ParseDefinitions(ins []Input, stdin io.Reader, opts bddl.Options) []Parsed {
	out := make([]Parsed, 0, len(ins))
	EachParsed(ins, stdin, opts, func(p Parsed) { out = append(out, p) })
	return out
}

// EachParsed parses the inputs in parallel and hands each to use in
// order, holding only the files parsed ahead of it: a command that is
// done with a file when use returns (fmt) runs in memory independent of
// the number of files.
func EachParsed(ins []Input, stdin io.Reader, opts bddl.Options, use func(Parsed)) {
	_ = Stream(0, func(yield func(Input)) error {
		for _, in := range ins {
			yield(in)
		}
		return nil
	}, func() func(Input) Parsed {
		return func(in Input) Parsed { return ParseDefinition(in, stdin, opts) }
	}, func(p Parsed) error {
		use(p)
		return nil
	})
}

// ParseDefinition reads and parses one file under a reading policy.
func ParseDefinition(in Input, stdin io.Reader, opts bddl.Options) Parsed {
	src, err := ReadDefinition(in, stdin)
	if err != nil {
		return Parsed{Path: in.Path, Err: err}
	}
	f, diags := opts.ParseFile(in.Path, src)
	return Parsed{Path: in.Path, File: f, Diags: diags}
}

// FirstError is the first error of a file's diagnostics, for a one-line
// reason.
func FirstError(d bddl.Diagnostics) string {
	for _, x := range d {
		if x.Severity == bddl.Error {
			return x.Error()
		}
	}
	return d.Error()
}
