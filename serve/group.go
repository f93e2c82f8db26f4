package serve

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/pymarshal"
)

// group.step: one request steps many sessions, as a vectorised
// environment does every tick. Each member's step is applied exactly as
// session.step applies it (the same line to the same episode reader);
// a member that fails is reported in its place and the others go on.
// The results come back as columns (success, goal, score, ... one value
// per member), which a client reads into arrays without building one
// object per member; the records themselves on request.

func init() {
	// The reader runs group.step itself (dispatchGroup), so that the
	// members' steps keep their order with the sessions' other requests;
	// the entry here names the method in the handshake.
	serveMethods["group.step"] = func(*server, json.RawMessage) (any, *serveError) {
		return nil, errorf(codeInternal, "group.step is run by the reader (dispatchGroup)")
	}
}

// maxGroupSessions bounds the members of one group.step.
const maxGroupSessions = 1 << 14

// groupParallelMin is the number of idle members from which a group's
// steps are spread over the processors: below it a helper's start costs
// more than it saves. (A variable: the benchmark compares both ways.)
var groupParallelMin = 8

// groupProcessors is the processors a group's steps are spread over: all
// but one, which the client waiting for the answer holds (openbddl polls
// the pipe while it waits). On two processors a helper would take the
// client's and both would wait for the scheduler: a group of 16 cost
// 1.7 to 2.2 times as much spread as on the reader alone (docs/python.md).
func groupProcessors() int { return runtime.GOMAXPROCS(0) - 1 }

type groupStepParams struct {
	Sessions []string `json:"sessions"`
	// Steps are the members' step lines, one object each (or null/{}
	// for a member whose step is made of the arrays alone).
	Steps json.RawMessage `json:"steps"`
	// StepsMarshal is Steps as Python's marshal.dumps(steps, 4) writes
	// them, in base64, as session.run's steps_marshal: what openbddl
	// sends (a tenth of json.dumps's time).
	StepsMarshal *string `json:"steps_marshal"`
	// stepsB64 is StepsMarshal as parseGroupFast finds it, in the
	// request line (read before the reader reads the next line).
	stepsB64 []byte
	// Numbers are the members' step numbers, written into each line as
	// "step" (a step object then must not have its own).
	Numbers []int64 `json:"numbers"`
	// Names, with Pos, Quat and AABB (arrays [member][object][3|4|6]),
	// give the objects' poses: member i's line gets "objects":
	// {names[k]: {"pos": pos[i][k], ...}}.
	Names []string        `json:"names"`
	Pos   json.RawMessage `json:"pos"`
	Quat  json.RawMessage `json:"quat"`
	AABB  json.RawMessage `json:"aabb"`
	// Explain as session.step's (with records: the literal lists).
	Explain bool `json:"explain"`
	// Records adds each member's result record (null for a member that
	// failed).
	Records bool `json:"records"`
}

// groupMember is one member's outcome.
type groupMember struct {
	out    episode.Outcome
	done   bool // out holds the member's outcome
	record json.RawMessage
	err    *serveError
	sess   *serveSession // claimed idle by the reader (nil: looked up when applied)
}

// dispatchGroup runs a group.step request on the reader: it reports
// whether the line was one. A line written as openbddl writes it,
// {"id":ID,"method":"group.step","params":{...}}, is not decoded whole
// before its params (a decoding of the envelope cost as much as the
// params'); any other line naming the method is; lines that do not name
// it go on to the generic path.
func (s *server) dispatchGroup(line []byte) bool {
	if _, ok := s.methods["group.step"]; !ok || !bytes.Contains(line, []byte(`"group.step"`)) {
		return false
	}
	if id := idPrefix(line); id != nil {
		rest := line[len(`{"id":`):]
		if r, ok := bytes.CutPrefix(rest, id); ok && bytes.HasPrefix(line, []byte(`{"id":`)) {
			if params, ok := bytes.CutPrefix(r, []byte(`,"method":"group.step","params":`)); ok {
				if params, ok = bytes.CutSuffix(params, []byte("}")); ok {
					s.groupStep(id, params)
					return true
				}
			}
		}
	}
	var req serveRequest
	if json.Unmarshal(line, &req) != nil || req.Method != "group.step" || !validID(req.ID) {
		return false // the generic path reports it
	}
	s.groupStep(req.ID, req.Params)
	return true
}

