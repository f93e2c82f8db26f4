package omnigibson

import (
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"sync"

	"github.com/openbddl/bddl/internal/fsutil"
)

// Dataset reads exact per-model metadata from an OmniGibson dataset
// directory (og_dataset), for users who have it.
//
// Layout (facts taken from public sources): a model's files are under
// objects/<category>/<model>/ (StanfordVL/OmniGibson,
// omnigibson/objects/dataset_object.py, get_usd_path). Its
// misc/metadata.json holds "bbox_size" (the model's bounding box at scale
// 1), "base_link_offset" (the box centre relative to the base link, in
// the base link's frame at scale 1: the BEHAVIOR-1K asset pipeline's
// export step computes it as the box position minus the base link
// centre, rotated into the canonical frame, and OmniGibson places the box
// centre at the base link plus scale × offset) and, for articulated
// models, "openable_joint_ids" ([[index, joint name] or [index, name,
// direction]]) and "openable_both_sides". Joint limits are in
// urdf/<model>.urdf (<joint type="revolute|prismatic"><limit lower=
// upper=/>), the joints in document order being the model's joint order
// for joint_pos.
type Dataset struct {
	Dir string

	mu    sync.Mutex
	cache map[string]*ModelMeta
}

// ModelMeta is what the dataset says of one model.
type ModelMeta struct {
	HasOffset bool
	Offset    [3]float64 // box centre in the base link frame, unscaled
	HasSize   bool
	Size      [3]float64
	// Joints are the movable joints in the model's order, with limits;
	// nil when the model has no URDF.
	Joints []JointMeta
	// Openable are indices into Joints of the joints that open the
	// object, with direction (+1 or -1); nil when not annotated.
	Openable  []OpenableJoint
	BothSides bool
}

// JointMeta is one movable joint.
type JointMeta struct {
	Name   string
	Type   string
	Lo, Hi float64
}

// OpenableJoint is an annotated openable joint.
type OpenableJoint struct {
	Index int
	Name  string
	Dir   int8
}

// OpenDataset checks that dir looks like an OmniGibson dataset.
func OpenDataset(dir string) (*Dataset, error) {
	info, err := os.Stat(filepath.Join(dir, "objects"))
	if err != nil || !info.IsDir() {
		return nil, fmt.Errorf("%s: not an OmniGibson dataset (no objects/ directory)", dir)
	}
	return &Dataset{Dir: dir, cache: map[string]*ModelMeta{}}, nil
}

// Model returns the metadata of a model; nil when the dataset lacks it.
// A metadata file that exists but cannot be read is an error.
func (d *Dataset) Model(category, model string) (*ModelMeta, error) {
	key := category + "/" + model
	d.mu.Lock()
	m, ok := d.cache[key]
	d.mu.Unlock()
	if ok {
		return m, nil
	}
	m, err := d.load(category, model)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	d.cache[key] = m
	d.mu.Unlock()
	return m, nil
}

// readBounded reads a dataset file under the confinement rule: a
// regular file inside the dataset (links resolved), at most maxFileBytes.
func (d *Dataset) readBounded(path string) ([]byte, error) {
	if _, err := os.Lstat(path); err != nil {
		return nil, err
	}
	return fsutil.ReadConfined(path, maxFileBytes, d.Dir)
}

func (d *Dataset) load(category, model string) (*ModelMeta, error) {
	// A template's category and model are data: each must name one
	// directory entry, or "../../outside" would leave the dataset.
	for _, name := range []string{category, model} {
		if !fsutil.PathComponent(name) {
			return nil, &Error{File: filepath.Join(d.Dir, "objects"), Msg: fmt.Sprintf("category/model %q/%q: not a plain name (a path from data must stay inside --og-dataset)", category, model)}
		}
	}
	dir := filepath.Join(d.Dir, "objects", category, model)
	metaPath := filepath.Join(dir, "misc", "metadata.json")
	data, err := d.readBounded(metaPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var raw struct {
		BaseLinkOffset []float64 `json:"base_link_offset"`
		BBoxSize       []float64 `json:"bbox_size"`
		Openable       [][]any   `json:"openable_joint_ids"`
		BothSides      bool      `json:"openable_both_sides"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, &Error{File: metaPath, Msg: err.Error()}
	}
	m := &ModelMeta{BothSides: raw.BothSides}
	if raw.BaseLinkOffset != nil {
		v, err := vec3(raw.BaseLinkOffset, "base_link_offset")
		if err != nil {
			return nil, &Error{File: metaPath, Msg: err.Error()}
		}
		m.Offset, m.HasOffset = v, true
	}
	if raw.BBoxSize != nil {
		v, err := vec3(raw.BBoxSize, "bbox_size")
		if err != nil || !(v[0] > 0 && v[1] > 0 && v[2] > 0) {
			return nil, &Error{File: metaPath, Key: "bbox_size", Msg: "expected three positive sizes in metres"}
		}
		m.Size, m.HasSize = v, true
	}
	for k, e := range raw.Openable {
		if len(e) < 2 {
			return nil, &Error{File: metaPath, Key: fmt.Sprintf("openable_joint_ids[%d]", k), Msg: "expected [index, joint name] or [index, joint name, direction]"}
		}
		idx, ok1 := e[0].(float64)
		name, ok2 := e[1].(string)
		if !ok1 || !ok2 || idx < 0 || idx != math.Trunc(idx) {
			return nil, &Error{File: metaPath, Key: fmt.Sprintf("openable_joint_ids[%d]", k), Msg: "expected [index, joint name]"}
		}
		oj := OpenableJoint{Index: int(idx), Name: name, Dir: 1}
		if len(e) > 2 {
			if dir, ok := e[2].(float64); ok && dir < 0 {
				oj.Dir = -1
			}
		}
		m.Openable = append(m.Openable, oj)
	}
	urdfPath := filepath.Join(dir, "urdf", model+".urdf")
	data, err = d.readBounded(urdfPath)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return m, nil
	case err != nil:
		return nil, err
	}
	var urdf struct {
		Joints []struct {
			Name  string `xml:"name,attr"`
			Type  string `xml:"type,attr"`
			Limit *struct {
				Lower float64 `xml:"lower,attr"`
				Upper float64 `xml:"upper,attr"`
			} `xml:"limit"`
		} `xml:"joint"`
	}
	if err := xml.Unmarshal(data, &urdf); err != nil {
		return nil, &Error{File: urdfPath, Msg: err.Error()}
	}
	for _, j := range urdf.Joints {
		if j.Type != "revolute" && j.Type != "prismatic" {
			continue
		}
		if j.Limit == nil || j.Limit.Lower > j.Limit.Upper || math.IsNaN(j.Limit.Lower) || math.IsNaN(j.Limit.Upper) {
			return nil, &Error{File: urdfPath, Key: "joint " + j.Name, Msg: "a movable joint needs <limit lower upper> with lower ≤ upper"}
		}
		m.Joints = append(m.Joints, JointMeta{Name: j.Name, Type: j.Type, Lo: j.Limit.Lower, Hi: j.Limit.Upper})
	}
	if m.Joints == nil {
		m.Joints = []JointMeta{}
	}
	return m, nil
}
