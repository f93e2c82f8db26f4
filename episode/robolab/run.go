package robolab

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/scigolib/hdf5"

	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/h5util"
)

// Run is an open RoboLab run file (run_<i>.hdf5).
type Run struct {
	// Path is the file as given.
	Path string
	// EnvName is RoboLab's env_name: data's env_args attribute, else the
	// name of the file's directory.
	EnvName string
	// Index is the run index of the file name run_<i>.hdf5; HasIndex is
	// false for other names.
	Index    int
	HasIndex bool
	// DT is the simulated seconds per step (0 when not known); DTSource
	// says where it came from.
	DT       float64
	DTSource string

	size int64    // bytes, when opened
	osf  *os.File // closed with f
	f    *hdf5.File
	// lib serializes the library's calls on f (a shared run's demos are
	// read concurrently); shared, refs and key are its place in the pool.
	lib       sync.Mutex
	shared    bool
	refs      int
	key       poolKey
	data      *hdf5.Group
	demos     []Demo
	truncated *Error
	bad       string // data's dt is unusable
}

// Demo is one data/demo_<k> group: one episode.
type Demo struct {
	// Name is the group's name (demo_3); EnvID its index k, which is
	// RoboLab's env_id.
	Name  string
	EnvID int
	// DT is the demo's seconds per step: its own dt attribute, else the
	// run's.
	DT    float64
	group *hdf5.Group
	// unfinished says why RoboLab never closed the demo; "" when it did.
	unfinished string
	// bad says which of its (or data's) attributes is unusable.
	bad string
}

var (
	demoName = regexp.MustCompile(`^demo_(\d+)$`)
	runName  = regexp.MustCompile(`^run_(\d+)\.hdf5$`)
)

// Open opens a run file and reads its structure (not its data). A file
// shorter than its superblock declares opens when its structure is
// readable, and every episode read from it reports the truncation.
func Open(path string) (run *Run, err error) {
	// Type checked before the open, and again on the open file: a FIFO
	// is never opened for reading.
	file, err := fsutil.OpenRegular(path)
	if err != nil {
		if errors.Is(err, fsutil.ErrNotRegular) {
			return nil, &Error{File: path, Msg: "not a regular file"}
		}
		return nil, err
	}
	info, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, err
	}
	r, err := openFrom(path, file, info.Size())
	if err != nil {
		file.Close()
		return nil, err
	}
	r.osf = file
	return r, nil
}

// openFrom reads the run file held by src (size bytes), named path.
func openFrom(path string, src io.ReaderAt, size int64) (run *Run, err error) {
	r := &Run{Path: path, size: size}
	r.truncated = checkLength(path, src, size)
	defer func() {
		if p := recover(); p != nil {
			run, err = nil, r.fail("", fmt.Sprintf("corrupt HDF5 file (%v)", p))
		}
	}()
	f, err := hdf5.OpenReaderAt(src, size)
	if err != nil {
		if r.truncated != nil {
			// The cut is the cause: the library's chain of "load
			// children failed" adds nothing a user can act on.
			return nil, r.fail("", "its groups lie past the cut ("+innermost(err)+"); copy the file again")
		}
		return nil, r.fail("", "cannot read it as HDF5: "+innermost(err))
	}
	r.f = f
	data, ok := h5util.Child(f.Root(), "data").(*hdf5.Group)
	if !ok {
		f.Close()
		return nil, r.fail("data", "missing group: a RoboLab run file has data/demo_<k> groups")
	}
	r.data = data
	for _, c := range data.Children() {
		g, ok := c.(*hdf5.Group)
		if !ok {
			continue
		}
		if m := demoName.FindStringSubmatch(g.Name()); m != nil {
			k, err := strconv.Atoi(m[1])
			if err != nil {
				continue
			}
			r.demos = append(r.demos, Demo{Name: g.Name(), EnvID: k, group: g})
		}
	}
	if len(r.demos) == 0 {
		f.Close()
		// Every layout h5py writes is read (libver="latest", a userblock,
		// track_order: testdata/layouts): no demo is no demo.
		return nil, r.fail("data", "no demo_<k> groups: nothing to check")
	}
	slices.SortFunc(r.demos, func(a, b Demo) int { return a.EnvID - b.EnvID })
	r.readMeta(data)
	r.findUnfinished(data)
	for i := range r.demos {
		d := &r.demos[i]
		d.DT = r.DT
		d.bad = r.bad
		if msg := badAttr(d.group, "dt", "seconds per step, finite and > 0", validDT); msg != "" {
			d.bad = msg
		} else if v, ok := attrNumber(d.group, "dt"); ok {
			d.DT = v
		}
		if msg := badAttr(d.group, "num_samples", "a whole number of steps from 1 to 16777216", validSteps); msg != "" && d.bad == "" {
			d.bad = msg
		}
	}
	return r, nil
}

// fail is an error about the file, noting its truncation if it is cut.
func (r *Run) fail(path, msg string) *Error {
	e := &Error{File: r.Path, Path: path, Msg: msg}
	if t := r.truncated; t != nil {
		e.Msg = t.Msg + "; " + msg
		e.Truncated = true
	}
	return e
}