// groupStep applies a group's steps and answers when every member is
// done. Members whose session has nothing queued are applied here, on
// the reader, spread over the processors when there are many (no later
// request can reach those sessions meanwhile: only the reader dispatches);
// the others are queued behind their session's requests, and the last
// member to finish answers.
func (s *server) groupStep(id json.RawMessage, raw json.RawMessage) {
	var p groupStepParams
	if !s.groups.parseGroupFast(raw, &p) {
		if e := decodeWhole(raw, &p); e != nil {
			s.respond(id, nil, e)
			return
		}
	}
	doc, release := s.groupDoc(&p)
	var lines [][]byte
	if doc == nil {
		var e *serveError
		if lines, release, e = groupLines(&p, s.unmarshalSteps, &s.groups.b64); e != nil {
			release()
			s.respond(id, nil, e)
			return
		}
	}
	n := len(p.Sessions)
	g := &groupRun{s: s, id: append(json.RawMessage(nil), id...), p: &p, members: make([]groupMember, n), release: release, doc: doc}
	g.left.Store(int64(n))
	s.running.Add(1)
	idle := make([]int, 0, n)
	found := s.state.lookupAll(p.Sessions, make([]*serveSession, n))
	for i, sid := range p.Sessions {
		sess, busy, e := s.state.claim(found[i], sid, g, i, lineOf(lines, i))
		switch {
		case e != nil:
			g.members[i].err = e
			g.done()
		case !busy:
			g.members[i].sess = sess
			idle = append(idle, i)
		}
		// busy: queued, its session's worker applies it in turn
	}
	g.runIdle(idle, lines)
}

// lineOf is member i's line (none when the steps are read from the
// marshal data: groupRun.doc).
func lineOf(lines [][]byte, i int) []byte {
	if lines == nil {
		return nil
	}
	return lines[i]
}

// maxDocDepth bounds the nesting of a step read from steps_marshal as it
// is (groupDoc): a step's is 5 at most (a particle count in a substance
// in a record in objects in the step).
const maxDocDepth = 32

// groupDoc reads steps_marshal for the members to read their steps from
// as they are (episode.MarshalStep), when the params are the common
// case: the steps a list of one dict per member, with numbers or not,
// no poses. It returns nil for any other params, or any marshal data
// the JSON path refuses, which groupLines then reads as before (with
// the same errors). release gives back the data's budget.
func (s *server) groupDoc(p *groupStepParams) (_ *pymarshal.Doc, release func()) {
	release = func() {}
	n := len(p.Sessions)
	b64 := p.stepsB64
	if b64 == nil && p.StepsMarshal != nil {
		b64 = []byte(*p.StepsMarshal)
	}
	if b64 == nil || n == 0 || n > maxGroupSessions || len(bytes.TrimSpace(p.Steps)) > 0 || len(p.Names) > 0 ||
		p.Numbers != nil && len(p.Numbers) != n || !absent(p.Pos) || !absent(p.Quat) || !absent(p.AABB) {
		return nil, release
	}
	if _, twice := repeated(p.Sessions); twice {
		return nil, release
	}
	// The members read the data when they are applied, some perhaps
	// after the reader has gone on (queued behind their session's
	// requests): it is the request's own, held against --max-queued.
	size := base64.StdEncoding.DecodedLen(len(b64))
	if !s.held.take(size) {
		return nil, release
	}
	raw, err := base64.StdEncoding.AppendDecode(make([]byte, 0, size), b64)
	var doc *pymarshal.Doc
	if err == nil {
		doc, err = pymarshal.Scan(raw, pymarshal.LimitsFor(len(raw), s.maxLine), n)
	}
	if err != nil || len(doc.Items) != n {
		s.held.give(size)
		return nil, release
	}
	for _, it := range doc.Items {
		if it.Kind != '{' || it.Depth > maxDocDepth {
			s.held.give(size)
			return nil, release
		}
	}
	return doc, func() { s.held.give(size) }
}

