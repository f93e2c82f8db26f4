package serve

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/transitions"
)

// The session methods of bddl serve: an episode checked step by step as
// a caller produces it. A session is an episode.Stepper, the machinery
// of bddl check itself, so a step's result is the record check prints
// for the episode ended at that step.

func init() {
	serveMethods["session.open"] = serveSessionOpen
	serveMethods["session.step"] = serveSessionStep
	serveMethods["session.run"] = serveSessionRun
	serveMethods["session.init"] = serveSessionInit
	serveMethods["session.close"] = serveSessionClose
	for _, m := range []string{"session.step", "session.run", "session.init", "session.close"} {
		serveSessionMethods[m] = true
	}
}

// serveSession is one open session. Its requests run one at a time, in
// order, on its worker (queue).
type serveSession struct {
	id       string
	name     string
	act      *batch.Activity
	prog     *predicates.Program
	stepper  *episode.Stepper
	annotate func(*episode.Result) // transition firings, when on
	perStep  bool

	// broken are the chains of session.run parts that failed: later
	// parts of each are refused (run in the session's order, so no lock).
	broken brokenChains

	mu      sync.Mutex // guards closed, queue and working
	closed  bool
	queue   []func()
	working bool // a goroutine runs the queue
}

type sessionOpenParams struct {
	evalParams
	// Activity is a name (in Activities or the examples) or a path to a
	// problem file or activity directory; Definition is a problem's text.
	Activity   string          `json:"activity"`
	Definition string          `json:"definition"`
	Header     json.RawMessage `json:"header"`
	Name       string          `json:"name"`
}

func serveSessionOpen(s *server, raw json.RawMessage) (any, *serveError) {
	var p sessionOpenParams
	if e := decodeParams(raw, &p); e != nil {
		return nil, e
	}
	o, serr := p.evalParams.checkOptions(s.opts)
	if serr != nil {
		return nil, serr
	}
	res, _, _, serr := s.state.resolver(&p.evalParams, o)
	if serr != nil {
		return nil, serr
	}
	named := p.Activity
	if named == "" && p.Definition != "" {
		named = "definition" // the header must name one; the text decides
	}
	header, serr := headerLine(p.Header, named)
	if serr != nil {
		return nil, serr
	}
	name := p.Name
	if name == "" {
		name = "session"
	}
	rd, err := episode.NewReader(bytes.NewReader(header), name)
	if err != nil {
		e := asServeError(err, codeInvalidParams)
		e.Code = codeInvalidParams // the header is a parameter
		return nil, e
	}
	act, serr := sessionActivity(res, &p, rd.Header().Activity)
	if serr != nil {
		return nil, serr
	}
	prog, err := res.Program(act, episode.Wildcards(act.Problem, rd.Header()))
	if err != nil {
		return nil, errorf(codeDefinition, "activity %s: %v", act.Name, err)
	}
	opts := o.Episode
	sess := &serveSession{name: name, act: act, prog: prog, perStep: p.PerStep}
	if p.Transitions {
		ec := transitions.NewEpisodeChecker(res.Base())
		if sess.annotate, err = ec.Hook(prog, rd.Header().DT, &opts); err != nil {
			return nil, errorf(codeDefinition, "transitions: %v", err)
		}
	}
	if sess.stepper, err = episode.NewStepper(prog, rd, opts); err != nil {
		e := asServeError(err, codeInvalidParams)
		e.Code = codeInvalidParams
		return nil, e
	}
	id, serr := s.state.add(sess)
	if serr != nil {
		return nil, serr
	}
	return map[string]any{"session": id, "activity": act.Name, "objects": prog.NumObjects(),
		"conjuncts": episode.ConjunctTexts(prog)}, nil
}

