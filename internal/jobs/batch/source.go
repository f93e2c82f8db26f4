package batch

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
)

// Format is a kind of episode file, recognised by its name's suffix. A
// file may hold one episode (JSON Lines) or several (an HDF5 run file
// with one group per demonstration): List names them.
type Format struct {
	// Name is the format's short name ("jsonl").
	Name string
	// Suffixes are the file name endings of the format (".jsonl",
	// ".jsonl.gz"), compared case-sensitively.
	Suffixes []string
	// List returns the names of the episodes a file holds, in order; nil
	// (the field or its result) means the file is one episode.
	List func(ctx context.Context, path string) ([]string, error)
	// Open opens one episode for reading, its header read. Reads must
	// stop (with an error) once ctx is done; o.Count, when set, is told of
	// the bytes read from the file as they are read, for progress.
	Open func(ctx context.Context, ep Episode, o OpenOptions) (*episode.Reader, io.Closer, error)
	// Fields, when set, returns extra fields for the result line of an
	// episode of this format (a run file's "demo", "run_seed"); they are
	// written flat after the result's own fields.
	Fields func(ep Episode, h *episode.Header) map[string]any
}

// OpenOptions are what Format.Open is told besides the episode.
type OpenOptions struct {
	Stdin io.Reader   // standard input, for "-"
	Count func(n int) // bytes read from the file, as read
	// Config is what the command gives formats that need more than the
	// file (a RoboLab run file's --map); each format knows its type.
	Config any
}

var (
	formatsMu sync.RWMutex
	formats   []*Format
)

// RegisterFormat adds an episode format; call it from an init function.
// A longer suffix wins over a shorter one (".jsonl.gz" over ".gz").
func RegisterFormat(f *Format) {
	formatsMu.Lock()
	defer formatsMu.Unlock()
	formats = append(formats, f)
}

// FormatOf returns the format of a file name, or nil.
func FormatOf(name string) *Format {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	var best *Format
	bestLen := 0
	for _, f := range formats {
		for _, s := range f.Suffixes {
			if strings.HasSuffix(name, s) && len(s) > bestLen {
				best, bestLen = f, len(s)
			}
		}
	}
	return best
}

// IsEpisodeFile reports whether a file name has a registered episode
// format's suffix: the Match of ExpandOptions for episodes.
func IsEpisodeFile(name string) bool { return FormatOf(name) != nil }

// EpisodeSuffixes describes the registered suffixes for messages:
// "*.jsonl or *.jsonl.gz".
func EpisodeSuffixes() string {
	formatsMu.RLock()
	defer formatsMu.RUnlock()
	var s []string
	for _, f := range formats {
		for _, x := range f.Suffixes {
			s = append(s, "*"+x)
		}
	}
	sort.Strings(s)
	return strings.Join(s, " or ")
}

// Episode is one recording to check: a file, or one named episode
// inside a file of a format that holds several.
type Episode struct {
	Input
	// Sub names the episode inside the file ("demo_3"); "" when the file
	// is one episode.
	Sub    string
	Format *Format
	// Err is set when the file's episodes could not be listed; checking
	// the episode reports it.
	Err error
}

// Name is how reports and results files name the episode: the path, or
// "path#sub" ("run_0.hdf5#demo_3").
func (e Episode) Name() string {
	if e.Sub == "" {
		return e.Path
	}
	return e.Path + "#" + e.Sub
}

// Key is the episode's resume identity: the cleaned absolute path, with
// "#sub".
func (e Episode) Key() string { return PathKey(e.Name()) }

// ShardKey is the key --shard hashes: the path relative to its
// argument, with "#sub".
func (e Episode) ShardKey() string {
	if e.Sub == "" {
		return e.Rel
	}
	return e.Rel + "#" + e.Sub
}

// Open opens the episode with its format.
func (e Episode) Open(ctx context.Context, o OpenOptions) (*episode.Reader, io.Closer, error) {
	if e.Err != nil {
		return nil, nil, e.Err
	}
	return e.Format.Open(ctx, e, o)
}

// Episodes lists the episodes of the input files, in order. Standard
// input is read as JSON Lines; a file of no registered format (named on
// the command line) is read as JSON Lines too. A file whose episodes
// cannot be listed yields one Episode carrying the error.
func Episodes(ctx context.Context, inputs []Input) []Episode {
	var out []Episode
	for _, in := range inputs {
		f := FormatOf(in.Path)
		if f == nil {
			f = JSONLines
		}
		if f.List == nil {
			out = append(out, Episode{Input: in, Format: f})
			continue
		}
		subs, err := f.List(ctx, in.Path)
		if err != nil {
			out = append(out, Episode{Input: in, Format: f, Err: err})
			continue
		}
		if subs == nil {
			out = append(out, Episode{Input: in, Format: f})
		}
		for _, s := range subs {
			out = append(out, Episode{Input: in, Sub: s, Format: f})
		}
	}
	return out
}

// JSONLines is the episode format of this project: JSON Lines, gzip
// compressed or not (recognised by content).
var JSONLines = &Format{
	Name:     "jsonl",
	Suffixes: []string{".jsonl", ".jsonl.gz"},
	Open:     openJSONLines,
}

func init() { RegisterFormat(JSONLines) }

func openJSONLines(ctx context.Context, ep Episode, o OpenOptions) (*episode.Reader, io.Closer, error) {
	var src io.Reader
	var closer io.Closer = io.NopCloser(nil)
	if ep.Path == Stdin {
		if o.Stdin == nil {
			return nil, nil, fmt.Errorf("-: no standard input")
		}
		// A read of standard input cannot be interrupted: read it through
		// a pipe that the cancellation closes.
		src = cancelable(ctx, o.Stdin)
	} else {
		f, err := fsutil.OpenRegular(ep.Path)
		if err != nil {
			return nil, nil, err
		}
		// Reads stop when the run is cancelled.
		stop := context.AfterFunc(ctx, func() { f.Close() })
		src, closer = f, closerFunc(func() error {
			stop()
			return f.Close()
		})
	}
	if o.Count != nil {
		src = &countingReader{r: src, count: o.Count}
	}
	r, err := episode.NewReader(src, ep.Name())
	if err != nil {
		closer.Close()
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		return nil, nil, err
	}
	return r, closer, nil
}

type closerFunc func() error

func (f closerFunc) Close() error { return f() }

type countingReader struct {
	r     io.Reader
	count func(int)
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if n > 0 {
		c.count(n)
	}
	return n, err
}

// FileSize is the size of a regular file, or 0.
func FileSize(path string) int64 {
	if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() {
		return info.Size()
	}
	return 0
}

// cancelable returns a reader of r whose reads fail with ctx's error once
// ctx is done, even while a read of r is blocked.
func cancelable(ctx context.Context, r io.Reader) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		_, err := io.Copy(pw, r)
		pw.CloseWithError(err)
	}()
	context.AfterFunc(ctx, func() { pw.CloseWithError(ctx.Err()) })
	return pr
}
