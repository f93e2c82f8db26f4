package parserun

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

// Record is the JSON output for one file (bddl schema parse).
type Record struct {
	File        string           `json:"file"`
	Problem     *bddl.Problem    `json:"problem,omitempty"`
	Domain      *bddl.Domain     `json:"domain,omitempty"`
	Diagnostics bddl.Diagnostics `json:"diagnostics"`
}

// Options are a parse run's.
type Options struct {
	// Expand yields the inputs as the paths are walked.
	Expand   func(yield func(batch.Input)) error
	Stdin    io.Reader
	Dialect  bddl.Dialect
	JSON     bool
	Out, Err io.Writer
}

// Run parses every input and reports each; failed counts the files that
// could not be read or have errors.
func Run(o Options) (failed int, err error) {
	out := bufio.NewWriter(o.Out)
	files := 0
	err = batch.Stream(0, o.Expand, func() func(batch.Input) report {
		w := worker{stdin: o.Stdin, json: o.JSON, dialect: o.Dialect}
		return w.report
	}, func(r report) error {
		files++
		if r.failed {
			failed++
		}
		if len(r.stderr) > 0 {
			// Diagnostics go out before the file's record, as unbuffered.
			if err := out.Flush(); err != nil {
				return err
			}
			if _, err := o.Err.Write(r.stderr); err != nil {
				return err
			}
		}
		if r.err != nil {
			return r.err
		}
		_, err := out.Write(r.stdout)
		return err
	})
	if err != nil {
		out.Flush()
		return failed, err
	}
	if !o.JSON {
		noun := "files"
		if files == 1 {
			noun = "file"
		}
		fmt.Fprintf(out, "%d %s parsed, %d with errors\n", files, noun, failed)
	}
	return failed, out.Flush()
}

// report is what parse prints for one file, rendered by the worker that
// parsed it.
type report struct {
	stderr []byte // the read error or the diagnostics, as text
	stdout []byte // the JSON record, with --format json
	failed bool   // unreadable, or errors among the diagnostics
	err    error  // the record could not be encoded
}

// worker reads, parses and renders files one after another, reusing its
// read buffer: the AST is dropped once rendered.
type worker struct {
	stdin   io.Reader
	json    bool
	dialect bddl.Dialect
	buf     []byte
	out     bytes.Buffer
	enc     *json.Encoder
}

func (w *worker) read(in batch.Input) ([]byte, error) {
	if in.Path == in.Arg {
		return fsutil.ReadArg(in.Path, w.stdin, fsutil.DefinitionLimit)
	}
	return fsutil.ReadWalkedInto(in.Path, 0, fsutil.DefinitionLimit, &w.buf)
}

func (w *worker) report(in batch.Input) report {
	src, err := w.read(in)
	if err != nil {
		return report{stderr: []byte(err.Error() + "\n"), failed: true}
	}
	f, diags := bddl.Options{Dialect: w.dialect}.ParseFile(in.Path, src)
	r := report{failed: diags.HasErrors()}
	if len(diags) > 0 {
		w.out.Reset()
		diags.WriteText(&w.out)
		r.stderr = bytes.Clone(w.out.Bytes())
	}
	if w.json {
		if w.enc == nil {
			w.enc = json.NewEncoder(&w.out)
			w.enc.SetEscapeHTML(false)
		}
		rec := Record{File: in.Path, Problem: f.Problem, Domain: f.Domain, Diagnostics: diags}
		if rec.Diagnostics == nil {
			rec.Diagnostics = bddl.Diagnostics{}
		}
		w.out.Reset()
		if r.err = w.enc.Encode(rec); r.err == nil {
			r.stdout = bytes.Clone(w.out.Bytes())
		}
	}
	// Rendered: the next file's parse reuses the tree's memory.
	f.Release()
	return r
}