// headerLine is the episode header of a session: the one given (an
// object of the episode format), with "bddl_episode": 1 added when
// absent, else a bare header naming the activity.
func headerLine(raw json.RawMessage, activity string) ([]byte, *serveError) {
	h := map[string]json.RawMessage{}
	if t := bytes.TrimSpace(raw); len(t) > 0 && !bytes.Equal(t, []byte("null")) {
		if err := json.Unmarshal(t, &h); err != nil {
			return nil, errorf(codeInvalidParams, "header: not a JSON object: %v", err)
		}
	}
	if _, ok := h["bddl_episode"]; !ok {
		h["bddl_episode"] = json.RawMessage("1")
	}
	if _, ok := h["activity"]; !ok && activity != "" {
		b, _ := json.Marshal(activity)
		h["activity"] = b
	}
	b, err := json.Marshal(h)
	if err != nil {
		return nil, errorf(codeInvalidParams, "header: %v", err)
	}
	return b, nil
}

// sessionActivity resolves the activity of a session: the definition's
// text, else the activity named or the path given, else the header's.
func sessionActivity(res *batch.Resolver, p *sessionOpenParams, fromHeader string) (*batch.Activity, *serveError) {
	if p.Definition != "" {
		name := p.Name
		if name == "" {
			name = "definition.bddl"
		}
		act, err := res.ActivityText(name, []byte(p.Definition))
		if err != nil {
			return nil, asServeError(err, codeDefinition)
		}
		return act, nil
	}
	ref := p.Activity
	if ref == "" {
		ref = fromHeader
	}
	if ref == "" {
		return nil, errorf(codeInvalidParams, "session.open needs an activity (a name or a path), a definition, or a header naming one")
	}
	// A path the caller names is read wherever it is: the caller is the
	// local user, not a recording of unknown origin.
	var ep batch.Episode
	if info, err := os.Stat(ref); err == nil {
		abs, _ := filepath.Abs(ref)
		if !info.IsDir() && !info.Mode().IsRegular() {
			return nil, errorf(codeInvalidParams, "activity %v", fsutil.NotRegular(ref, info.Mode()))
		}
		ep = batch.Episode{Input: batch.Input{Path: abs, Arg: ref, Root: filepath.Dir(abs), Rel: filepath.Base(abs)}}
		ref = abs
	}
	act, err := res.Resolve(ref, ep)
	if err != nil {
		return nil, asServeError(err, codeNotFound)
	}
	return act, nil
}

// result is the record bddl check prints for the episode as fed so far.
func (sess *serveSession) result(explain bool) *episode.Result {
	r := sess.stepper.Result(explain)
	if sess.annotate != nil {
		sess.annotate(r)
	}
	r.Activity = sess.act.Name
	for _, d := range sess.act.Warnings {
		r.Warnings = append(r.Warnings, d.Error())
	}
	if !sess.perStep {
		r.PerStep, r.Conjuncts = nil, nil
	}
	if !explain {
		r.InitFailures = nil // the lean record: no literal lists
	}
	return r
}

// record marshals a result as bddl check --format json does.
func record(r *episode.Result) (json.RawMessage, *serveError) {
	if b, ok := appendRecord(make([]byte, 0, 512), r); ok {
		return b, nil
	}
	b, err := batch.MarshalLine(r)
	if err != nil {
		return nil, errorf(codeInternal, "marshalling the result: %v", err)
	}
	return json.RawMessage(bytes.TrimRight(b, "\n")), nil
}

type sessionStepParams struct {
	Session string          `json:"session"`
	Step    json.RawMessage `json:"step"`
	// Explain (default false: the lean record, on the hot path) asks for
	// the whole record of bddl check, with the literal lists
	// (unsatisfied, undetermined, init_failures) and their counts.
	Explain bool `json:"explain"`
}

// feed gives one step line to the session.
func (sess *serveSession) feed(step json.RawMessage) *serveError {
	line := bytes.TrimSpace(step)
	if len(line) == 0 || line[0] != '{' {
		return errorf(codeInvalidParams, "step: a JSON object as a line of the episode format, e.g. {\"step\": 0}")
	}
	if _, err := sess.stepper.Feed(line); err != nil {
		return asServeError(err, codeBadStep)
	}
	return nil
}

