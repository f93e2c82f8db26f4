package robolab

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
)

// ActivityRef is the activity the map names, as a reference to resolve:
// a file or activity directory relative to the map's directory
// (name.bddl there too), else a name. "" when the map names none. A path
// is confined to the map's directory (fsutil.Confine: inside it, links
// resolved, a regular file or a directory): a map is data, and its
// activity: must not read /etc/shadow or block on a FIFO.
func (m *Map) ActivityRef() (string, error) {
	a := m.Activity
	if a == "" {
		return "", nil
	}
	dir := filepath.Dir(m.File)
	pathLike := filepath.IsAbs(a) || strings.ContainsAny(a, `/\`) || strings.HasSuffix(a, ".bddl")
	for _, cand := range []string{a, a + ".bddl"} {
		p := cand
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, cand)
		}
		if _, err := os.Lstat(p); err == nil {
			if err := fsutil.Confine(p, true, dir); err != nil {
				return "", fmt.Errorf("%s: activity: %w", m.File, err)
			}
			return p, nil
		}
	}
	if pathLike {
		p := a
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, a)
		}
		return "", fmt.Errorf("%s: activity: %s: no such file (a path is relative to the map's directory)", m.File, p)
	}
	return a, nil
}

// DemoNames lists the demos of a run file, in env_id order.
func DemoNames(path string) ([]string, error) {
	r, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var names []string
	for _, d := range r.Demos() {
		names = append(names, d.Name)
	}
	return names, nil
}

// DemoEpisode is a demo opened as an episode stream: the open run file
// (closed by the caller), the demo, and its stream, or why it could not
// be read at all.
type DemoEpisode struct {
	Run    *Run
	Demo   Demo
	Stream *Stream // nil when Err
	Err    error
}

// OpenDemo opens the demo named name of a run file as an episode stream
// read with opts. A demo whose names or datasets are wrong still opens:
// its stream is an episode without steps (the header names the
// activity) and Err says why; Result then reports it. count, when set,
// is told of the bytes read: the demo's share of the file, as its steps
// are produced.
func OpenDemo(path, name string, opts Options, count func(int)) (*DemoEpisode, io.Reader, error) {
	run, err := acquire(path)
	if err != nil {
		return nil, nil, err
	}
	e := &DemoEpisode{Run: run}
	found := false
	for _, d := range run.Demos() {
		if d.Name == name {
			e.Demo, found = d, true
		}
	}
	if !found {
		run.Close()
		return nil, nil, fmt.Errorf("%s: no data/%s", path, name)
	}
	if e.Stream, e.Err = run.Stream(e.Demo, opts); e.Err != nil {
		header, _ := json.Marshal(map[string]any{"bddl_episode": episode.Version, "activity": opts.Activity})
		return e, strings.NewReader(string(header) + "\n"), nil
	}
	if count != nil {
		var size int64
		if info, err := os.Stat(path); err == nil {
			size = info.Size()
		}
		share, counted := size/int64(len(run.Demos())), int64(0)
		e.Stream.Progress = func(done, steps int) {
			if n := share * int64(done) / int64(steps); n > counted {
				count(int(n - counted))
				counted = n
			}
		}
	}
	return e, e.Stream, nil
}

// Result completes the demo's episode result with RoboLab's fields: a
// demo read short (bad data, a file cut) is an error whatever the steps
// read showed.
func (e *DemoEpisode) Result(er *episode.Result) *Result {
	res := NewResult(e.Run, e.Demo, er)
	switch {
	case e.Err != nil:
		res.Warnings = nil // those of an empty stand-in
		Spoil(res.Result, e.Err)
	default:
		res.Warnings = append(res.Warnings, e.Stream.Warnings()...)
		if err := e.Stream.Err(); err != nil {
			Spoil(res.Result, err)
		}
	}
	return res
}

// VerdictCache finds RoboLab's results for run files, each results file
// read once; safe for concurrent use.
type VerdictCache struct {
	mu    sync.Mutex
	fixed *Results
	given bool
	files map[string]*Results
}

// NewVerdictCache returns a cache; fixed, when not nil, are the results
// of every run file (--robolab-results).
func NewVerdictCache(fixed *Results) *VerdictCache {
	return &VerdictCache{fixed: fixed, given: fixed != nil, files: map[string]*Results{}}
}

// For are RoboLab's results for a run file: the fixed ones, else the
// episode_results.jsonl found beside it or above (FindResults). Nil when
// there are none.
func (c *VerdictCache) For(runPath string) (*Results, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.given {
		return c.fixed, nil
	}
	file := FindResults(runPath)
	if file == "" {
		return nil, nil
	}
	if rs, ok := c.files[file]; ok {
		return rs, nil
	}
	rs, err := LoadResults(file)
	if err != nil {
		return nil, err
	}
	c.files[file] = rs
	return rs, nil
}

// NoVerdictNote says why no episode had RoboLab's verdict: no results
// file found, or the files read had no line for them.
func (c *VerdictCache) NoVerdictNote() string {
	var files []string
	c.mu.Lock()
	if c.given {
		files = append(files, c.fixed.File)
	}
	for _, rs := range c.files {
		if rs != nil {
			files = append(files, rs.File)
		}
	}
	c.mu.Unlock()
	if len(files) == 0 {
		return "no RoboLab verdict for these episodes: no episode_results.jsonl beside the run files or in their parent directory (give --robolab-results FILE)"
	}
	sort.Strings(files)
	return fmt.Sprintf("no RoboLab verdict for these episodes: %s %s no line of the same env_name, run and env_id", strings.Join(files, ", "), plural(len(files), "has", "have"))
}

// ConvertRuns converts every demo of the run files into dir (Convert);
// report is told of each demo written or not, and of each run file that
// could not be opened (name is then the file, path "").
func ConvertRuns(runs []string, opts Options, dir string, gz bool, report func(name, path string, steps int, err error)) {
	for _, path := range runs {
		r, err := Open(path)
		if err != nil {
			report(path, "", 0, err)
			continue
		}
		for _, d := range r.Demos() {
			out, steps, err := Convert(r, d, opts, dir, gz)
			report(r.EpisodeName(d), out, steps, err)
		}
		r.Close()
	}
}