// absent reports whether an optional JSON field was left out (or null).
func absent(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) == 0 || bytes.Equal(t, []byte("null"))
}

// groupLines builds each member's step line from the params, or reports
// why the request is malformed (nothing is applied then). The lines may
// be parts of the JSON read from steps_marshal, held against
// --max-queued until release is called (always, error or not).
// scratch holds the marshalled steps while they are read (reused).
func groupLines(p *groupStepParams, unmarshal func([]byte) ([]byte, func(), *serveError), scratch *[]byte) (lines [][]byte, release func(), _ *serveError) {
	release = func() {}
	n := len(p.Sessions)
	if n == 0 {
		return nil, release, errorf(codeInvalidParams, "params: sessions: at least one session")
	}
	if n > maxGroupSessions {
		return nil, release, errorf(codeInvalidParams, "params: sessions: %d, at most %d in one group.step", n, maxGroupSessions)
	}
	if sid, twice := repeated(p.Sessions); twice {
		return nil, release, errorf(codeInvalidParams, "params: sessions: %q given twice (one step per session per request)", sid)
	}
	var steps [][]byte
	raw := bytes.TrimSpace(p.Steps)
	if p.StepsMarshal != nil || p.stepsB64 != nil {
		if len(raw) > 0 {
			return nil, release, errorf(codeInvalidParams, "params: steps and steps_marshal: give one")
		}
		b64 := p.stepsB64
		if b64 == nil {
			b64 = []byte(*p.StepsMarshal)
		}
		m, err := base64.StdEncoding.AppendDecode((*scratch)[:0], b64)
		if err != nil {
			return nil, release, errorf(codeInvalidParams, "params: steps_marshal: not base64 (%v)", err)
		}
		*scratch = m
		var serr *serveError
		raw, release, serr = unmarshal(m)
		if serr != nil {
			return nil, release, serr
		}
	}
	if len(raw) > 0 && !bytes.Equal(raw, []byte("null")) {
		var ok bool
		if steps, ok = splitArray(raw); !ok {
			return nil, release, errorf(codeInvalidParams, "params: steps: an array of step objects")
		}
		if len(steps) != n {
			return nil, release, errorf(codeInvalidParams, "params: steps: %d, one per session (%d)", len(steps), n)
		}
	}
	if p.Numbers != nil && len(p.Numbers) != n {
		return nil, release, errorf(codeInvalidParams, "params: numbers: %d, one per session (%d)", len(p.Numbers), n)
	}
	poses := []struct {
		field string
		raw   json.RawMessage
		vals  [][]json.RawMessage
	}{{field: "pos", raw: p.Pos}, {field: "quat", raw: p.Quat}, {field: "aabb", raw: p.AABB}}
	anyPose := false
	for k := range poses {
		t := bytes.TrimSpace(poses[k].raw)
		if len(t) == 0 || bytes.Equal(t, []byte("null")) {
			continue
		}
		if len(p.Names) == 0 {
			return nil, release, errorf(codeInvalidParams, "params: %s needs names (the objects of its rows)", poses[k].field)
		}
		if err := json.Unmarshal(t, &poses[k].vals); err != nil {
			return nil, release, errorf(codeInvalidParams, "params: %s: an array [session][object][value]: %v", poses[k].field, err)
		}
		if len(poses[k].vals) != n {
			return nil, release, errorf(codeInvalidParams, "params: %s: %d rows, one per session (%d)", poses[k].field, len(poses[k].vals), n)
		}
		for i, row := range poses[k].vals {
			if len(row) != len(p.Names) {
				return nil, release, errorf(codeInvalidParams, "params: %s[%d]: %d values, one per name (%d)", poses[k].field, i, len(row), len(p.Names))
			}
		}
		anyPose = true
	}
	if len(p.Names) > 0 && !anyPose {
		return nil, release, errorf(codeInvalidParams, "params: names without pos, quat or aabb")
	}
	if steps == nil && p.Numbers == nil && !anyPose {
		return nil, release, errorf(codeInvalidParams, "params: steps (one per session), or numbers with pos, quat or aabb")
	}
	names := make([][]byte, len(p.Names))
	for k, name := range p.Names {
		names[k], _ = json.Marshal(name)
	}
	lines = make([][]byte, n)
	for i := range lines {
		var body []byte
		if steps != nil {
			st := steps[i]
			if p.Numbers == nil && !anyPose && len(st) > 0 && st[0] == '{' {
				lines[i] = st // the member's step as it came, nothing to add
				continue
			}
			if len(st) == 0 || st[0] != '{' {
				if !bytes.Equal(st, []byte("null")) {
					return nil, release, errorf(codeInvalidParams, "params: steps[%d]: a JSON object as a line of the episode format", i)
				}
				st = nil
			}
			if len(st) > 0 {
				body = bytes.TrimSpace(st[1 : len(st)-1])
			}
		}
		b := make([]byte, 0, 64+len(body)+64*len(names))
		b = append(b, '{')
		sep := false
		if p.Numbers != nil {
			b = strconv.AppendInt(append(b, `"step":`...), p.Numbers[i], 10)
			sep = true
		}
		if anyPose {
			if sep {
				b = append(b, ',')
			}
			b = append(b, `"objects":{`...)
			for k, name := range names {
				if k > 0 {
					b = append(b, ',')
				}
				b = append(append(b, name...), ":{"...)
				first := true
				for _, pose := range poses {
					if pose.vals == nil {
						continue
					}
					if !first {
						b = append(b, ',')
					}
					first = false
					b = append(append(append(append(b, '"'), pose.field...), `":`...), pose.vals[i][k]...)
				}
				b = append(b, '}')
			}
			b = append(b, '}')
			sep = true
		}
		if len(body) > 0 {
			if sep {
				b = append(b, ',')
			}
			b = append(b, body...)
		}
		lines[i] = append(b, '}')
	}
	return lines, release, nil
}

