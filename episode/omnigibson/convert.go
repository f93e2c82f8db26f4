package omnigibson

import (
	"crypto/md5"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"gonum.org/v1/gonum/spatial/r3"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// OffsetMode says where the root link's place in the bounding box comes
// from when no dataset gives it.
type OffsetMode int

const (
	// OffsetsSupport estimates each model's vertical offset from the
	// scene's resting objects (offsets.go). The default.
	OffsetsSupport OffsetMode = iota
	// OffsetsNone centres every box on its root link.
	OffsetsNone
)

// ParseOffsetMode reads "support" or "none".
func ParseOffsetMode(s string) (OffsetMode, error) {
	switch s {
	case "support", "":
		return OffsetsSupport, nil
	case "none":
		return OffsetsNone, nil
	}
	return 0, fmt.Errorf("unknown offset estimate %q: use support or none", s)
}

func (m OffsetMode) String() string {
	if m == OffsetsNone {
		return "none"
	}
	return "support"
}

// AgentBox is the box given to the agent: a typical mobile base with its
// arm, in metres (x, y, z), standing on its start pose.
var AgentBox = [3]float64{0.6, 0.6, 1.2}

// Options configure a conversion.
type Options struct {
	// Robot selects the robot_poses entry for the agent; "" takes the
	// first listed.
	Robot string
	// Offsets is the estimate used for models the dataset does not cover.
	Offsets OffsetMode
	// Dataset, when set, gives exact offsets, sizes and joint limits.
	Dataset *Dataset
	// Activity is written as the header's activity (a name or the
	// definition's path).
	Activity string
	// Pool, when set, estimates the models' offsets once from every
	// template of the converters made with it (pool.go).
	Pool *Pool
}

// Converter turns the states of one task (a template and its instances)
// into episodes for one definition. It is safe for concurrent use: each
// Convert works on its own copies.
type Converter struct {
	tmpl     *Template
	problem  *bddl.Problem
	defPath  string
	base     *kb.Base
	opts     Options
	declared []string // every non-wildcard instance, in :objects order
	decl     map[string]bool
	wild     []string // wildcard prefixes ("tree.n.01_")
	binding  map[string]string
	agents   map[string]bool
	byUUID   map[int64]string // scene object by simulator id
	models   []modelInfo      // per template object, resolved once
	modelID  []int            // per template object, a dense id of its model
	nModels  int
	boundTo  map[string]string // BDDL instance by simulator name
	// roomTypes are the room types :init puts each instance in (a
	// wildcard's under its prefix, "tree.n.01_"), to choose among the
	// rooms of an object listed in several.
	roomTypes map[string][]string
	pool      sync.Pool // *scratch
	// dz, hasDz: the per-model offsets estimated once (offsets).
	offOnce sync.Once
	dz      []float64
	hasDz   []bool
	votes   voteStats // the evidence behind dz (uncertainty.go)
	// unbound is the first :init literal naming an object the template
	// binds to nothing (a template sampled from another version of the
	// definition): its states cannot be judged against this definition.
	unbound string
}

// simUUID is the simulator's id of a named object: the MD5 of its name
// modulo 10⁸, rounded to float32 (OmniGibson, utils/python_utils.py,
// get_uuid). Attachment states name their parent by it.
func simUUID(name string) int64 {
	sum := md5.Sum([]byte(name))
	v := new(big.Int).SetBytes(sum[:])
	v.Mod(v, big.NewInt(100_000_000))
	return int64(float32(v.Int64()))
}

// NewConverter checks the template against the definition: every BDDL
// instance the template binds must be declared (a wildcard's expansions
// count). defPath names the definition in errors.
func NewConverter(t *Template, problem *bddl.Problem, defPath string, base *kb.Base, opts Options) (*Converter, error) {
	if opts.Activity == "" {
		opts.Activity = defPath
	}
	c := &Converter{tmpl: t, problem: problem, defPath: defPath, base: base, opts: opts,
		decl: map[string]bool{}, binding: map[string]string{}, agents: map[string]bool{}}
	for _, d := range problem.Objects {
		for _, inst := range d.Instances {
			k := inst.Key()
			if bddl.IsWildcard(k) {
				c.wild = append(c.wild, strings.TrimSuffix(k, "*"))
				continue
			}
			c.declared = append(c.declared, k)
			c.decl[k] = true
			if d.Type.Key() == "agent.n.01" {
				c.agents[k] = true
			}
		}
	}
	c.resolveModels()
	if opts.Pool != nil {
		opts.Pool.add(c)
	}
	for _, b := range t.Bindings {
		k := bddl.Fold(b.Instance)
		if !c.declares(k) {
			return nil, fmt.Errorf("%s binds %s, which the definition %s does not declare", t.Path, b.Instance, defPath)
		}
		c.binding[k] = b.Name
	}
	c.unbound = c.unboundInit()
	c.roomTypes = map[string][]string{}
	for _, f := range problem.Init {
		if a, ok := f.(*bddl.Atom); ok && a.Pred.Key() == "inroom" && len(a.Args) == 2 {
			k := strings.TrimSuffix(a.Args[0].Key(), "*")
			c.roomTypes[k] = append(c.roomTypes[k], a.Args[1].Key())
		}
	}
	c.boundTo = make(map[string]string, len(c.binding))
	for k, name := range c.binding {
		c.boundTo[name] = k
	}
	if opts.Robot != "" && len(t.Robots) > 0 {
		found := false
		for _, r := range t.Robots {
			found = found || r.Robot == opts.Robot
		}
		if !found {
			return nil, fmt.Errorf("%s: no robot pose for %q (robots: %s)", t.Path, opts.Robot, robotNames(t.Robots))
		}
	}
	return c, nil
}

// ErrOtherDefinition: a task's template was sampled from another version
// of its definition (unboundInit).
var ErrOtherDefinition = errors.New("it was sampled from another version of the definition")

// unboundInit is the first positive :init literal (other than future)
// that names a declared object, not an agent, the template binds to
// nothing, as text; "" when there is none. OmniGibson binds every object
// :init places, so such a template was sampled from another version of
// the definition, and a literal over the missing object is not false in
// the scene: the scene is not of this definition.
func (c *Converter) unboundInit() string {
	for _, f := range c.problem.Init {
		a, ok := f.(*bddl.Atom)
		if !ok || a.Pred.Key() == "future" {
			continue
		}
		for _, arg := range a.Args {
			k := arg.Key()
			if _, bound := c.binding[k]; bound || !c.decl[k] || c.agents[k] {
				continue
			}
			parts := []string{a.Pred.Key()}
			for _, x := range a.Args {
				parts = append(parts, x.Key())
			}
			return fmt.Sprintf("its template %s binds no object for %s, which :init places (%s) in the definition %s",
				filepath.Base(c.tmpl.Path), k, strings.Join(parts, " "), c.defPath)
		}
	}
	return ""
}

func robotNames(rs []RobotPose) string {
	var n []string
	for _, r := range rs {
		n = append(n, r.Robot)
	}
	return strings.Join(n, ", ")
}

// declares reports whether the definition declares the instance, itself
// or as the expansion of a wildcard.
func (c *Converter) declares(k string) bool {
	if c.decl[k] {
		return true
	}
	for _, w := range c.wild {
		if rest, ok := strings.CutPrefix(k, w); ok && rest != "" && strings.Trim(rest, "0123456789") == "" {
			return true
		}
	}
	return false
}

// sceneItem is one scene object during a conversion.
type sceneItem struct {
	obj    *SceneObject
	state  ObjectState
	box    Box
	hasBox bool
	exact  bool // offset from the dataset
	meta   *ModelMeta
	model  int // dense model id
	// container: the model has a fillable volume (or is unknown).
	container   bool
	sizeGuessed bool
	instKey     string // the BDDL instance bound to it, if any
	// errH, errV: how far the box may be off (uncertainty.go).
	errH, errV float64
}

// ConvertTemplate converts the template's own state.
func (c *Converter) ConvertTemplate() (*episode.Header, *Report, error) {
	return c.convert(nil)
}

// Convert converts one instance file's state.
func (c *Converter) Convert(in *Instance) (*episode.Header, *Report, error) {
	return c.convert(in)
}

func (c *Converter) convert(in *Instance) (*episode.Header, *Report, error) {
	t := c.tmpl
	src := t.Path
	if in != nil {
		src = in.Path
	}
	if c.unbound != "" {
		return nil, nil, fmt.Errorf("%s: %w", c.unbound, ErrOtherDefinition)
	}
	rep := &Report{Instance: src}
	// Bound names by simulator name, and instance overrides.
	sc, _ := c.pool.Get().(*scratch)
	if sc == nil {
		sc = &scratch{}
	}
	defer c.pool.Put(sc)
	boundTo := c.boundTo
	if in != nil {
		for k := range in.Objects {
			kk := bddl.Fold(k)
			if !c.declares(kk) {
				return nil, nil, fmt.Errorf("%s names %s, which the definition %s does not declare", in.Path, k, c.defPath)
			}
			if _, ok := c.binding[kk]; !ok {
				return nil, nil, fmt.Errorf("%s names %s, which its template %s does not bind", in.Path, k, t.Path)
			}
		}
		for k := range in.Systems {
			if !c.declares(bddl.Fold(k)) {
				return nil, nil, fmt.Errorf("%s names %s, which the definition %s does not declare", in.Path, k, c.defPath)
			}
		}
	}
	var moved map[string]ObjectState // instance states by folded key
	if in != nil {
		moved = make(map[string]ObjectState, len(in.Objects))
		for k, st := range in.Objects {
			moved[bddl.Fold(k)] = st
		}
	}
	items := sc.items[:0]
	defer func() { sc.items = items[:0] }()
	index := make(map[string]int, len(t.Objects))
	for i := range t.Objects {
		o := &t.Objects[i]
		it := sceneItem{obj: o, state: o.State, instKey: boundTo[o.Name], model: c.modelID[i]}
		if st, ok := moved[it.instKey]; ok && it.instKey != "" {
			it.state = st
		} else if !o.hasState {
			continue // not saved: not loaded in this scene
		}
		if perturbPose != nil {
			perturbPose(o.Name, &it.state.Pos)
		}
		if err := c.placeBox(&it, &c.models[i]); err != nil {
			return nil, nil, err
		}
		index[o.Name] = len(items)
		items = append(items, it)
	}
	robots := t.Robots
	if in != nil && len(in.Robots) > 0 {
		robots = in.Robots
	}
	if c.opts.Offsets == OffsetsSupport {
		dz, has := c.offsets()
		applyOffsets(items, dz, has)
		ground, hasGround := groundLevel(c.groundPoses())
		placedN, ambiguity := settleMoved(items, has, ground, hasGround)
		c.boxErrors(items, has, placedN, ambiguity)
		rest(items, ground, hasGround)
		var agent *Box
		if pose, ok := c.robot(robots); ok {
			b := agentBox(pose)
			agent = &b
		}
		extendSupports(items, agent, ground, hasGround)
	} else {
		c.boxErrors(items, nil, nil, nil)
	}

	h := &episode.Header{Activity: c.opts.Activity, Steps: 1, Objects: map[string]*episode.Object{}}
	approx := map[string]approxKind{}
	// Substances present, by instance key.
	systems := map[string]*System{}
	for _, k := range c.sortedBindings() {
		name := c.binding[k]
		if _, isObj := index[name]; isObj || c.agents[k] {
			continue
		}
		if _, isSceneObj := t.Object(name); isSceneObj {
			continue // an object the scene did not save
		}
		var s *System
		if in != nil {
			for ik, is := range in.Systems {
				if bddl.Fold(ik) == k {
					s = is
				}
			}
		}
		if s == nil {
			s = t.Systems[name]
		}
		if s != nil {
			systems[k] = s // loaded, perhaps with no particles
		}
	}
	for _, k := range c.declared {
		name, bound := c.binding[k]
		o := &episode.Object{}
		h.Objects[k] = o
		switch {
		case c.agents[k]:
			if pose, ok := c.robot(robots); ok {
				c.agentObject(o, pose)
				approx[k] |= approxBox
				rep.Objects++
			} else {
				o.Set |= predicates.FieldExists // no robot pose: exists, nowhere known
				o.Exists = true
			}
		case !bound:
			o.Set, o.Exists = predicates.FieldExists, false
			rep.Future = append(rep.Future, k)
		case systems[k] != nil:
			o.Set, o.Exists = predicates.FieldExists, true
			rep.Substances++
		default:
			i, ok := index[name]
			if !ok {
				// A bound name with neither object state nor particles:
				// a system not initialised, or an object not loaded.
				o.Set, o.Exists = predicates.FieldExists, false
				if _, isObj := t.Object(name); !isObj {
					rep.Future = append(rep.Future, k)
				}
				continue
			}
			c.objectFields(o, &items[i], rep, approx, k)
			rep.Objects++
		}
	}
	// Wildcard expansions the template binds are listed too.
	for _, k := range c.sortedBindings() {
		if c.decl[k] {
			continue
		}
		o := &episode.Object{}
		h.Objects[k] = o
		if i, ok := index[c.binding[k]]; ok {
			c.objectFields(o, &items[i], rep, approx, k)
			rep.Objects++
		} else {
			o.Set, o.Exists = predicates.FieldExists, false
		}
	}
	c.particles(h, items, index, systems, approx)
	for k, kind := range approx {
		rep.Approximate = append(rep.Approximate, k)
		for _, l := range []struct {
			bit  approxKind
			list *[]string
		}{{approxBox, &rep.ApproxBoxes}, {approxJoints, &rep.ApproxJoints}, {approxParticles, &rep.ApproxParticles}} {
			if kind&l.bit != 0 {
				*l.list = append(*l.list, k)
			}
		}
	}
	for _, l := range [][]string{rep.Approximate, rep.ApproxBoxes, rep.ApproxJoints, rep.ApproxParticles} {
		sort.Strings(l)
	}
	meta := map[string]any{
		"source":   "omnigibson",
		"template": filepath.Base(t.Path),
		"offsets":  c.offsetName(),
	}
	if t.Partial != "" {
		meta["partial_template"] = filepath.Base(t.Partial)
	}
	if in != nil {
		meta["instance"] = filepath.Base(in.Path)
	}
	if len(t.Versions) > 0 {
		meta["versions"] = t.Versions
	}
	if pose, ok := c.robot(robots); ok {
		meta["robot"] = pose.Robot
	}
	if len(rep.Approximate) > 0 {
		meta["approximate"] = rep.Approximate
		// Which records are approximate, so that a reader of the episode
		// (check --init) tells approximate decisions as this conversion
		// does (ReportFromMeta).
		for k, l := range map[string][]string{"approx_boxes": rep.ApproxBoxes, "approx_joints": rep.ApproxJoints, "approx_particles": rep.ApproxParticles} {
			if len(l) > 0 {
				meta[k] = l
			}
		}
	}
	h.Meta, _ = json.Marshal(meta)
	return h, rep, nil
}

// room picks an object's room: of several, the first of a type :init
// puts the instance in (the simulator's room state holds for any of an
// object's rooms; the episode records one).
func (c *Converter) room(k string, rooms []string) string {
	if len(rooms) > 1 {
		want := c.roomTypes[k]
		if i := strings.LastIndexByte(k, '_'); i >= 0 {
			want = append(want[:len(want):len(want)], c.roomTypes[k[:i+1]]...)
		}
		for _, r := range rooms {
			for _, t := range want {
				if kb.RoomType(r) == t {
					return r
				}
			}
		}
	}
	return rooms[0]
}

// instanceOf is the BDDL instance bound to a simulator name, "" if none.
func (c *Converter) instanceOf(name string) string {
	for k, n := range c.binding {
		if n == name {
			return k
		}
	}
	return ""
}

func (c *Converter) offsetName() string {
	if c.opts.Dataset != nil {
		return "dataset, else " + c.opts.Offsets.String()
	}
	return c.opts.Offsets.String()
}

func (c *Converter) sortedBindings() []string {
	ks := make([]string, 0, len(c.binding))
	for k := range c.binding {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// robot returns the selected robot's start pose.
func (c *Converter) robot(rs []RobotPose) (RobotPose, bool) {
	for _, r := range rs {
		if c.opts.Robot == "" || r.Robot == c.opts.Robot || r.Robot == "" {
			return r, true
		}
	}
	return RobotPose{}, false
}

// groundLevel is the floor height the robots stand on: the lowest start
// pose (robots start on the floor).
func groundLevel(rs []RobotPose) (float64, bool) {
	if len(rs) == 0 {
		return 0, false
	}
	g := math.Inf(1)
	for _, r := range rs {
		g = min(g, r.Pos[2])
	}
	return g, true
}

// offsets returns the per-model offsets estimated from the template's
// own state, computed once per Converter: the scene's furniture never
// moves between instances, and the template places every object of the
// scene.
func (c *Converter) offsets() ([]float64, []bool) {
	c.offOnce.Do(func() {
		if c.opts.Pool != nil {
			c.opts.Pool.estimate(c)
			return
		}
		c.dz, c.hasDz = c.estimate(c.templateItems())
	})
	return c.dz, c.hasDz
}

// templateItems are the template's objects with a state and a box.
func (c *Converter) templateItems() []sceneItem {
	{
		items := make([]sceneItem, 0, len(c.tmpl.Objects))
		for i := range c.tmpl.Objects {
			o := &c.tmpl.Objects[i]
			if !o.hasState {
				continue
			}
			it := sceneItem{obj: o, state: o.State, model: c.modelID[i]}
			if perturbPose != nil {
				perturbPose(o.Name, &it.state.Pos)
			}
			if c.placeBox(&it, &c.models[i]) != nil {
				continue
			}
			items = append(items, it)
		}
		return items
	}
}

// estimate runs the offset estimate over placed items.
func (c *Converter) estimate(items []sceneItem) ([]float64, []bool) {
	ps := make([]placed, 0, len(items))
	for i := range items {
		it := &items[i]
		if !it.hasBox {
			continue
		}
		ps = append(ps, placed{model: it.model, root: vec(it.state.Pos), base: it.box, scaleZ: it.obj.Scale[2], exact: it.exact})
	}
	return estimateOffsets(ps, c.nModels, [][]RobotPose{c.groundPoses()}, &c.votes)
}

// groundPoses are the robot poses that tell the floor height: the
// template's, else those ReadTask took from an instance.
func (c *Converter) groundPoses() []RobotPose {
	if len(c.tmpl.Robots) > 0 {
		return c.tmpl.Robots
	}
	return c.tmpl.GroundPoses
}

// applyOffsets shifts the boxes without an exact offset by their model's
// estimated offset.
func applyOffsets(items []sceneItem, dz []float64, has []bool) {
	for i := range items {
		it := &items[i]
		if !it.hasBox || it.exact || !has[it.model] {
			continue
		}
		it.box.Center = r3.Add(it.box.Center, r3.Scale(dz[it.model]*it.obj.Scale[2], it.box.Axes[2]))
	}
}

// agentObject places the agent: a box standing on its start pose.
func (c *Converter) agentObject(o *episode.Object, r RobotPose) {
	o.Set = predicates.FieldExists | predicates.FieldPosition | predicates.FieldOrientation | predicates.FieldOBB
	o.Exists, o.Pos, o.Quat = true, r.Pos, r.Quat
	b := agentBox(r)
	o.OBB = b.Corners()
}

// agentBox is the agent's box standing on its start pose.
func agentBox(r RobotPose) Box {
	half := r3.Vec{X: AgentBox[0] / 2, Y: AgentBox[1] / 2, Z: AgentBox[2] / 2}
	b := NewBox(vec(r.Pos), half, r.Quat)
	b.Center = r3.Add(b.Center, r3.Scale(half.Z, b.Axes[2]))
	return b
}

// objectFields fills a bound object's record.
func (c *Converter) objectFields(o *episode.Object, it *sceneItem, rep *Report, approx map[string]approxKind, k string) {
	st := &it.state
	o.Set, o.Exists = predicates.FieldExists, true
	if st.HasPose {
		o.Set |= predicates.FieldPosition | predicates.FieldOrientation
		o.Pos, o.Quat = st.Pos, st.Quat
	}
	if it.hasBox {
		o.Set |= predicates.FieldOBB
		o.OBB = it.box.Corners()
		if !it.exact && (it.errH > 0 || it.errV > 0) {
			o.Set |= predicates.FieldBoxError
			o.BoxError = [2]float64{it.errH, it.errV}
		}
		rep.Boxes++
		if it.sizeGuessed {
			rep.SizesGuessed = append(rep.SizesGuessed, k)
			approx[k] |= approxBox
		}
		switch {
		case it.exact:
			rep.BoxesExact++
		case c.opts.Offsets == OffsetsSupport:
			rep.BoxesEstimated++
			approx[k] |= approxBox
		default:
			approx[k] |= approxBox
		}
	} else {
		rep.NoSize = append(rep.NoSize, k)
	}
	if len(it.obj.InRooms) > 0 {
		o.Set |= predicates.FieldRoom
		o.Room = c.room(k, it.obj.InRooms)
	}
	if !math.IsNaN(st.Temperature) {
		o.Set |= predicates.FieldTemperature
		o.Temperature = st.Temperature
	}
	if !math.IsNaN(st.MaxTemperature) {
		o.Set |= predicates.FieldMaxTemperature
		o.MaxTemperature = st.MaxTemperature
	}
	if st.HasToggle {
		o.Set |= predicates.FieldToggledOn
		o.ToggledOn = st.ToggledOn
	}
	if st.HasAttached {
		// The parent is named by its simulator id; a parent that is no
		// instance of the definition is, for the definition, none.
		o.Set |= predicates.FieldAttachedTo
		o.AttachedTo = ""
		if name, ok := c.byUUID[st.AttachedUUID]; ok && st.AttachedUUID >= 0 {
			o.AttachedTo = c.instanceOf(name)
		}
	}
	if len(st.Joints) > 0 {
		rep.Joints++
		o.Set |= predicates.FieldJoints
		o.Joints = c.joints(it, st.Joints)
		if it.meta == nil || it.meta.Joints == nil || len(it.meta.Joints) != len(st.Joints) {
			rep.JointsAssumed++
			approx[k] |= approxJoints
		}
	}
}
