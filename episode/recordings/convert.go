package recordings

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/episode/robolab"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/predicates"
)

// Convert writes one recording's episode to dst atomically (gzip-
// compressed when dst ends in .gz), keeping an existing file's mode, and
// returns the number of steps written. A recording that cannot be read in
// full writes nothing.
func Convert(ep Episode, o recording.Options, dst string) (int, error) {
	j, err := ep.Open(o)
	if err != nil {
		return 0, err
	}
	defer j.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*.tmp")
	if err != nil {
		return 0, err
	}
	defer os.Remove(tmp.Name())
	var w io.Writer = tmp
	var zw *gzip.Writer
	if strings.HasSuffix(dst, ".gz") {
		zw = gzip.NewWriter(tmp)
		w = zw
	}
	_, err = io.Copy(w, j)
	if err == nil {
		err = j.Err()
	}
	if err == nil && zw != nil {
		err = zw.Close()
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, err
	}
	if info, serr := os.Stat(dst); serr == nil {
		if !info.Mode().IsRegular() {
			return 0, fsutil.NotRegular(dst, info.Mode())
		}
		_ = os.Chmod(tmp.Name(), info.Mode().Perm())
	} else {
		_ = os.Chmod(tmp.Name(), 0o644)
	}
	return j.Steps(), os.Rename(tmp.Name(), dst)
}

// Check checks one recording; an error is a result that is not a
// success, saying why, and a recording cut short spoils its result.
func Check(ctx context.Context, prog *predicates.Program, ep Episode, o recording.Options, copts episode.CheckOptions) *episode.Result {
	fail := func(err error) *episode.Result {
		return &episode.Result{Activity: o.Activity, Episode: ep.Path, Error: err.Error(), Reason: err.Error(), Hold: max(copts.Hold, 1)}
	}
	j, err := ep.Open(o)
	if err != nil {
		return fail(err)
	}
	defer j.Close()
	r, err := episode.NewReader(j, ep.Path)
	if err != nil {
		return fail(err)
	}
	res := episode.Check(ctx, prog, r, copts)
	if err := j.Err(); err != nil {
		robolab.Spoil(res, err)
	}
	return res
}

// ConvertAll says how ConvertEach writes episodes and reports them.
type ConvertAll struct {
	// Out is a directory receiving each recording's ConvertedName (with
	// .gz when Gzip), or, when File, the one episode file to write.
	Out  string
	File bool
	Gzip bool
	// JSON reports a "converted" record per recording on W, else a line
	// for each one written; errors go to Err ("bddl: ...").
	JSON   bool
	W, Err io.Writer
}

// ConvertEach writes each recording as an episode file and reports it;
// activity is the canonical name the records give. It returns the number
// of recordings that could not be written.
func ConvertEach(eps []Episode, o recording.Options, activity string, c ConvertAll) (failed int) {
	for _, ep := range eps {
		dst := c.Out
		if !c.File {
			name := ep.ConvertedName()
			if c.Gzip {
				name += ".gz"
			}
			dst = filepath.Join(c.Out, name)
		}
		steps, err := Convert(ep, o, dst)
		if c.JSON {
			// episode convert's record (bddl schema converted).
			rec := map[string]any{"record": "converted", "episode": ep.Path, "activity": activity, "layout": ep.LayoutName(), "file": dst, "steps": steps}
			if err != nil {
				rec["error"] = err.Error()
				delete(rec, "file")
			}
			writeJSONLine(c.W, rec)
		} else if err == nil {
			fmt.Fprintf(c.W, "%s: wrote %s (%d steps)\n", ep.Path, dst, steps)
		}
		if err != nil {
			failed++
			// A stream's error (a gap, a timestamp) names the stream
			// and sample, not the recording it is in.
			msg := err.Error()
			if !strings.Contains(msg, ep.Path) {
				msg = ep.Path + ": " + msg
			}
			fmt.Fprintf(c.Err, "bddl: %s\n", msg)
		}
	}
	return failed
}