// feedMarshal gives the session one step read from steps_marshal.
func (sess *serveSession) feedMarshal(step *episode.MarshalStep) *serveError {
	if _, err := sess.stepper.FeedMarshal(step); err != nil {
		return asServeError(err, codeBadStep)
	}
	return nil
}

func serveSessionStep(s *server, raw json.RawMessage) (any, *serveError) {
	var p sessionStepParams
	if e := decodeParams(raw, &p); e != nil {
		return nil, e
	}
	return sessionStep(s, p.Session, p.Explain, p.Step)
}

// sessionStep applies one step to a session and returns its record.
func sessionStep(s *server, session string, explain bool, step []byte) (any, *serveError) {
	sess, serr := s.state.lookup(session)
	if serr != nil {
		return nil, serr
	}
	if serr := sess.feed(step); serr != nil {
		return nil, serr
	}
	return record(sess.result(explain))
}

type sessionRunParams struct {
	Session string `json:"session"`
	// Steps is the array kept whole and walked by walkSteps: decoding it
	// into one value per step cost three times the evaluation.
	Steps   json.RawMessage `json:"steps"`
	Explain bool            `json:"explain"` // as session.step's

	// StepsMarshal is the steps array as Python's marshal.dumps(steps, 4)
	// writes it, in base64: the fast encoding of openbddl's Session.run.
	// It is read whole into the JSON the steps field would hold before any
	// step is applied.
	StepsMarshal *string `json:"steps_marshal"`

	// Goals adds the goal's truth after each step.
	Goals bool `json:"goals"`

	// Chain names a run sent as several requests (openbddl sends a long
	// list in parts so that it encodes one while the server applies the
	// one before): once a part fails, the session refuses the chain's
	// later parts (chain_broken) without applying them.
	Chain string `json:"chain"`
}

// serveSessionRun feeds many steps in one request and reports the
// record after the last (and with goals, the goal's truth at each).
func serveSessionRun(s *server, raw json.RawMessage) (any, *serveError) {
	var p sessionRunParams
	if e := decodeParams(raw, &p); e != nil {
		return nil, e
	}
	if p.StepsMarshal == nil {
		return runChained(s, &p, p.Steps, nil)
	}
	if len(bytes.TrimSpace(p.Steps)) > 0 {
		return runChained(s, &p, nil, errorf(codeInvalidParams, "params: steps and steps_marshal: give one"))
	}
	raw, err := base64.StdEncoding.DecodeString(*p.StepsMarshal)
	if err != nil {
		return runChained(s, &p, nil, errorf(codeInvalidParams, "params: steps_marshal: not base64 (%v)", err))
	}
	steps, release, serr := s.unmarshalSteps(raw)
	defer release()
	return runChained(s, &p, steps, serr)
}

// serveSessionInit reports whether :init holds in the session's state,
// after feeding the step given (if any), and which literals do not.
func serveSessionInit(s *server, raw json.RawMessage) (any, *serveError) {
	var p sessionStepParams
	if e := decodeParams(raw, &p); e != nil {
		return nil, e
	}
	sess, serr := s.state.lookup(p.Session)
	if serr != nil {
		return nil, serr
	}
	if len(bytes.TrimSpace(p.Step)) > 0 && !bytes.Equal(bytes.TrimSpace(p.Step), []byte("null")) {
		if serr := sess.feed(p.Step); serr != nil {
			return nil, serr
		}
	}
	v, failures := sess.stepper.Init()
	if failures == nil {
		failures = []episode.Literal{}
	}
	return map[string]any{"init_ok": v == predicates.True, "init": v, "init_failures": failures}, nil
}

func serveSessionClose(s *server, raw json.RawMessage) (any, *serveError) {
	var p struct {
		Session string `json:"session"`
	}
	if e := decodeParams(raw, &p); e != nil {
		return nil, e
	}
	if !s.state.remove(p.Session) {
		return nil, errorf(codeUnknownSession, "unknown session %q (never opened, or closed)", p.Session)
	}
	return map[string]any{"closed": p.Session}, nil
}
