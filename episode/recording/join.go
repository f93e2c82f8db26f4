package recording

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/predicates"
)

// DefaultMaxGap is the longest a stream may go without a sample inside
// the joined span (seconds) when JoinOptions.MaxGap is 0.
const DefaultMaxGap = 0.5

// timeEps is how far after a step's time (seconds) a sample still counts
// as at it: float64 unix times carry about 0.2 µs of rounding.
const timeEps = 1e-6

// maxSteps bounds the steps of a join (a rate and span that would make
// more are an error, not an endless stream).
const maxSteps = 50_000_000

// JoinOptions say how a recording's streams and track become an episode.
type JoinOptions struct {
	// Name names the episode in messages.
	Name     string
	Activity string
	// Rate is the steps per second; 0 takes the slowest stream's
	// (track included).
	Rate float64
	// MaxGap bounds the time between two samples of a stream inside the
	// joined span (seconds); 0 is DefaultMaxGap.
	MaxGap float64
	// Agent is the robot as an instance; nil leaves it out.
	Agent *Agent
	// Base gives the base pose [x, y, yaw] (nil: Agent.Base, fixed);
	// Gripper the gripper's value (nil: not recorded).
	Base, Gripper Source
	// Track is the object track's path ("" for none); OpenTrack, when
	// set, opens it instead of the file (tests).
	Track     string
	OpenTrack func() (*TrackReader, error)
	// Names maps track names to instances; a name not in it is used as
	// it is. Instances, when not nil, are the activity's: a track name
	// resolving to none of them is an error naming its line.
	Names     map[string]string
	Instances []string
	// Static are header objects (from the map).
	Static map[string]*episode.Object
	// Meta is the layout's part of the header's meta.
	Meta map[string]any
	// DeclareSteps writes the number of steps in the header.
	DeclareSteps bool
}

// Stream is a joined recording as an episode in the episode package's
// JSON Lines format: an io.Reader to give episode.NewReader, producing
// the lines as they are read.
type Stream struct {
	opts   JoinOptions
	spans  []Span
	t0, t1 float64
	rate   float64
	steps  int

	base, grip *cursor
	track      *TrackReader
	tNext      float64
	pending    *episode.Step // the track sample after the last step
	trackDone  bool
	tPrev      float64
	agent      *agentState
	insts      map[string]string

	header episode.Header
	w      *episode.Writer
	buf    bytes.Buffer
	step   episode.Step
	objs   map[string]*episode.Object
	// last are the track objects' fields as last written, to write
	// only what changed.
	last  map[string]*episode.Object
	facts map[episode.Atom]int8
	order []episode.Atom
	next  int
	done  bool
	err   error
}

