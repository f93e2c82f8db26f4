package main

import (
	"context"
	"fmt"
	"io"
	"runtime"

	"github.com/spf13/pflag"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/termsafe"
)

// batchFlags are the flags every batch command shares (check, validate,
// sample): --shard, --jobs, --no-progress.
type batchFlags struct {
	shardSpec  string
	jobs       int
	noProgress bool

	shard batch.Shard // parsed by parse
}

// add registers the flags; what names the items ("episodes").
func (b *batchFlags) add(f *pflag.FlagSet, what string) {
	f.StringVar(&b.shardSpec, "shard", "", "process only shard I/N of the "+what+" (0 <= I < N), by a stable hash of each path relative to its argument")
	f.IntVar(&b.jobs, "jobs", runtime.GOMAXPROCS(0), what+" processed in parallel")
	f.BoolVar(&b.noProgress, "no-progress", false, "do not show a progress bar on a terminal")
}

// parse checks the flags' values.
func (b *batchFlags) parse() error {
	s, err := batch.ParseShard(b.shardSpec)
	if err != nil {
		return misuse("%v", err)
	}
	if b.jobs < 1 {
		return misuse("--jobs must be at least 1, not %d", b.jobs)
	}
	b.shard = s
	return nil
}

// progress is a bar of n items on w unless --no-progress; nil when w is
// not a terminal or the run is shorter than min items.
func (b *batchFlags) progress(w io.Writer, n, min int, desc string) *batch.Progress {
	if b.noProgress {
		return nil
	}
	return batch.NewProgress(w, int64(n), int64(min), desc)
}

// pool is the worker pool the flags ask for.
func (b *batchFlags) pool(p *batch.Progress) batch.Pool {
	return batch.Pool{Jobs: b.jobs, Progress: p}
}

// noter returns a function printing notes on w.
func noter(w io.Writer) func(string) {
	return func(msg string) { fmt.Fprintln(w, "bddl: note:", termsafe.Text(msg)) }
}

// interruptible is batch.WithSignals on the command's stderr.
func (g *globalOptions) interruptible() (context.Context, func()) {
	return batch.WithSignals(context.Background(), g.err)
}
