package validaterun

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/activities/report"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
)

// Options are a validate run's.
type Options struct {
	Rules   []activities.Option
	Filter  report.Filter
	Dialect bddl.Dialect // --dialect: which definitions are LIBERO's
	JSON    bool         // one finding record per line on Out
	Quiet   bool         // no LIBERO summary line
	// Pool is the worker pool for n items (with a progress bar).
	Pool func(n int) batch.Pool
	// Read reads one input (standard input too).
	Read     func(batch.Input) ([]byte, error)
	Out, Err io.Writer
}

// Files reads and validates files on the pool; results are in the order
// of the inputs.
func (o Options) Files(ins []batch.Input, base *kb.Base) []report.File {
	out := make([]report.File, len(ins))
	o.each(len(ins), func(i int) {
		src, err := o.Read(ins[i])
		if err != nil {
			out[i] = report.File{Path: ins[i].Path, Err: err}
			return
		}
		p, rep := activities.ValidateSource(ins[i].Path, src, base, o.Rules...)
		out[i] = report.File{Path: ins[i].Path, Problem: p != nil, Report: rep}
	})
	return out
}

// Library validates the activities of lib on the pool.
func (o Options) Library(lib *activities.Library, base *kb.Base) []report.File {
	out := make([]report.File, len(lib.Activities))
	o.each(len(out), func(i int) {
		a := lib.Activities[i]
		out[i] = report.File{Path: a.Path, Problem: a.Problem != nil, Report: a.Validate(base, o.Rules...)}
	})
	return out
}

// each runs fn(0..n-1) on the worker pool.
func (o Options) each(n int, fn func(i int)) {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	_ = batch.Run(context.Background(), o.Pool(n), idx, func(_ context.Context, i int) (struct{}, bool) {
		fn(i)
		return struct{}{}, true
	}, batch.Handlers[struct{}]{})
}

// IsLibero reports whether src is read as LIBERO under dialect d.
func IsLibero(d bddl.Dialect, src []byte) bool {
	return d == bddl.DialectLibero || d == bddl.DialectAuto && bddl.IsLibero(src)
}

// Libero validates the LIBERO definitions among ins (strict, as every
// authoring command reads) and returns the others. Findings are printed
// as validate prints BEHAVIOR-1K's: text on Err with a summary on Out,
// or one finding record per line (bddl schema finding).
func (o Options) Libero(ins []batch.Input) (rest []batch.Input, failed bool, err error) {
	enc := json.NewEncoder(o.Out)
	enc.SetEscapeHTML(false)
	files, errs, warns := 0, 0, 0
	for _, in := range ins {
		// Standard input can be read once: it is LIBERO's only when
		// --dialect libero says so; --dialect behavior1k reads nothing here.
		if o.Dialect == bddl.DialectBehavior || in.Path == batch.Stdin && o.Dialect != bddl.DialectLibero {
			rest = append(rest, in)
			continue
		}
		src, rerr := o.Read(in)
		if rerr != nil || !IsLibero(o.Dialect, src) {
			rest = append(rest, in)
			continue
		}
		files++
		_, found := activities.ValidateLibero(in.Path, src)
		var kept bddl.Diagnostics
		for _, f := range found {
			d := f.Diagnostic
			if !o.Filter.Keeps(d.Code, d.Severity) {
				continue
			}
			switch d.Severity {
			case bddl.Error:
				errs++
			case bddl.Warning:
				warns++
			}
			kept = append(kept, &d)
			if o.JSON {
				if err := enc.Encode(f); err != nil {
					return nil, true, err
				}
			}
		}
		if !o.JSON {
			kept.WriteText(o.Err)
		}
	}
	if files > 0 && !o.JSON && !o.Quiet {
		fmt.Fprintf(o.Out, "validated %d LIBERO %s: %d %s, %d %s\n", files, plural(files, "problem", "problems"),
			errs, plural(errs, "error", "errors"), warns, plural(warns, "warning", "warnings"))
	}
	return rest, errs > 0, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
