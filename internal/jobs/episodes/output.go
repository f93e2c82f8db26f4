package episodes

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
)

func writeAtomic(dir, name string, data []byte) error {
	return fsutil.WriteFileAtomic(filepath.Join(dir, name), data)
}

// Create opens the destination: stdout for "-" (or ""), gzip-compressed
// for a name ending in .gz; only a regular file is written. finish
// flushes and closes it.
func Create(out string, stdout io.Writer) (w io.Writer, finish func() error, err error) {
	w = stdout
	closeFile := func() error { return nil }
	if out != "" && out != "-" {
		f, err := fsutil.OpenRegularFile(out, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
		if err != nil {
			return nil, nil, batch.Usage("%v", fsutil.WriteError(out, err))
		}
		w, closeFile = f, f.Close
	}
	if !strings.HasSuffix(out, ".gz") {
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

// FromInit writes the closed-world one-step episode of the activity's
// :init to out (Create's destinations).
func FromInit(src *Source, out string, stdout io.Writer) error {
	prog, ref, err := src.Compile()
	if err != nil {
		return err
	}
	h, step := episode.FromInit(prog, ref)
	w, finish, err := Create(out, stdout)
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
		return fmt.Errorf("writing %s: %w", out, err)
	}
	return nil
}

// Synth writes a synthetic episode of kind (symbolic or poses) and steps
// steps to out, with a progress bar by steps on stderr when it is a
// terminal.
func Synth(src *Source, kindName string, steps int, seed uint64, out string, stdout, stderr io.Writer) error {
	var kind episode.SynthKind
	switch kindName {
	case "symbolic":
		kind = episode.SynthSymbolic
	case "poses":
		kind = episode.SynthPoses
	default:
		return batch.Usage("--kind %q: use symbolic or poses", kindName)
	}
	if steps < 1 {
		return batch.Usage("--steps must be at least 1")
	}
	prog, ref, err := src.Compile()
	if err != nil {
		return err
	}
	w, finish, err := Create(out, stdout)
	if err != nil {
		return err
	}
	if p := batch.NewProgress(stderr, int64(steps), 10000, "writing steps"); p != nil {
		w = &lineCounter{w: w, p: p}
		defer p.Finish()
	}
	err = episode.Synthesize(w, prog, ref, kind, steps, seed)
	if ferr := finish(); err == nil {
		err = ferr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", out, err)
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
