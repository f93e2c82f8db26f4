package main

// What the commands that write episodes share: the activity compiled,
// the output opened, and the runs of from-init and synth.

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/predicates"
)

type episodeWriteOptions struct {
	*globalOptions
	readFlags
	out      string
	library  string
	kind     string
	steps    int
	seed     uint64
	activity string
}

// compileActivity resolves and compiles the activity a command names.
func (o *episodeWriteOptions) compileActivity() (*predicates.Program, string, error) {
	base, err := o.loadKB()
	if err != nil {
		return nil, "", misuse("%v", err)
	}
	res := guardedResolver(base, predicates.Options{})
	parse, err := o.readFlags.options()
	if err != nil {
		return nil, "", err
	}
	res.SetParse(parse, warnText(o.err))
	if o.library != "" {
		if err := res.AddLibrary(o.library, noter(o.err)); err != nil {
			return nil, "", misuse("--activities %v", err)
		}
	}
	if err := res.SetActivity(context.Background(), o.activity, o.in, noter(o.err)); err != nil {
		return nil, "", misuse("%v", err)
	}
	act, err := res.Resolve("", batch.Episode{})
	if err != nil {
		return nil, "", misuse("%v", err)
	}
	prog, err := res.Program(act, nil)
	if err != nil {
		return nil, "", misuse("activity %s: %v", o.activity, err)
	}
	// A name found in a library is written as the name; a file as given.
	ref := act.Name
	if strings.HasPrefix(act.Key, "file:") {
		ref = o.activity
	}
	return prog, ref, nil
}

// output opens the destination: stdout for "-", gzip-compressed for a
// name ending in .gz. The returned function finishes and closes it.
func (o *episodeWriteOptions) output() (io.Writer, func() error, error) {
	var w io.Writer = o.streams.out
	closeFile := func() error { return nil }
	if o.out != "" && o.out != "-" {
		f, err := createOutput(o.out)
		if err != nil {
			return nil, nil, misuse("%v", fsutil.WriteError(o.out, err))
		}
		w, closeFile = f, f.Close
	}
	if !strings.HasSuffix(o.out, ".gz") {
		return w, closeFile, nil
	}
	gz := gzip.NewWriter(w)
	return gz, func() error {
		err := gz.Close()
		if cerr := closeFile(); err == nil {
			err = cerr
		}
		return err
	}, nil
}

func runEpisodeFromInit(opts *episodeWriteOptions) error {
	prog, ref, err := opts.compileActivity()
	if err != nil {
		return err
	}
	h, step := episode.FromInit(prog, ref)
	w, finish, err := opts.output()
	if err != nil {
		return err
	}
	ew, err := episode.NewWriter(w, h)
	if err == nil {
		err = ew.WriteStep(step)
		if cerr := ew.Close(); err == nil {
			err = cerr
		}
	}
	if ferr := finish(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", opts.out, err)
	}
	return nil
}

func runEpisodeSynth(opts *episodeWriteOptions, kind episode.SynthKind) error {
	prog, ref, err := opts.compileActivity()
	if err != nil {
		return err
	}
	w, finish, err := opts.output()
	if err != nil {
		return err
	}
	// A long synthesis shows its progress by steps (lines) on a terminal.
	if p := batch.NewProgress(opts.err, int64(opts.steps), 10000, "writing steps"); p != nil {
		w = &lineCounter{w: w, p: p}
		defer p.Finish()
	}
	err = episode.Synthesize(w, prog, ref, kind, opts.steps, opts.seed)
	if ferr := finish(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", opts.out, err)
	}
	return nil
}

// lineCounter advances a progress bar by the lines written through it.
type lineCounter struct {
	w io.Writer
	p *batch.Progress
}

func (c *lineCounter) Write(b []byte) (int, error) {
	n, err := c.w.Write(b)
	if lines := bytes.Count(b[:n], []byte{'\n'}); lines > 0 {
		c.p.Add(lines)
	}
	return n, err
}