// repeated returns an id given twice; a few are compared pairwise (a
// map costs more than the comparisons of a group of 16).
func repeated(ids []string) (string, bool) {
	if len(ids) <= 32 {
		for i := 1; i < len(ids); i++ {
			for _, prev := range ids[:i] {
				if prev == ids[i] {
					return prev, true
				}
			}
		}
		return "", false
	}
	seen := make(map[string]bool, len(ids))
	for _, sid := range ids {
		if seen[sid] {
			return sid, true
		}
		seen[sid] = true
	}
	return "", false
}

// lookupAll puts the sessions named in ids (nil where none) into out,
// under one lock for the whole group.
func (st *serveState) lookupAll(ids []string, out []*serveSession) []*serveSession {
	st.mu.Lock()
	defer st.mu.Unlock()
	for i, sid := range ids {
		out[i] = st.sessions[sid]
	}
	return out
}

// claim takes member i's session (sess, looked up by lookupAll; nil: no
// session is named sid): busy when it has requests queued, in which case
// the member's step is queued behind them; else the caller (the reader)
// may apply it itself, to the session returned. Called by the reader
// only. A session closed since lookupAll found it says so here, as one
// closed before.
func (st *serveState) claim(sess *serveSession, sid string, g *groupRun, i int, line []byte) (_ *serveSession, busy bool, _ *serveError) {
	if sess == nil {
		return nil, false, errorf(codeUnknownSession, "unknown session %q (never opened, or closed)", sid)
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.closed {
		return nil, false, errorf(codeUnknownSession, "unknown session %q (closed)", sid)
	}
	if !sess.working {
		return sess, false, nil
	}
	// Its worker is running the requests queued before this one: the
	// step goes behind them (serveState.enqueueID).
	sess.queue = append(sess.queue, func() { g.apply(i, line) })
	return nil, true, nil
}

// groupRun is one group.step in progress.
type groupRun struct {
	s       *server
	id      json.RawMessage
	p       *groupStepParams
	members []groupMember
	left    atomic.Int64 // members not yet done
	release func()       // gives back the lines' budget (groupLines, groupDoc)
	// doc, when set, holds the members' steps (groupDoc): member i's is
	// its item i, the lines nil.
	doc *pymarshal.Doc
}

// runIdle applies the idle members' steps: on the reader alone when they
// are few or so are the processors (groupProcessors), else spread over
// helpers that take members one at a time with the reader (a helper slow
// to start costs nothing: the reader takes what is left).
func (g *groupRun) runIdle(idle []int, lines [][]byte) {
	workers := g.s.groupProcs
	if len(idle) < groupParallelMin || workers < 2 {
		for _, i := range idle {
			g.apply(i, lineOf(lines, i))
		}
		return
	}
	if workers > len(idle)/4 {
		workers = len(idle) / 4
	}
	var next atomic.Int64
	work := func() {
		for {
			k := int(next.Add(1) - 1)
			if k >= len(idle) {
				return
			}
			g.apply(idle[k], lineOf(lines, idle[k]))
		}
	}
	var wg sync.WaitGroup
	for w := 1; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			work()
		}()
	}
	work()
	wg.Wait()
}

