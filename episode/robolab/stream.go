package robolab

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/scigolib/hdf5"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/predicates"
)

// Options say how a demo becomes an episode.
type Options struct {
	// Activity is the activity the episode's header names.
	Activity string
	// Instances are the activity's instances: recorded names are resolved
	// against them. Nil accepts any name (no activity to check against).
	Instances []string
	// Map maps RoboLab names to instances and gives static objects; nil
	// when there is none.
	Map *Map
	// DeclareSteps writes the number of steps into the header, so that a
	// reader of the written episode notices one cut short.
	DeclareSteps bool
}

// InstancesOf lists a compiled activity's instances, for Options.
func InstancesOf(prog *predicates.Program) []string {
	out := make([]string, prog.NumObjects())
	for i := range out {
		out[i] = prog.Name(predicates.ObjectID(i))
	}
	return out
}

// Stream is one demo as an episode in the episode package's JSON Lines
// format: an io.Reader to give episode.NewReader, which produces the
// lines as they are read, a few chunks of the run file at a time.
type Stream struct {
	name  string
	run   *Run
	demo  Demo
	steps int
	objs  []*recorded

	header   episode.Header
	w        *episode.Writer
	buf      bytes.Buffer
	step     episode.Step
	next     int
	done     bool
	err      *Error
	warnings []string

	// Progress, when set, is told of each step produced (from 1 to
	// Steps), for a progress bar.
	Progress func(done, steps int)
}

// recorded is one RoboLab object used as an instance.
type recorded struct {
	name   string // RoboLab's
	inst   string
	pose   *column
	box    *column         // rigid objects
	joints *column         // articulations with joints in the map
	jinfo  []episode.Joint // names and limits, from the map
	obj    episode.Object  // this step's changes
	prev   [7 + 24]float64 // pose and corners last written
	prevJ  []float64
}

// Stream opens a demo as an episode. Names are resolved and every
// dataset's shape is checked here; data errors come out of Read's
// stream ending early, with Err saying why.
func (r *Run) Stream(d Demo, opts Options) (*Stream, error) {
	if r.f == nil {
		return nil, errors.New("robolab: Stream on a closed run")
	}
	if d.bad != "" {
		return nil, r.fail("data/"+d.Name, d.bad)
	}
	s := &Stream{name: r.EpisodeName(d), run: r, demo: d}
	r.lib.Lock()
	err := s.open(opts)
	r.lib.Unlock()
	if err != nil {
		if e, ok := err.(*Error); ok && r.truncated != nil && !e.Truncated {
			e.Msg = r.truncated.Msg + "; " + e.Msg
			e.Truncated = true
		}
		return nil, err
	}
	return s, nil
}

// Name is the episode's name: "run_0.hdf5#demo_3".
func (s *Stream) Name() string { return s.name }

// Steps is the number of steps the demo records (T).
func (s *Stream) Steps() int { return s.steps }

// Header is the episode's header.
func (s *Stream) Header() *episode.Header { return &s.header }

// Warnings are notes about the demo that are not errors.
func (s *Stream) Warnings() []string { return s.warnings }

// Err is why the stream ended before the demo's last step (or the
// file's truncation when it did not); nil when the demo was read in full
// from a whole file. Valid once Read has returned io.EOF.
func (s *Stream) Err() error {
	if s.err == nil {
		return nil
	}
	return s.err
}

