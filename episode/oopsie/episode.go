package oopsie

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/scigolib/hdf5"

	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/h5util"
)

// Schema is the schema attribute of an Oopsie episode.
const Schema = "oopsiedata_format_v1"

// The groups of the layout.
const (
	AnnotationsGroup = "episode_annotations"
	StatesGroup      = "observations/robot_states"
	ActionsGroup     = "actions"
	VideosGroup      = "observations/video_paths"
	// GripperPath and BasePath are the agent's default streams.
	GripperPath = StatesGroup + "/gripper_position"
	BasePath    = ActionsGroup + "/base_position"
)

// Episode is an open Oopsie episode file.
type Episode struct {
	Path string
	// The root attributes; Has* say whether the optional ones are there.
	Schema              string
	LanguageInstruction string
	EpisodeID           string
	LabID               string
	OperatorName        string
	HasOperator         bool
	// RobotProfile is the JSON text as written; ControlFrequency its
	// control_frequency (0 when absent).
	RobotProfile     string
	ControlFrequency float64
	// Timestamp is the unix time of the episode's start.
	Timestamp    float64
	HasTimestamp bool
	// Attrs are all root attributes as read.
	Attrs map[string]any

	RobotStates []Dataset
	Actions     []Dataset
	// VideoPaths are observations/video_paths/<camera>, by camera.
	VideoPaths map[string]string
	// Annotations are the annotator groups, sorted by name.
	Annotations []*recording.Annotation
	// Warnings are problems that do not stop the episode being read (an
	// annotator group whose success cannot be read is left out).
	Warnings []string

	f    *hdf5.File
	root *hdf5.Group
}

// Dataset is one dataset of robot_states or actions.
type Dataset struct {
	Name string // "gripper_position"
	Path string // "observations/robot_states/gripper_position"
	// Rows and Width: a [N, D] dataset (D 1 for [N]); Empty when N is 0
	// (an action entry stored as an empty dataset).
	Rows, Width int
	Empty       bool
	ds          *hdf5.Dataset
}

// IsEpisodeFile reports whether a name is an HDF5 file's.
func IsEpisodeFile(name string) bool {
	return strings.HasSuffix(name, ".h5") || strings.HasSuffix(name, ".hdf5")
}

// Find lists the HDF5 files of the paths given (files, or trees walked
// for every .h5 and .hdf5), in order, each once.
func Find(paths []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	add := func(p string) {
		if k, _ := filepath.Abs(p); !seen[k] {
			seen[k] = true
			out = append(out, p)
		}
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			add(p)
			continue
		}
		n := 0
		err = fsutil.Walk(p, fsutil.WalkOptions{Match: IsEpisodeFile}, func(m string) error {
			add(m)
			n++
			return nil
		})
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, fmt.Errorf("%s: no Oopsie episode (*.h5, *.hdf5) under it", p)
		}
	}
	return out, nil
}

// IsOopsie reports whether an HDF5 file has the Oopsie layout: its schema
// attribute, or (without one) observations/robot_states and actions and
// no data group (RoboLab's).
func IsOopsie(path string) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if info, err := os.Stat(path); err == nil && truncated(path, info.Size()) != "" {
		// A file cut short cannot be opened, so its layout is told by
		// the schema attribute's value among its first bytes; Open then
		// says it is truncated (rather than check taking it for a
		// RoboLab run file).
		return schemaInHead(path)
	}
	f, err := hdf5.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	attrs, _ := attrsOf(f.Root())
	if s, has := str(attrs, "schema"); has {
		return strings.HasPrefix(s, "oopsiedata")
	}
	return h5util.Lookup(f.Root(), StatesGroup) != nil && h5util.Lookup(f.Root(), ActionsGroup) != nil && h5util.Lookup(f.Root(), "data") == nil
}

// NotHDF5 reports whether path cannot be opened as HDF5 at all (not
// HDF5, cut short, unreadable): such a file is neither an Oopsie episode
// nor a RoboLab run file, and a batch reports it as one error.
func NotHDF5(path string) (bad bool) {
	defer func() {
		if recover() != nil {
			bad = true
		}
	}()
	f, err := hdf5.Open(path)
	if err != nil {
		return true
	}
	f.Close()
	return false
}

