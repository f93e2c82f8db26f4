package robolab

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
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
	s := &Stream{name: r.EpisodeName(d), run: r, demo: d}
	if err := s.open(opts); err != nil {
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

func (s *Stream) open(opts Options) error {
	file := s.run.Path
	base := "data/" + s.demo.Name + "/"
	g := s.demo.group
	insts := map[string]string{}
	for _, in := range opts.Instances {
		insts[fold(in)] = in
	}
	var static map[string]*episode.Object
	if opts.Map != nil {
		static = opts.Map.Static
		if opts.Instances != nil {
			for name := range static {
				if _, ok := insts[fold(name)]; !ok {
					return fmt.Errorf("%s: static: %s is not an instance of %s", opts.Map.File, name, opts.Activity)
				}
			}
		}
	}
	// resolve gives the instance of a RoboLab name; "" when not used.
	var unmapped []string
	used := map[string]string{}
	resolve := func(name string) (string, error) {
		inst, mapped := "", false
		if opts.Map != nil {
			inst, mapped = opts.Map.Names[name]
			if mapped && inst == "" {
				return "", nil
			}
		}
		if !mapped {
			inst = name
		}
		if opts.Instances != nil {
			canon, ok := insts[fold(inst)]
			if !ok {
				if mapped {
					return "", fmt.Errorf("%s: names.%s: %s is not an instance of %s", opts.Map.File, name, inst, opts.Activity)
				}
				unmapped = append(unmapped, name)
				return "", nil
			}
			inst = canon
		}
		if other, dup := used[fold(inst)]; dup {
			return "", &Error{File: file, Path: base + "states", Msg: fmt.Sprintf("%s and %s are both %s", other, name, inst)}
		}
		used[fold(inst)] = name
		return inst, nil
	}

	rigid, ok := lookup(g, "states/rigid_object").(*hdf5.Group)
	if !ok {
		return &Error{File: file, Path: base + "states/rigid_object", Msg: "missing group"}
	}
	var boxes *hdf5.Group
	for _, c := range sortedChildren(rigid) {
		inst, err := resolve(c.Name())
		if err != nil {
			return err
		}
		if inst == "" {
			continue
		}
		if boxes == nil {
			if boxes, ok = lookup(g, "bbox/bbox_mm").(*hdf5.Group); !ok {
				return &Error{File: file, Path: base + "bbox/bbox_mm", Msg: "missing group: the oriented boxes of the rigid objects"}
			}
		}
		o := &recorded{name: c.Name(), inst: inst}
		grp, _ := c.(*hdf5.Group)
		var obj hdf5.Object
		if grp != nil {
			obj = child(grp, "root_pose")
		}
		path := base + "states/rigid_object/" + c.Name() + "/root_pose"
		if o.pose, err = openColumn(file, path, obj, 7); err != nil {
			return err
		}
		path = base + "bbox/bbox_mm/" + c.Name()
		if o.box, err = openColumn(file, path, child(boxes, c.Name()), 8, 3); err != nil {
			return err
		}
		s.objs = append(s.objs, o)
	}
	if arts, ok := lookup(g, "states/articulation").(*hdf5.Group); ok {
		for _, c := range sortedChildren(arts) {
			inst, err := resolve(c.Name())
			if err != nil {
				return err
			}
			if inst == "" {
				continue
			}
			o := &recorded{name: c.Name(), inst: inst}
			grp, _ := c.(*hdf5.Group)
			var pose, joints hdf5.Object
			if grp != nil {
				pose, joints = child(grp, "root_pose"), child(grp, "joint_position")
			}
			dir := base + "states/articulation/" + c.Name() + "/"
			if o.pose, err = openColumn(file, dir+"root_pose", pose, 7); err != nil {
				return err
			}
			if st := static[inst]; st != nil && len(st.Joints) > 0 {
				if o.joints, err = openColumn(file, dir+"joint_position", joints, 0); err != nil {
					return err
				}
				if o.joints.width != len(st.Joints) {
					return &Error{File: file, Path: dir + "joint_position",
						Msg: fmt.Sprintf("%d joints, but the map's static entry of %s names %d", o.joints.width, inst, len(st.Joints))}
				}
				o.jinfo = slices.Clone(st.Joints)
				o.prevJ = make([]float64, len(o.jinfo))
			}
			s.objs = append(s.objs, o)
		}
	}
	if len(unmapped) > 0 {
		slices.Sort(unmapped)
		if opts.Map == nil {
			return &Error{File: file, Path: base + "states",
				Msg: fmt.Sprintf("%s %s of %s: give a --map file naming their BDDL instances", strings.Join(unmapped, ", "), plural(len(unmapped), "is not an instance", "are not instances"), opts.Activity)}
		}
		s.warnings = append(s.warnings, fmt.Sprintf("ignored, neither in %s nor instances of %s: %s", opts.Map.File, opts.Activity, strings.Join(unmapped, ", ")))
	}
	if len(s.objs) == 0 {
		return &Error{File: file, Path: base + "states", Msg: "no recorded object is an instance of " + opts.Activity}
	}

	// T: num_samples, else the length of actions, else of the first
	// dataset; every dataset read must have T rows.
	what := "num_samples"
	if v, ok := attrNumber(g, "num_samples"); ok && v > 0 && v < 1<<40 {
		s.steps = int(v)
	} else if a, err := openColumn(file, base+"actions", child(g, "actions"), 0); err == nil {
		s.steps, what = a.rows, "actions"
	} else {
		s.steps, what = s.objs[0].pose.rows, s.objs[0].pose.path
	}
	if s.steps == 0 {
		return &Error{File: file, Path: base, Msg: "no steps recorded"}
	}
	for _, o := range s.objs {
		for _, c := range []*column{o.pose, o.box, o.joints} {
			if c != nil && c.rows != s.steps {
				return &Error{File: file, Path: c.path, Msg: fmt.Sprintf("%d steps, but the demo has %d (%s)", c.rows, s.steps, what)}
			}
		}
	}

	// Small datasets are read whole, as long as the stream's budget lasts.
	budget := streamBytes
	for _, o := range s.objs {
		for _, c := range []*column{o.pose, o.box, o.joints} {
			if c != nil && c.whole {
				if c.whole = c.size() <= budget; c.whole {
					budget -= c.size()
				}
			}
		}
	}

	s.header = episode.Header{Activity: opts.Activity, DT: s.demo.DT, Objects: map[string]*episode.Object{}}
	for name, o := range static {
		s.header.Objects[name] = o
	}
	if opts.DeclareSteps {
		s.header.Steps = s.steps
	}
	meta := map[string]any{"file": filepath.Base(file), "demo": s.demo.Name, "env_name": s.run.EnvName, "env_id": s.demo.EnvID}
	if s.run.HasIndex {
		meta["run"] = s.run.Index
	}
	s.header.Meta, _ = json.Marshal(map[string]any{"robolab": meta})
	w, err := episode.NewWriter(&s.buf, &s.header)
	if err != nil {
		return err
	}
	s.w = w
	s.step.Objects = make(map[string]*episode.Object, len(s.objs))
	return nil
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
