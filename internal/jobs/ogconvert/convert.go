package ogconvert

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
)

// Request is one run of 'bddl episode from-omnigibson': its flags, the
// knowledge base to load and the streams.
type Request struct {
	Out         string // -o: a file for one state, a directory for several
	Format      string // text or json
	Jobs        int
	NoProgress  bool
	Offsets     string // --offsets
	DatasetPath string // --og-dataset
	// LoadKB loads the knowledge base, named KBSource in messages.
	LoadKB   func() (*kb.Base, error)
	KBSource func() string
	Stdout   io.Writer
	Stderr   io.Writer
}

// Convert checks the request, plans the paths under plan (Base, Offsets
// and Dataset are filled in here) and converts them. Its errors are
// batch's classes: usage, findings (the failures are on Stderr), or an
// interruption.
func Convert(ctx context.Context, paths []string, plan Options, r Request) error {
	if r.Out == "" {
		return batch.Usage("-o is required: a file for one state, a directory for several")
	}
	if r.Format != "text" && r.Format != "json" {
		return batch.Usage("--format %q: use text or json", r.Format)
	}
	if r.Jobs < 0 {
		return batch.Usage("--jobs must not be negative")
	}
	mode, err := omnigibson.ParseOffsetMode(r.Offsets)
	if err != nil {
		return batch.Usage("--offsets: %v", err)
	}
	base, err := r.LoadKB()
	if err != nil {
		return batch.Usage("%v", err)
	}
	if base.NumModels() == 0 && r.DatasetPath == "" {
		fmt.Fprintf(r.Stderr, "bddl: warning: knowledge base %s has no object model sizes: objects get no boxes and geometric atoms stay undetermined (pass the BEHAVIOR-1K knowledge_base with --kb, or --og-dataset)\n", r.KBSource())
	}
	var ds *omnigibson.Dataset
	if r.DatasetPath != "" {
		if ds, err = omnigibson.OpenDataset(r.DatasetPath); err != nil {
			return batch.Usage("--og-dataset: %v", err)
		}
	}
	plan.Base, plan.Offsets, plan.Dataset = base, mode, ds
	jobs, defs, err := Plan(paths, plan)
	if err != nil {
		var usage *UsageError
		if errors.As(err, &usage) {
			return usage
		}
		fmt.Fprintln(r.Stderr, "bddl:", err)
		return batch.Findings(nil)
	}
	if len(jobs) == 0 {
		return batch.Usage("nothing to convert")
	}
	if err := omnigibson.AssignOutputs(jobs, r.Out); err != nil {
		return batch.Usage("%v", err)
	}
	ctx, stop := batch.WithSignals(ctx, r.Stderr)
	defer stop()
	results, failed, err := Run(ctx, jobs, defs, RunOptions{Jobs: r.Jobs, Progress: !r.NoProgress,
		JSON: r.Format == "json", Out: r.Stdout, Err: r.Stderr})
	if err != nil {
		return err
	}
	if r.Format == "text" {
		WriteSummary(r.Stdout, results, failed, len(jobs), r.Out)
	}
	if ctx.Err() != nil {
		return &batch.InterruptedError{Err: fmt.Errorf("interrupted: %d of %d states converted", len(results)-failed, len(jobs))}
	}
	if failed > 0 {
		return batch.Findings(nil)
	}
	return nil
}