// Open opens an episode and reads its structure and attributes (not its
// data).
func Open(path string) (e *Episode, err error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &Error{File: path, Row: -1, Msg: "not a regular file"}
	}
	e = &Episode{Path: path, VideoPaths: map[string]string{}}
	defer func() {
		if p := recover(); p != nil {
			err = &Error{File: path, Row: -1, Msg: fmt.Sprintf("corrupt HDF5 file (%v)", p)}
		}
		if err != nil {
			e.Close()
			e = nil
		}
	}()
	if msg := truncated(path, info.Size()); msg != "" {
		return nil, &Error{File: path, Row: -1, Msg: msg}
	}
	f, err := hdf5.Open(path)
	if err != nil {
		return nil, &Error{File: path, Row: -1, Msg: "cannot read it as HDF5: " + err.Error()}
	}
	e.f, e.root = f, f.Root()
	if e.Attrs, err = attrsOf(e.root); err != nil {
		return nil, &Error{File: path, Row: -1, Msg: err.Error()}
	}
	if err := e.readRoot(); err != nil {
		return nil, err
	}
	if e.RobotStates, err = e.datasets(StatesGroup); err != nil {
		return nil, err
	}
	if e.Actions, err = e.datasets(ActionsGroup); err != nil {
		return nil, err
	}
	if err := e.readVideos(); err != nil {
		return nil, err
	}
	if err := e.readAnnotations(); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *Episode) readRoot() error {
	a := e.Attrs
	e.Schema, _ = str(a, "schema")
	if e.Schema != "" && !strings.HasPrefix(e.Schema, "oopsiedata") {
		return &Error{File: e.Path, Path: "/", Row: -1, Msg: fmt.Sprintf("schema %q is not Oopsie's (%s)", e.Schema, Schema)}
	}
	if e.Schema == "" && h5util.Lookup(e.root, "data") != nil {
		return &Error{File: e.Path, Path: "/", Row: -1, Msg: "not an Oopsie episode (no schema attribute, a data group): a RoboLab run file?"}
	}
	e.LanguageInstruction, _ = str(a, "language_instruction")
	e.EpisodeID, _ = str(a, "episode_id")
	e.LabID, _ = str(a, "lab_id")
	e.OperatorName, e.HasOperator = str(a, "operator_name")
	e.RobotProfile, _ = str(a, "robot_profile")
	e.Timestamp, e.HasTimestamp = num(a, "timestamp")
	if s, ok := str(a, "timestamp"); ok && !e.HasTimestamp {
		if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
			e.Timestamp, e.HasTimestamp = float64(t.UnixNano())/1e9, true
		}
	}
	if e.RobotProfile != "" {
		var p map[string]any
		if err := json.Unmarshal([]byte(e.RobotProfile), &p); err != nil {
			return &Error{File: e.Path, Path: "/robot_profile", Row: -1, Msg: "not JSON: " + err.Error()}
		}
		for _, k := range []string{"control_frequency", "control_freq", "frequency"} {
			if f, ok := p[k].(float64); ok && f > 0 {
				e.ControlFrequency = f
				break
			}
		}
	}
	return nil
}

