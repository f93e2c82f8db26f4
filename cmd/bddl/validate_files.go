package main

import (
	"context"
	"io"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/activities/report"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
)

// validateFiles reads and validates files on a pool of workers, with a
// progress bar on a terminal; results are in the order of the inputs.
func validateFiles(opts *validateOptions, ins []batch.Input, base *kb.Base) []report.File {
	out := make([]report.File, len(ins))
	opts.each(len(ins), func(i int) {
		src, err := readDefinition(ins[i], opts.in)
		if err != nil {
			out[i] = report.File{Path: ins[i].Path, Err: err}
			return
		}
		p, rep := activities.ValidateSource(ins[i].Path, src, base, opts.rules...)
		out[i] = report.File{Path: ins[i].Path, Problem: p != nil, Report: rep}
	})
	return out
}

func validateLibrary(opts *validateOptions, lib *activities.Library, base *kb.Base) []report.File {
	out := make([]report.File, len(lib.Activities))
	opts.each(len(out), func(i int) {
		a := lib.Activities[i]
		out[i] = report.File{Path: a.Path, Problem: a.Problem != nil, Report: a.Validate(base, opts.rules...)}
	})
	return out
}

// each runs fn(0..n-1) on the worker pool, with a progress bar on a
// terminal for long runs.
func (o *validateOptions) each(n int, fn func(i int)) {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	p := o.progress(o.err, n, 50, "validating")
	_ = batch.Run(context.Background(), o.pool(p), idx, func(_ context.Context, i int) (struct{}, bool) {
		fn(i)
		return struct{}{}, true
	}, batch.Handlers[struct{}]{})
}

// loadDomain reads a domain file for --domain; a file that does not parse
// as a domain is a usage error, reported with its diagnostics.
func loadDomain(path string, stdin io.Reader, errw io.Writer) (*bddl.Domain, error) {
	src, err := readDefinition(batch.Input{Path: path, Arg: path}, stdin)
	if err != nil {
		return nil, misuse("--domain: %v", err)
	}
	d, diags := bddl.ParseDomain(path, src)
	if diags.HasErrors() || d == nil {
		diags.WriteText(errw)
		return nil, misuse("--domain %s is not a valid domain file", path)
	}
	return d, nil
}