// apply feeds member i its line and keeps its result; the last member
// done answers.
func (g *groupRun) apply(i int, line []byte) {
	m := &g.members[i]
	func() {
		defer func() {
			if p := recover(); p != nil {
				m.done, m.record = false, nil
				m.err = errorf(codeInternal, "internal error (a bug, please report it): %v", p)
			}
		}()
		sess := m.sess
		if sess == nil {
			var e *serveError
			if sess, e = g.s.state.lookup(g.p.Sessions[i]); e != nil {
				m.err = e
				return
			}
		}
		var e *serveError
		if g.doc != nil {
			step := episode.MarshalStep{Doc: g.doc, Item: i}
			if g.p.Numbers != nil {
				step.Number, step.HasNumber = g.p.Numbers[i], true
			}
			e = sess.feedMarshal(&step)
		} else {
			e = sess.feed(line)
		}
		if e != nil {
			m.err = e
			return
		}
		if !g.p.Records {
			// The columns alone: read without building the record.
			if m.out, m.done = sess.stepper.Outcome(); m.done {
				return
			}
		}
		r := sess.result(g.p.Explain)
		m.out = episode.Outcome{Success: r.Success, Goal: r.GoalAtEnd, Score: r.Score, ChallengeScore: r.ChallengeScore, Step: r.EpisodeStep}
		m.done = true
		if g.p.Records {
			m.record, m.err = record(r)
		}
	}()
	g.done()
}

// done counts one member finished; the last one answers.
func (g *groupRun) done() {
	if g.left.Add(-1) != 0 {
		return
	}
	defer g.s.running.Done()
	g.release()
	if g.p.Records {
		g.s.respond(g.id, json.RawMessage(g.columns(nil)), nil)
		return
	}
	// The columns are written into the response line itself, as respond
	// would assemble it from them.
	line := append(append(make([]byte, 0, 64+len(g.id)+len(g.members)*48), `{"id":`...), g.id...)
	line = append(line, `,"result":`...)
	start := len(line)
	if line = g.columns(line); len(line)-start > g.s.maxResponse {
		g.s.respond(g.id, nil, g.s.tooLarge(len(line)-start))
		return
	}
	g.s.emit(append(line, "}\n"...))
}

