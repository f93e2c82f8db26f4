package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"sync"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/sampler"
)

// serveState is what requests share: knowledge bases, resolvers
// (activity lookup and compiled programs) and samplers, each built once
// per configuration, and the open sessions.
type serveState struct {
	opts *Options

	mu        sync.Mutex
	kbs       map[string]*kbEntry
	resolvers map[string]*batch.Resolver
	samplers  map[string]*sampler.Sampler
	sessions  map[string]*serveSession
	next      uint64
	// maxSessions bounds the sessions open at once (--max-sessions).
	maxSessions int
}

type kbEntry struct {
	once sync.Once
	base *kb.Base
	err  error
}

func newServeState(o *Options) *serveState {
	return &serveState{opts: o, kbs: map[string]*kbEntry{}, resolvers: map[string]*batch.Resolver{},
		samplers: map[string]*sampler.Sampler{}, sessions: map[string]*serveSession{}}
}

// base loads the knowledge base at path ("": the host's default, for
// bddl its --kb, else $BDDL_KB, else the embedded one), once.
func (st *serveState) base(path string) (*kb.Base, *serveError) {
	st.mu.Lock()
	e := st.kbs[path]
	if e == nil {
		e = &kbEntry{}
		st.kbs[path] = e
	}
	st.mu.Unlock()
	e.once.Do(func() {
		var source string
		e.base, source, e.err = st.opts.LoadKB(path)
		// The data errors go in the message, which is all a client sees
		// (the server's stderr may go nowhere).
		if e.err != nil {
			e.err = fmt.Errorf("knowledge base %s does not load: %w", source, e.err)
		}
	})
	if e.err != nil {
		return nil, errorf(codeKB, "%v", e.err)
	}
	return e.base, nil
}

// evalParams are the evaluation options of session.open and check: the
// flags of bddl check, under the same names.
type evalParams struct {
	KB           string  `json:"kb"`
	Activities   string  `json:"activities"`
	Negation     string  `json:"negation"`
	StrictPairs  bool    `json:"strict_pairs"`
	GoalFormulas string  `json:"goal_formulas"`
	Hold         int     `json:"hold"`
	AtEnd        bool    `json:"at_end"`
	Lenient      bool    `json:"lenient"`
	PerStep      bool    `json:"per_step"`
	Transitions  bool    `json:"transitions"`
	Geometry     *geomIn `json:"geometry"`
}

// geomIn are the geometry tolerances (bddl check's flags); an absent one
// keeps its default.
type geomIn struct {
	TouchTolerance  *float64 `json:"touch_tolerance"`
	VerticalRange   *float64 `json:"vertical_range"`
	HorizontalRange *float64 `json:"horizontal_range"`
	NextToRatio     *float64 `json:"nextto_ratio"`
	HorizontalRays  *int     `json:"horizontal_rays"`
	OverlapFraction *float64 `json:"overlap_fraction"`
}

// checkOptions are the params as bddl check's options.
type checkOptions struct {
	CheckConfig
	negation string
	perStep  bool
}

// checkOptions turns the params into bddl check's options (Options.Check),
// so that their defaults and checks are check's own.
func (p *evalParams) checkOptions(opts *Options) (*checkOptions, *serveError) {
	o := CheckSettings{Negation: p.Negation, StrictPairs: p.StrictPairs, GoalFormulas: p.GoalFormulas,
		Hold: p.Hold, AtEnd: p.AtEnd, Lenient: p.Lenient, PerStep: p.PerStep}
	if o.Negation == "" {
		o.Negation = "reference"
	}
	if o.Hold == 0 {
		o.Hold = 1
	}
	if o.Hold < 1 {
		return nil, errorf(codeInvalidParams, "hold must be at least 1, not %d", p.Hold)
	}
	o.Geometry = predicates.Geometry{TouchTolerance: predicates.DefaultTouchTolerance, VerticalRange: predicates.DefaultVerticalRange,
		HorizontalRange: predicates.DefaultHorizontalRange, NextToRatio: predicates.DefaultNextToRatio,
		HorizontalRays: predicates.DefaultHorizontalRays, OverlapFraction: predicates.DefaultOverlapFraction}
	if gi := p.Geometry; gi != nil {
		set := func(dst *float64, v *float64) {
			if v != nil {
				*dst = *v
			}
		}
		set(&o.Geometry.TouchTolerance, gi.TouchTolerance)
		set(&o.Geometry.VerticalRange, gi.VerticalRange)
		set(&o.Geometry.HorizontalRange, gi.HorizontalRange)
		set(&o.Geometry.NextToRatio, gi.NextToRatio)
		set(&o.Geometry.OverlapFraction, gi.OverlapFraction)
		if gi.HorizontalRays != nil {
			o.Geometry.HorizontalRays = *gi.HorizontalRays
		}
	}
	conf, err := opts.Check(o)
	if err != nil {
		return nil, errorf(codeInvalidParams, "%v", err)
	}
	return &checkOptions{CheckConfig: conf, negation: o.Negation, perStep: o.PerStep}, nil
}

// resolver returns the shared resolver of a configuration: activities
// found and programs compiled once across requests.
func (st *serveState) resolver(p *evalParams, o *checkOptions) (*batch.Resolver, predicates.Options, bddl.Options, *serveError) {
	compile, parse := o.Compile, o.Parse
	base, serr := st.base(p.KB)
	if serr != nil {
		return nil, compile, parse, serr
	}
	key := fmt.Sprintf("%q %q %+v %+v", p.KB, p.Activities, compile, parse)
	st.mu.Lock()
	defer st.mu.Unlock()
	if r := st.resolvers[key]; r != nil {
		return r, compile, parse, nil
	}
	r := st.newResolver(base, compile)
	r.SetParse(parse, nil)
	if p.Activities != "" {
		if err := r.AddLibrary(p.Activities, nil); err != nil {
			return nil, compile, parse, errorf(codeNotFound, "activities %v", err)
		}
	}
	st.resolvers[key] = r
	return r, compile, parse, nil
}