func sortedChildren(g *hdf5.Group) []hdf5.Object {
	cs := slices.Clone(g.Children())
	slices.SortFunc(cs, func(a, b hdf5.Object) int { return strings.Compare(a.Name(), b.Name()) })
	return cs
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Read produces the episode's lines.
func (s *Stream) Read(p []byte) (int, error) {
	for s.buf.Len() == 0 {
		if s.done {
			return 0, io.EOF
		}
		s.produce()
	}
	return s.buf.Read(p)
}

// produce writes steps until the writer hands bytes over, or the end.
func (s *Stream) produce() {
	for s.buf.Len() == 0 && s.next < s.steps {
		if err := s.writeStep(s.next); err != nil {
			s.stop(err)
			return
		}
		s.next++
		if s.Progress != nil {
			s.Progress(s.next, s.steps)
		}
	}
	if s.next >= s.steps {
		s.stop(nil)
	}
}

// stop ends the stream: what was written is flushed, then EOF.
func (s *Stream) stop(err *Error) {
	if why := s.demo.unfinished; why != "" {
		if err == nil {
			err = &Error{File: s.run.Path, Path: "data/" + s.demo.Name, Truncated: true,
				Msg: fmt.Sprintf("truncated: %s; its %d steps were read", why, s.steps)}
		} else {
			err.Msg = "truncated: " + why + "; " + err.Msg
			err.Truncated = true
		}
	}
	if t := s.run.truncated; t != nil {
		if err == nil {
			err = &Error{File: s.run.Path, Path: "data/" + s.demo.Name, Truncated: true,
				Msg: fmt.Sprintf("%s (all %d steps of this demo were read)", t.Msg, s.steps)}
		} else {
			err.Msg = t.Msg + "; " + err.Msg
			err.Truncated = true
		}
	}
	s.err = err
	if cerr := s.w.Close(); cerr != nil && s.err == nil {
		s.err = &Error{File: s.run.Path, Path: "data/" + s.demo.Name, Msg: cerr.Error()}
	}
	s.done = true
}

// writeStep reads step k of every object and writes what changed.
func (s *Stream) writeStep(k int) *Error {
	clear(s.step.Objects)
	s.step.Step = int64(k)
	for _, o := range s.objs {
		o.obj.Set = 0
		pose, err := o.pose.row(k)
		if err != nil {
			return err.(*Error)
		}
		for i, v := range pose {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return o.pose.fail(k, fmt.Sprintf("%s is %v", poseFields[i], v))
			}
		}
		if pose[3] == 0 && pose[4] == 0 && pose[5] == 0 && pose[6] == 0 {
			return o.pose.fail(k, "the orientation quaternion is zero")
		}
		if k == 0 || !equal3(pose, o.prev[:3]) {
			o.obj.Set |= predicates.FieldPosition
			copy(o.obj.Pos[:], pose[:3])
		}
		if k == 0 || !slices.Equal(pose[3:7], o.prev[3:7]) {
			o.obj.Set |= predicates.FieldOrientation
			// Isaac Lab's w, x, y, z; the episode format's x, y, z, w.
			o.obj.Quat = [4]float64{pose[4], pose[5], pose[6], pose[3]}
		}
		copy(o.prev[:7], pose)
		if o.box != nil {
			c, err := o.box.row(k)
			if err != nil {
				return err.(*Error)
			}
			if k == 0 || !slices.Equal(c, o.prev[7:]) {
				for i, v := range c {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return o.box.fail(k, fmt.Sprintf("corner %d %s is %v", i/3, axis[i%3], v))
					}
					o.obj.OBB[i/3][i%3] = v / 1000 // millimetres
				}
				if err := predicates.CheckOBB(&o.obj.OBB); err != nil {
					return o.box.fail(k, "oriented box "+err.Error())
				}
				o.obj.Set |= predicates.FieldOBB
				copy(o.prev[7:], c)
			}
		}
		if o.joints != nil {
			q, err := o.joints.row(k)
			if err != nil {
				return err.(*Error)
			}
			if k == 0 || !slices.Equal(q, o.prevJ) {
				for i, v := range q {
					if math.IsNaN(v) || math.IsInf(v, 0) {
						return o.joints.fail(k, fmt.Sprintf("joint %d (%s) is %v", i, o.jinfo[i].Name, v))
					}
					o.jinfo[i].Q = v
				}
				o.obj.Joints = o.jinfo
				o.obj.Set |= predicates.FieldJoints
				copy(o.prevJ, q)
			}
		}
		if o.obj.Set != 0 {
			s.step.Objects[o.inst] = &o.obj
		}
	}
	if err := s.w.WriteStep(&s.step); err != nil {
		return &Error{File: s.run.Path, Path: "data/" + s.demo.Name, Step: k, HasStep: true, Msg: err.Error()}
	}
	return nil
}

func equal3(a, b []float64) bool { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] }

var (
	poseFields = [7]string{"position x", "position y", "position z", "quaternion w", "quaternion x", "quaternion y", "quaternion z"}
	axis       = [3]string{"x", "y", "z"}
)