// datasets lists a group's datasets with their shapes; a missing group
// is no datasets.
func (e *Episode) datasets(group string) ([]Dataset, error) {
	g, ok := h5util.Lookup(e.root, group).(*hdf5.Group)
	if !ok {
		return nil, nil
	}
	var out []Dataset
	for _, c := range g.Children() {
		ds, ok := c.(*hdf5.Dataset)
		if !ok {
			continue
		}
		d := Dataset{Name: c.Name(), Path: group + "/" + c.Name(), ds: ds}
		info, err := ds.Info()
		if err != nil {
			return nil, &Error{File: e.Path, Path: d.Path, Row: -1, Msg: "unreadable: " + err.Error()}
		}
		dims, ok := dimsOfInfo(info)
		if !ok {
			return nil, &Error{File: e.Path, Path: d.Path, Row: -1, Msg: "unreadable shape: " + info}
		}
		switch len(dims) {
		case 1:
			d.Rows, d.Width = int(dims[0]), 1
		case 2:
			d.Rows, d.Width = int(dims[0]), int(dims[1])
		default:
			return nil, &Error{File: e.Path, Path: d.Path, Row: -1, Msg: fmt.Sprintf("shape %v, expected [N, D]", dims)}
		}
		d.Empty = d.Rows == 0 || d.Width == 0
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b Dataset) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

func (e *Episode) readVideos() error {
	g, ok := h5util.Lookup(e.root, VideosGroup).(*hdf5.Group)
	if !ok {
		return nil
	}
	for _, c := range g.Children() {
		ds, ok := c.(*hdf5.Dataset)
		if !ok {
			continue
		}
		if bs, err := ds.ReadVLenBytes(); err == nil && len(bs) == 1 {
			e.VideoPaths[c.Name()] = strings.TrimRight(string(bs[0]), "\x00")
		} else if ss, err := ds.ReadStrings(); err == nil && len(ss) == 1 {
			e.VideoPaths[c.Name()] = ss[0]
		} else {
			return &Error{File: e.Path, Path: VideosGroup + "/" + c.Name(), Row: -1, Msg: "not a string"}
		}
	}
	return nil
}

func (e *Episode) readAnnotations() error {
	g, ok := h5util.Lookup(e.root, AnnotationsGroup).(*hdf5.Group)
	if !ok {
		return nil
	}
	for _, c := range g.Children() {
		grp, ok := c.(*hdf5.Group)
		if !ok {
			continue
		}
		p := AnnotationsGroup + "/" + c.Name()
		attrs, err := attrsOf(grp)
		if err != nil {
			return &Error{File: e.Path, Path: p, Row: -1, Msg: err.Error()}
		}
		a := &recording.Annotation{Annotator: c.Name()}
		a.Source, _ = str(attrs, "source")
		a.Timestamp, _ = str(attrs, "timestamp")
		if a.Timestamp == "" {
			if t, ok := num(attrs, "timestamp"); ok {
				a.Timestamp = strconv.FormatFloat(t, 'f', -1, 64)
			}
		}
		s, ok := num(attrs, "success")
		if !ok {
			e.Warnings = append(e.Warnings, fmt.Sprintf("%s: %s/success: missing or not a number: the annotator is left out", e.Path, p))
			continue
		}
		a.Success = s
		a.FailureDescription, _ = str(attrs, "failure_description")
		a.Taxonomy, _ = str(attrs, "taxonomy")
		a.AdditionalNotes, _ = str(attrs, "additional_notes")
		e.Annotations = append(e.Annotations, a)
	}
	slices.SortFunc(e.Annotations, func(a, b *recording.Annotation) int { return strings.Compare(a.Annotator, b.Annotator) })
	return nil
}

// Annotation is an annotator's group; nil when absent.
func (e *Episode) Annotation(annotator string) *recording.Annotation {
	for _, a := range e.Annotations {
		if a.Annotator == annotator {
			return a
		}
	}
	return nil
}

// Dataset finds a dataset of robot_states or actions by its path.
func (e *Episode) Dataset(path string) (Dataset, bool) {
	for _, list := range [][]Dataset{e.RobotStates, e.Actions} {
		for _, d := range list {
			if d.Path == path {
				return d, true
			}
		}
	}
	return Dataset{}, false
}

// Close closes the file.
func (e *Episode) Close() error {
	if e == nil || e.f == nil {
		return nil
	}
	err := e.f.Close()
	e.f = nil
	return err
}

// dimsOfInfo reads a dataset's shape from the library's description of
// it ("… 2D array [40 x 7] …"), the only place the library gives it for
// a dataset that is not chunked; "scalar" is [1].
func dimsOfInfo(info string) ([]uint64, bool) {
	if strings.Contains(info, ", scalar,") {
		// The library reads a null dataspace (h5py.Empty: no data at
		// all) as a scalar; with no storage ever allocated (HDF5's
		// undefined address) it holds nothing to read.
		if strings.Contains(info, "address=0xFFFFFFFFFFFFFFFF") {
			return []uint64{0}, true
		}
		return []uint64{1}, true
	}
	return h5util.ArrayDims(info)
}