// sampler returns the sampler of a knowledge base.
func (st *serveState) sampler(kbPath string) (*sampler.Sampler, *serveError) {
	base, serr := st.base(kbPath)
	if serr != nil {
		return nil, serr
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if s := st.samplers[kbPath]; s != nil {
		return s, nil
	}
	s := sampler.New(base, predicates.Options{})
	st.samplers[kbPath] = s
	return s, nil
}

// add registers a new session, unless --max-sessions are open.
func (st *serveState) add(sess *serveSession) (string, *serveError) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if len(st.sessions) >= st.maxSessions {
		return "", errorf(codeTooManySessions, "%d sessions are open (--max-sessions %d): close one first, or start the server with a larger --max-sessions", len(st.sessions), st.maxSessions)
	}
	st.next++
	sess.id = "s" + strconv.FormatUint(st.next, 10)
	st.sessions[sess.id] = sess
	return sess.id, nil
}

// enqueue runs f on the worker of the session the params name, after the
// requests sent to it before; fail answers when there is no such
// session. A cheap request (inline) on a session with nothing queued
// runs at once on the caller's goroutine, which saves a hand-off per
// step. It reports whether f ran or was queued.
func (st *serveState) enqueue(params json.RawMessage, f func(), fail func(*serveError), inline bool) bool {
	var p struct {
		Session string `json:"session"`
	}
	// The session named first (as openbddl writes it) is read without
	// decoding the rest, which for session.run is the whole episode; only
	// when "session" occurs once and nothing is \u-escaped, so that no
	// later duplicate key (which the handler's decoding would take) can
	// name another session.
	sid := keyPrefix(params, "session")
	if sid == nil || bytes.Count(params, []byte(`"session"`)) != 1 || bytes.Contains(params, []byte(`\u`)) ||
		json.Unmarshal(sid, &p.Session) != nil {
		_ = json.Unmarshal(params, &p)
	}
	return st.enqueueID(p.Session, f, fail, inline)
}

// enqueueID is enqueue for a session named already.
func (st *serveState) enqueueID(sid string, f func(), fail func(*serveError), inline bool) bool {
	var p struct{ Session string }
	p.Session = sid
	st.mu.Lock()
	sess := st.sessions[p.Session]
	st.mu.Unlock()
	if sess == nil {
		if p.Session == "" {
			fail(errorf(codeInvalidParams, "params: no session given"))
		} else {
			fail(errorf(codeUnknownSession, "unknown session %q (never opened, or closed)", p.Session))
		}
		return false
	}
	sess.mu.Lock()
	if sess.closed {
		sess.mu.Unlock()
		fail(errorf(codeUnknownSession, "unknown session %q (closed)", p.Session))
		return false
	}
	// Only this goroutine (the reader) adds to the queue, so an idle
	// worker with nothing queued means running f here keeps the order.
	if inline && !sess.working {
		sess.mu.Unlock()
		f()
		return true
	}
	// The queue has no fixed length, so the reader never waits for a busy
	// session (that held every other session's requests); what the
	// queued requests hold is bounded by the server's --max-queued.
	sess.queue = append(sess.queue, f)
	if !sess.working {
		sess.working = true
		go sess.work()
	}
	sess.mu.Unlock()
	return true
}

// work runs the session's queued requests in order, and ends when none
// is left.
func (sess *serveSession) work() {
	for {
		sess.mu.Lock()
		if len(sess.queue) == 0 {
			sess.working = false
			sess.queue = nil
			sess.mu.Unlock()
			return
		}
		f := sess.queue[0]
		sess.queue[0] = nil
		sess.queue = sess.queue[1:]
		sess.mu.Unlock()
		f()
	}
}

// lookup finds a session, for its worker.
func (st *serveState) lookup(id string) (*serveSession, *serveError) {
	st.mu.Lock()
	defer st.mu.Unlock()
	sess := st.sessions[id]
	if sess == nil {
		return nil, errorf(codeUnknownSession, "unknown session %q (never opened, or closed)", id)
	}
	return sess, nil
}

// remove unregisters a session; requests queued before the close still
// run (each finds the session gone).
func (st *serveState) remove(id string) bool {
	st.mu.Lock()
	sess := st.sessions[id]
	delete(st.sessions, id)
	st.mu.Unlock()
	if sess == nil {
		return false
	}
	sess.shut()
	return true
}

// shut refuses the session's later requests.
func (sess *serveSession) shut() {
	sess.mu.Lock()
	sess.closed = true
	sess.mu.Unlock()
}

// closeSessions closes every session (at the end of the input); requests
// already queued still run.
func (st *serveState) closeSessions() {
	st.mu.Lock()
	all := st.sessions
	st.sessions = map[string]*serveSession{}
	st.mu.Unlock()
	for _, sess := range all {
		sess.shut()
	}
}

// newResolver is batch.NewResolver guarded by the host (Options.Guard).
func (st *serveState) newResolver(base *kb.Base, compile predicates.Options) *batch.Resolver {
	r := batch.NewResolver(base, compile)
	if st.opts.Guard != nil {
		r.Guard = st.opts.Guard(base)
	}
	return r
}