// innermost shortens the library's chain of wrapped errors ("root group
// load failed: load children failed: child load failed: … object header
// read failed: EOF") to its last two links, where the cause is.
func innermost(err error) string {
	parts := strings.Split(err.Error(), ": ")
	if len(parts) > 2 {
		parts = parts[len(parts)-2:]
	}
	return strings.Join(parts, ": ")
}

// Close closes the file (a run shared by OpenDemo's demos: when the last
// of them is closed).
func (r *Run) Close() error {
	if r.shared {
		return r.release()
	}
	return r.closeFile()
}

func (r *Run) closeFile() error {
	if r.f == nil {
		return nil
	}
	err := r.f.Close()
	r.f = nil
	if r.osf != nil {
		if cerr := r.osf.Close(); err == nil {
			err = cerr
		}
		r.osf = nil
	}
	return err
}

// Demos are the file's demo groups in env_id order.
func (r *Run) Demos() []Demo { return r.demos }

// Truncated is the error of a file shorter than its superblock declares,
// nil otherwise.
func (r *Run) Truncated() error {
	if r.truncated == nil {
		return nil
	}
	return r.truncated
}

// EpisodeName names a demo's episode: "run_0.hdf5#demo_3".
func (r *Run) EpisodeName(d Demo) string { return r.Path + "#" + d.Name }

// findUnfinished marks the demos RoboLab never closed. It closes a demo
// by setting its success attribute and adding its num_samples to data's
// total; a run that died while recording leaves a file that is whole as
// of its last flush, with the open demos in neither. Only when the total
// falls short of the demos' steps is a demo without success taken as
// unfinished (success may be missing for other reasons).
func (r *Run) findUnfinished(data *hdf5.Group) {
	total, ok := attrNumber(data, "total")
	if !ok {
		return
	}
	sum := 0.0
	for _, d := range r.demos {
		if n, ok := attrNumber(d.group, "num_samples"); ok {
			sum += n
		}
	}
	if sum <= total {
		return
	}
	for i := range r.demos {
		d := &r.demos[i]
		if !hasAttr(d.group, "success") {
			n, _ := attrNumber(d.group, "num_samples")
			d.unfinished = fmt.Sprintf("RoboLab never finished %s (it has no success attribute, and data's total of %.0f steps leaves out its %.0f): the run stopped while recording", d.Name, total, n)
		}
	}
}

// readMeta finds the environment's name, the run index and dt.
func (r *Run) readMeta(data *hdf5.Group) {
	if s, ok := attrString(data, "env_args"); ok {
		var args struct {
			EnvName string   `json:"env_name"`
			DT      *float64 `json:"dt"`
		}
		if json.Unmarshal([]byte(s), &args) == nil {
			r.EnvName = args.EnvName
			if args.DT != nil && validDT(*args.DT) {
				r.DT, r.DTSource = *args.DT, "data/env_args"
			} else if args.DT != nil {
				r.bad = fmt.Sprintf("data's env_args has dt %v (expected seconds per step, finite and > 0)", *args.DT)
			}
		}
	}
	abs, _ := filepath.Abs(r.Path)
	if r.EnvName == "" {
		r.EnvName = filepath.Base(filepath.Dir(abs))
	}
	if m := runName.FindStringSubmatch(filepath.Base(r.Path)); m != nil {
		if k, err := strconv.Atoi(m[1]); err == nil {
			r.Index, r.HasIndex = k, true
		}
	}
	if msg := badAttr(data, "dt", "seconds per step, finite and > 0", validDT); msg != "" {
		r.bad = "data's " + msg
	} else if v, ok := attrNumber(data, "dt"); ok {
		r.DT, r.DTSource = v, "data/dt"
	}
	if r.DT == 0 {
		cfg := filepath.Join(filepath.Dir(r.Path), "env_cfg.json")
		if dt, ok := envCfgDT(cfg); ok {
			r.DT, r.DTSource = dt, cfg
		}
	}
}

func validDT(v float64) bool { return v > 0 && !math.IsInf(v, 0) && !math.IsNaN(v) }

// maxEnvCfg bounds the env_cfg.json read.
const maxEnvCfg = 64 << 20

// envCfgDT reads sim.dt × decimation from an env_cfg.json, as RoboLab
// computes the dt of its results.
func envCfgDT(path string) (float64, bool) {
	// Type checked before the open: a FIFO named env_cfg.json must not
	// block the check.
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	var cfg struct {
		Sim struct {
			DT *float64 `json:"dt"`
		} `json:"sim"`
		Decimation *float64 `json:"decimation"`
	}
	if err := json.NewDecoder(io.LimitReader(f, maxEnvCfg)).Decode(&cfg); err != nil || cfg.Sim.DT == nil {
		return 0, false
	}
	dt := *cfg.Sim.DT
	if cfg.Decimation != nil && *cfg.Decimation >= 1 {
		dt *= *cfg.Decimation
	}
	return dt, validDT(dt)
}