// Join reads the span of every stream and of the track, fixes the rate
// and the steps, and opens the streams for the join. Timestamp problems
// (one going back, no overlap between the streams) are errors here; a
// gap is found while the steps are produced and ends the stream (Err).
func Join(opts JoinOptions) (s *Stream, err error) {
	if opts.MaxGap == 0 {
		opts.MaxGap = DefaultMaxGap
	}
	if opts.MaxGap < 0 || math.IsNaN(opts.MaxGap) || opts.Rate < 0 || math.IsNaN(opts.Rate) || math.IsInf(opts.Rate, 0) {
		return nil, errors.New("the rate and the gap bound must be positive numbers")
	}
	s = &Stream{opts: opts, objs: map[string]*episode.Object{}, last: map[string]*episode.Object{}, facts: map[episode.Atom]int8{}}
	var srcs []Source
	for _, src := range []Source{opts.Base, opts.Gripper} {
		if src != nil {
			srcs = append(srcs, src)
		}
	}
	if opts.Track != "" || opts.OpenTrack != nil {
		srcs = append(srcs, &trackSource{s: s})
	}
	if len(srcs) == 0 {
		return nil, fmt.Errorf("%s: nothing to join: no base or gripper stream and no object track", opts.Name)
	}
	s.t0, s.t1 = math.Inf(-1), math.Inf(1)
	slowest := math.Inf(1)
	for _, src := range srcs {
		sp, err := scan(src)
		if err != nil {
			return nil, err
		}
		s.spans = append(s.spans, sp)
		s.t0, s.t1 = max(s.t0, sp.First), min(s.t1, sp.Last)
		if sp.Rate > 0 {
			slowest = min(slowest, sp.Rate)
		}
	}
	if s.t1 < s.t0 {
		return nil, fmt.Errorf("%s: the streams do not overlap in time: %s", opts.Name, spanText(s.spans))
	}
	s.rate = opts.Rate
	if s.rate == 0 {
		// a rate measured from timestamps: 6 significant digits
		s.rate, _ = strconv.ParseFloat(strconv.FormatFloat(slowest, 'g', 6, 64), 64)
	}
	if math.IsInf(s.rate, 0) { // a single sample each
		s.rate = 1
	}
	n := math.Floor((s.t1-s.t0)*s.rate+1e-4) + 1 // a last step a hair past the end is clamped to it
	if n > maxSteps {
		return nil, fmt.Errorf("%s: %.0f steps at %g per second: more than %d", opts.Name, n, s.rate, maxSteps)
	}
	s.steps = int(n)
	if err := s.open(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func spanText(spans []Span) string {
	parts := make([]string, len(spans))
	for i, sp := range spans {
		parts[i] = fmt.Sprintf("%s from %s to %s", sp.Name, fmtT(sp.First), fmtT(sp.Last))
	}
	return strings.Join(parts, ", ")
}

func (s *Stream) openTrack() (*TrackReader, error) {
	if s.opts.OpenTrack != nil {
		return s.opts.OpenTrack()
	}
	return OpenTrack(s.opts.Track)
}

// trackSource lets the track's times be scanned as a stream's.
type trackSource struct{ s *Stream }

func (t *trackSource) Name() string {
	if t.s.opts.Track != "" {
		return t.s.opts.Track
	}
	return "track"
}

func (t *trackSource) Open() (Series, error) {
	tr, err := t.s.openTrack()
	if err != nil {
		return nil, err
	}
	return trackSeries{tr}, nil
}

// OpenTimes reads the track's times alone, falling back to the full
// reader when a line is not plain (see trackTimes).
func (t *trackSource) OpenTimes() (Series, error) {
	if t.s.opts.OpenTrack != nil || t.s.opts.Track == "" {
		return t.Open()
	}
	tt, err := openTrackTimes(t.s.opts.Track)
	if err != nil {
		return nil, err
	}
	return &fallbackSeries{fast: tt, open: t.Open}, nil
}

// fallbackSeries reads with fast until it gives up, then scans again
// with the full reader (so a bad line's error is the full reader's).
type fallbackSeries struct {
	fast interface {
		Next() (float64, []float64, error)
		Close() error
	}
	slow Series
	open func() (Series, error)
	n    int
}

func (f *fallbackSeries) Next() (float64, []float64, error) {
	if f.slow == nil {
		t, v, err := f.fast.Next()
		if err != errSlowPath {
			f.n++
			return t, v, err
		}
		f.fast.Close()
		if f.slow, err = f.open(); err != nil {
			return 0, nil, err
		}
		for range f.n { // the times already given
			if _, _, err := f.slow.Next(); err != nil {
				return 0, nil, err
			}
		}
	}
	return f.slow.Next()
}

func (f *fallbackSeries) Close() error {
	if f.slow != nil {
		return f.slow.Close()
	}
	return f.fast.Close()
}

type trackSeries struct{ t *TrackReader }

func (t trackSeries) Next() (float64, []float64, error) {
	ts, _, err := t.t.Next()
	return ts, nil, err
}
func (t trackSeries) Close() error { return t.t.Close() }

func (s *Stream) open() error {
	o := &s.opts
	var err error
	if o.Base != nil {
		if s.base, err = openCursor(o.Base, o.MaxGap, s.t0); err != nil {
			return err
		}
	}
	if o.Gripper != nil {
		if s.grip, err = openCursor(o.Gripper, o.MaxGap, s.t0); err != nil {
			return err
		}
	}
	if o.Track != "" || o.OpenTrack != nil {
		if s.track, err = s.openTrack(); err != nil {
			return err
		}
		s.tPrev = math.Inf(-1)
		s.readTrack()
		if s.err != nil {
			return s.err
		}
	}
	if o.Instances != nil {
		s.insts = map[string]string{}
		for _, in := range o.Instances {
			s.insts[strings.ToLower(in)] = in
		}
	}
	if o.Agent != nil {
		s.agent = &agentState{a: o.Agent, first: true}
	}
	s.header = episode.Header{Activity: o.Activity, DT: 1 / s.rate, Objects: map[string]*episode.Object{}}
	for name, obj := range o.Static {
		s.header.Objects[name] = obj
	}
	if o.DeclareSteps {
		s.header.Steps = s.steps
	}
	meta := map[string]any{"start": s.t0, "end": s.t1, "rate": s.rate, "max_gap": o.MaxGap, "streams": s.spans}
	for k, v := range o.Meta {
		meta[k] = v
	}
	s.header.Meta, _ = json.Marshal(map[string]any{"recording": meta})
	s.w, err = episode.NewWriter(&s.buf, &s.header)
	return err
}

// Close closes the streams and the track.
func (s *Stream) Close() {
	for _, c := range []*cursor{s.base, s.grip} {
		if c != nil {
			c.close()
		}
	}
	if s.track != nil {
		s.track.Close()
	}
}

// Header is the episode's header.
func (s *Stream) Header() *episode.Header { return &s.header }

// Steps is the number of steps the join makes.
func (s *Stream) Steps() int { return s.steps }

// Rate is the steps per second; Start the unix time of step 0.
func (s *Stream) Rate() float64  { return s.rate }
func (s *Stream) Start() float64 { return s.t0 }

// Spans are the streams' spans (the track last, when there is one).
func (s *Stream) Spans() []Span { return s.spans }

// Err is why the stream ended before its last step; valid once Read has
// returned io.EOF.
func (s *Stream) Err() error { return s.err }

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

func (s *Stream) produce() {
	for s.buf.Len() == 0 && s.next < s.steps && s.err == nil {
		if err := s.writeStep(s.next); err != nil {
			s.err = err
			break
		}
		s.next++
	}
	if s.next >= s.steps || s.err != nil {
		if cerr := s.w.Close(); cerr != nil && s.err == nil {
			s.err = cerr
		}
		s.done = true
		s.Close()
	}
}

// readTrack reads the next track sample into pending.
func (s *Stream) readTrack() {
	t, st, err := s.track.Next()
	if err == io.EOF {
		s.trackDone, s.pending = true, nil
		return
	}
	if err != nil {
		s.err = err
		return
	}
	s.tNext, s.pending = t, st
}

func (s *Stream) writeStep(k int) error {
	ts := s.t0 + float64(k)/s.rate
	if k == s.steps-1 {
		ts = min(ts, s.t1)
	}
	clear(s.objs)
	clear(s.facts)
	s.order = s.order[:0]
	if s.agent != nil {
		x, y, yaw := s.agent.a.Base[0], s.agent.a.Base[1], s.agent.a.Base[2]
		if s.base != nil {
			if err := s.base.advance(ts); err != nil {
				return err
			}
			v := s.base.cur
			if len(v) < 3 {
				return fmt.Errorf("%s: sample %d: %d values, expected x, y, yaw", s.base.name, s.base.iCur, len(v))
			}
			x, y, yaw = v[0], v[1], v[2]
			if !finite3(x, y, yaw) {
				return &TimeError{Stream: s.base.name, Sample: s.base.iCur, Msg: fmt.Sprintf("base pose (%v, %v, %v) is not finite", x, y, yaw)}
			}
		}
		grip := gripperUnknown
		if s.grip != nil {
			if err := s.grip.advance(ts); err != nil {
				return err
			}
			if len(s.grip.cur) == 0 || math.IsNaN(s.grip.cur[0]) {
				return &TimeError{Stream: s.grip.name, Sample: s.grip.iCur, Msg: "no gripper value"}
			}
			grip = gripperOpen
			if s.grip.cur[0] > s.agent.a.GripperClosed {
				grip = gripperClosed
			}
		}
		if s.agent.update(x, y, yaw, grip) {
			o := s.agent.obj // a copy the track may add to
			s.objs[s.agentName()] = &o
		}
	}
	if s.track != nil {
		if err := s.applyTrack(ts); err != nil {
			return err
		}
	}
	s.dropUnchanged()
	s.step = episode.Step{Step: int64(k), T: float64(k) / s.rate, HasT: true, Objects: s.objs}
	for _, a := range s.order {
		switch s.facts[a] {
		case 1:
			s.step.Facts = append(s.step.Facts, a)
		case -1:
			s.step.False = append(s.step.False, a)
		default:
			s.step.Unset = append(s.step.Unset, a)
		}
	}
	if err := s.w.WriteStep(&s.step); err != nil {
		return fmt.Errorf("%s: step %d: %v", s.opts.Name, k, err)
	}
	return nil
}

func (s *Stream) agentName() string {
	if s.agent.a.Instance == "" {
		return DefaultAgent
	}
	return s.agent.a.Instance
}

func finite3(a, b, c float64) bool {
	return !math.IsNaN(a+b+c) && !math.IsInf(a+b+c, 0)
}

// applyTrack merges the track samples at or before ts into the step,
// checking the track's gaps like a stream's.
func (s *Stream) applyTrack(ts float64) error {
	for !s.trackDone && s.tNext <= ts+timeEps {
		if s.tNext > s.t0 && !math.IsInf(s.tPrev, -1) && s.tNext-s.tPrev > s.opts.MaxGap {
			return s.trackGap(s.tPrev, s.tNext)
		}
		if err := s.mergeSample(s.pending); err != nil {
			return err
		}
		s.tPrev = s.tNext
		s.readTrack()
		if s.err != nil {
			return s.err
		}
	}
	if !s.trackDone && s.tNext-s.tPrev > s.opts.MaxGap {
		return s.trackGap(s.tPrev, s.tNext)
	}
	return nil
}

func (s *Stream) trackGap(a, b float64) error {
	return &TimeError{Stream: s.track.name, Sample: s.track.Samples() - 1,
		Msg: fmt.Sprintf("a gap of %.3f s between %s and %s is longer than the bound of %g s (--max-gap)", b-a, fmtT(a), fmtT(b), s.opts.MaxGap)}
}

// resolve gives the instance of a track name.
func (s *Stream) resolve(name string) (string, error) {
	if inst, ok := s.opts.Names[name]; ok {
		name = inst
	}
	if s.insts == nil {
		return name, nil
	}
	if canon, ok := s.insts[strings.ToLower(name)]; ok {
		return canon, nil
	}
	return "", fmt.Errorf("%s is not an instance of %s (name its instance in the map's names:)", name, s.opts.Activity)
}

func (s *Stream) mergeSample(st *episode.Step) error {
	line := s.track.rd.Line() - 1
	fail := func(field string, err error) error {
		return &episode.Error{File: s.track.name, Line: line, Field: field, Msg: err.Error()}
	}
	for name, o := range st.Objects {
		inst, err := s.resolve(name)
		if err != nil {
			return fail("objects."+name, err)
		}
		dst := s.objs[inst]
		if dst == nil {
			dst = &episode.Object{}
			s.objs[inst] = dst
		}
		mergeObject(dst, o)
	}
	for _, list := range []struct {
		key   string
		atoms []episode.Atom
		v     int8
	}{{"facts", st.Facts, 1}, {"false", st.False, -1}, {"unset", st.Unset, 0}} {
		for _, a := range list.atoms {
			var err error
			if a.A, err = s.resolveArg(a.A); err != nil {
				return fail(list.key, err)
			}
			if a.B, err = s.resolveArg(a.B); err != nil {
				return fail(list.key, err)
			}
			if _, seen := s.facts[a]; !seen {
				s.order = append(s.order, a)
			}
			s.facts[a] = list.v
		}
	}
	return nil
}

// resolveArg resolves an atom's argument; a room type (inroom's second)
// or "" is kept.
func (s *Stream) resolveArg(name string) (string, error) {
	if name == "" {
		return "", nil
	}
	inst, err := s.resolve(name)
	if err != nil && !strings.Contains(name, ".") {
		return name, nil
	}
	return inst, err
}

// dropUnchanged removes from the step the track's pose and box fields
// equal to those last written (a track repeats still objects at every
// sample).
func (s *Stream) dropUnchanged() {
	for name, o := range s.objs {
		if s.agent != nil && name == s.agentName() {
			continue
		}
		last := s.last[name]
		if last == nil {
			last = &episode.Object{}
			s.last[name] = last
		}
		for _, f := range []predicates.Field{predicates.FieldPosition, predicates.FieldOrientation, predicates.FieldAABB, predicates.FieldOBB} {
			if o.Set&f == 0 {
				if o.Null&f != 0 {
					last.Set &^= f
				}
				continue
			}
			if last.Set&f != 0 && episode.FieldEqual(o, last, f) {
				o.Set &^= f
				continue
			}
			copyField(last, o, f)
			last.Set |= f
		}
		if o.Set == 0 && o.Null == 0 {
			delete(s.objs, name)
		}
	}
}