// columns appends the result to dst: one array per field, a value per
// member (a failed member: false, "unknown", 0, 0, -1 and its error).
func (g *groupRun) columns(dst []byte) []byte {
	if dst == nil {
		dst = make([]byte, 0, 64+len(g.members)*48)
	}
	// One plain loop a column (closures per value cost a tenth of a
	// group step of 16).
	b := append(dst, `{"success":[`...)
	for i := range g.members {
		m := &g.members[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendBool(b, m.ok() && m.out.Success)
	}
	b = append(b, `],"goal":[`...)
	for i := range g.members {
		m := &g.members[i]
		if i > 0 {
			b = append(b, ',')
		}
		goal := "unknown"
		if m.ok() {
			goal = m.out.Goal.String() // true, false or unknown: no escapes
		}
		b = append(append(append(b, '"'), goal...), '"')
	}
	w := recordWriter{b: append(b, `],"score":[`...), ok: true}
	for i := range g.members {
		if i > 0 {
			w.raw(",")
		}
		w.float("", g.members[i].score(false))
	}
	w.raw(`],"challenge_score":[`)
	for i := range g.members {
		if i > 0 {
			w.raw(",")
		}
		w.float("", g.members[i].score(true))
	}
	b = append(w.b, `],"step":[`...)
	for i := range g.members {
		m := &g.members[i]
		if i > 0 {
			b = append(b, ',')
		}
		step := int64(-1)
		if m.ok() {
			step = m.out.Step
		}
		b = strconv.AppendInt(b, step, 10)
	}
	b = append(b, `],"errors":[`...)
	for i := range g.members {
		m := &g.members[i]
		if i > 0 {
			b = append(b, ',')
		}
		if m.err == nil {
			b = append(b, "null"...)
			continue
		}
		e, err := json.Marshal(m.err)
		if err != nil {
			e = []byte(fmt.Sprintf(`{"code":%q,"message":"unprintable error"}`, codeInternal))
		}
		b = append(b, e...)
	}
	b = append(b, ']')
	if g.p.Records {
		b = append(b, `,"records":[`...)
		for i := range g.members {
			m := &g.members[i]
			if i > 0 {
				b = append(b, ',')
			}
			if m.err != nil || m.record == nil {
				b = append(b, "null"...)
			} else {
				b = append(b, m.record...)
			}
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// ok reports whether the member's step applied.
func (m *groupMember) ok() bool { return m.done && m.err == nil }

// score is the member's score (challenge: its challenge score) as its
// column holds it: 0 for a member that failed, and for a value JSON
// cannot hold (scores never are).
func (m *groupMember) score(challenge bool) float64 {
	if !m.ok() {
		return 0
	}
	v := m.out.Score
	if challenge {
		v = m.out.ChallengeScore
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// decodeWhole is decodeParams that also refuses anything after the
// params object (the reader took the object out of the request line).
func decodeWhole(raw json.RawMessage, v any) *serveError {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errorf(codeInvalidParams, "params: %v", err)
	}
	if len(bytes.TrimSpace(raw[dec.InputOffset():])) > 0 {
		return errorf(codeInvalidParams, "params: more after the params object")
	}
	return nil
}

// splitArray returns the elements of a JSON array already validated (by
// the params' decoding), each trimmed, without decoding them; ok is false
// when b is not an array.
func splitArray(b []byte) (elems [][]byte, ok bool) {
	b = bytes.TrimSpace(b)
	if len(b) < 2 || b[0] != '[' {
		return nil, false
	}
	depth, start := 0, 1
	for i := 1; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = stringEnd(b, i)
		case '{', '[':
			depth++
		case '}', ']':
			if depth > 0 {
				depth--
				continue
			}
			if e := bytes.TrimSpace(b[start:i]); len(e) > 0 || len(elems) > 0 {
				elems = append(elems, e)
			}
			return elems, b[i] == ']' && i == len(b)-1
		case ',':
			if depth == 0 {
				elems = append(elems, bytes.TrimSpace(b[start:i]))
				start = i + 1
			}
		}
	}
	return nil, false
}
