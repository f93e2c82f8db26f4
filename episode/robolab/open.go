package robolab

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/scigolib/hdf5"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/h5util"
)

// open resolves the demo's names, opens every dataset it reads and checks
// their shapes, and writes the episode's header.
func (s *Stream) open(opts Options) error {
	base := "data/" + s.demo.Name + "/"
	n, err := newNames(opts, s.run.Path, base)
	if err != nil {
		return err
	}
	var static map[string]*episode.Object
	if opts.Map != nil {
		static = opts.Map.Static
	}
	if err := s.openRigid(n, base); err != nil {
		return err
	}
	if err := s.openArticulations(n, base, static); err != nil {
		return err
	}
	warning, err := n.check()
	if err != nil {
		return err
	}
	if warning != "" {
		s.warnings = append(s.warnings, warning)
	}
	if len(s.objs) == 0 {
		return &Error{File: s.run.Path, Path: base + "states", Msg: "no recorded object is an instance of " + opts.Activity}
	}
	if err := s.countSteps(base); err != nil {
		return err
	}
	s.planReads()
	return s.writeHeader(opts, static)
}

// openRigid opens the pose and corners of each rigid object used.
func (s *Stream) openRigid(n *names, base string) error {
	file, g := s.run.Path, s.demo.group
	rigid, ok := h5util.Lookup(g, "states/rigid_object").(*hdf5.Group)
	if !ok {
		return &Error{File: file, Path: base + "states/rigid_object", Msg: "missing group"}
	}
	var boxes *hdf5.Group
	for _, c := range sortedChildren(rigid) {
		inst, err := n.resolve(c.Name())
		if err != nil {
			return err
		}
		if inst == "" {
			continue
		}
		if boxes == nil {
			if boxes, ok = h5util.Lookup(g, "bbox/bbox_mm").(*hdf5.Group); !ok {
				return &Error{File: file, Path: base + "bbox/bbox_mm", Msg: "missing group: the oriented boxes of the rigid objects"}
			}
		}
		o := &recorded{name: c.Name(), inst: inst}
		var pose hdf5.Object
		if grp, ok := c.(*hdf5.Group); ok {
			pose = h5util.Child(grp, "root_pose")
		}
		if o.pose, err = openColumn(s.run, base+"states/rigid_object/"+c.Name()+"/root_pose", pose, 7); err != nil {
			return err
		}
		if o.box, err = openColumn(s.run, base+"bbox/bbox_mm/"+c.Name(), h5util.Child(boxes, c.Name()), 8, 3); err != nil {
			return err
		}
		s.objs = append(s.objs, o)
	}
	return nil
}

// openArticulations opens the pose of each articulation used, and its
// joint positions when the map names its joints.
func (s *Stream) openArticulations(n *names, base string, static map[string]*episode.Object) error {
	file := s.run.Path
	arts, ok := h5util.Lookup(s.demo.group, "states/articulation").(*hdf5.Group)
	if !ok {
		return nil
	}
	for _, c := range sortedChildren(arts) {
		inst, err := n.resolve(c.Name())
		if err != nil {
			return err
		}
		if inst == "" {
			continue
		}
		o := &recorded{name: c.Name(), inst: inst}
		var pose, joints hdf5.Object
		if grp, ok := c.(*hdf5.Group); ok {
			pose, joints = h5util.Child(grp, "root_pose"), h5util.Child(grp, "joint_position")
		}
		dir := base + "states/articulation/" + c.Name() + "/"
		if o.pose, err = openColumn(s.run, dir+"root_pose", pose, 7); err != nil {
			return err
		}
		if st := static[inst]; st != nil && len(st.Joints) > 0 {
			if o.joints, err = openColumn(s.run, dir+"joint_position", joints, 0); err != nil {
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
	return nil
}

// countSteps finds T: num_samples, else the length of actions, else of
// the first dataset; every dataset read must have T rows.
func (s *Stream) countSteps(base string) error {
	file, g := s.run.Path, s.demo.group
	what := "num_samples"
	if v, ok := attrNumber(g, "num_samples"); ok && v > 0 && v <= maxRows {
		s.steps = int(v)
	} else if a, err := openColumn(s.run, base+"actions", h5util.Child(g, "actions"), 0); err == nil {
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
	return nil
}

// planReads lets small datasets be read whole, as long as the stream's
// budget lasts; the others are read by blocks.
func (s *Stream) planReads() {
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
}

// writeHeader writes the episode's header: the activity, dt, the map's
// static objects and where the demo came from.
func (s *Stream) writeHeader(opts Options, static map[string]*episode.Object) error {
	s.header = episode.Header{Activity: opts.Activity, DT: s.demo.DT, Objects: map[string]*episode.Object{}}
	for name, o := range static {
		s.header.Objects[name] = o
	}
	if opts.DeclareSteps {
		s.header.Steps = s.steps
	}
	meta := map[string]any{"file": filepath.Base(s.run.Path), "demo": s.demo.Name, "env_name": s.run.EnvName, "env_id": s.demo.EnvID}
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
