package serve

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/openbddl/bddl/internal/pymarshal"
)

// dispatchRun starts a session.run request written as openbddl writes
// it, without decoding its envelope: {"id":ID,"method":"session.run",
// "params":{"session":"S",["explain":B,]"goals":B,"steps":[...]}} with
// nothing else, no spaces, no escapes in S. The generic path scans a
// run's whole line three times (json.Unmarshal of the request, the
// strict decoding of its params, the steps); here the envelope is
// matched as bytes and the steps array is read once, by walkSteps and
// the session's episode reader (Stepper.FeedPrefix), which parses each
// step strictly as bddl check parses a line and finds where it ends.
// Any other line returns false and takes the generic path.
func (s *server) dispatchRun(line []byte) bool {
	if _, ok := s.methods["session.run"]; !ok ||
		!bytes.Contains(line[:min(len(line), 64)], []byte(`,"method":"session.run","params":{"session":"`)) {
		return false
	}
	id, p, steps, marshalled, ok := parseRunFast(line)
	if !ok {
		return false
	}
	id = append(json.RawMessage(nil), id...)
	held := len(steps)
	if !s.held.take(held) {
		s.respond(id, nil, s.overloaded(held))
		return true
	}
	var decoded chan struct{}
	var serr *serveError
	release := func() {}
	if marshalled {
		// Decoded on a goroutine of its own, while the session applies
		// the request before it (a long run comes in parts) and the
		// reader goes on with the other sessions' requests.
		b64 := append([]byte(nil), steps...)
		decoded = make(chan struct{})
		go func() {
			defer close(decoded)
			raw, err := base64.StdEncoding.AppendDecode(make([]byte, 0, base64.StdEncoding.DecodedLen(len(b64))), b64)
			if err != nil {
				serr = errorf(codeInvalidParams, "params: steps_marshal: not base64 (%v)", err)
				return
			}
			b64 = nil
			steps, release, serr = s.unmarshalSteps(raw)
		}()
	} else {
		// The reader's buffer is reused: the request keeps a copy.
		steps = append([]byte(nil), steps...)
	}
	run := func() {
		defer s.running.Done()
		defer s.held.give(held)
		if decoded != nil {
			<-decoded
		}
		defer release()
		res, err := s.call(func(s *server, _ json.RawMessage) (any, *serveError) { return runChained(s, &p, steps, serr) }, nil)
		s.respond(id, res, err)
	}
	s.running.Add(1)
	if !s.state.enqueueID(p.Session, run, func(e *serveError) {
		if decoded != nil {
			<-decoded
		}
		release()
		s.held.give(held)
		s.respond(id, nil, e)
	}, false) {
		s.running.Done()
	}
	return true
}

// parseRunFast recognises the session.run layout dispatchRun takes; steps
// is the array, from its '[' to its ']', not looked into, or with
// marshalled the base64 text of steps_marshal.
func parseRunFast(line []byte) (id json.RawMessage, p sessionRunParams, steps []byte, marshalled, ok bool) {
	if id = idPrefix(line); id == nil {
		return nil, p, nil, false, false
	}
	rest, ok := bytes.CutPrefix(line, []byte(`{"id":`))
	if !ok {
		return nil, p, nil, false, false
	}
	if rest, ok = bytes.CutPrefix(rest, id); !ok {
		return nil, p, nil, false, false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"method":"session.run","params":{"session":"`)); !ok {
		return nil, p, nil, false, false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return nil, p, nil, false, false
	}
	if !plainID(rest[:end]) {
		return nil, p, nil, false, false
	}
	p.Session = string(rest[:end])
	rest = rest[end+1:]
	if r, ok := bytes.CutPrefix(rest, []byte(`,"explain":true`)); ok {
		rest, p.Explain = r, true
	} else if r, ok := bytes.CutPrefix(rest, []byte(`,"explain":false`)); ok {
		rest = r
	}
	if r, ok := bytes.CutPrefix(rest, []byte(`,"goals":true`)); ok {
		rest, p.Goals = r, true
	} else if r, ok := bytes.CutPrefix(rest, []byte(`,"goals":false`)); ok {
		rest = r
	}
	if r, ok := bytes.CutPrefix(rest, []byte(`,"chain":"`)); ok {
		end := bytes.IndexByte(r, '"')
		if end < 0 || !plainID(r[:end]) {
			return nil, p, nil, false, false
		}
		p.Chain, rest = string(r[:end]), r[end+1:]
	}
	if r, ok := bytes.CutPrefix(rest, []byte(`,"steps_marshal":"`)); ok {
		// A '"' or '\\' inside is not base64: its decoding fails and the
		// generic path reads the line.
		if r, ok = bytes.CutSuffix(r, []byte(`"}}`)); !ok {
			return nil, p, nil, false, false
		}
		return id, p, r, true, true
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"steps":`)); !ok {
		return nil, p, nil, false, false
	}
	if rest, ok = bytes.CutSuffix(rest, []byte(`}}`)); !ok {
		return nil, p, nil, false, false
	}
	if len(rest) < 2 || rest[0] != '[' || rest[len(rest)-1] != ']' {
		return nil, p, nil, false, false
	}
	return id, p, rest, false, true
}

// unmarshalSteps reads steps_marshal (Python's marshal, version 4) into
// the JSON array the steps field would hold, whole, before any step is
// applied: a value JSON cannot hold is unsupported_value and changes
// nothing, so the client can send the same steps as JSON. The JSON is
// held against the server's --max-queued until release is called; its
// expansion past the input is bounded (pymarshal.LimitsFor).
func (s *server) unmarshalSteps(raw []byte) (out []byte, release func(), serr *serveError) {
	release = func() {}
	lim := pymarshal.LimitsFor(len(raw), s.maxLine)
	// The most the JSON may take is held before it is written, the rest
	// given back after.
	if !s.held.take(lim.MaxOut) {
		return nil, release, s.overloaded(lim.MaxOut)
	}
	out, err := pymarshal.ToJSONLimits(make([]byte, 0, min(2*len(raw), lim.MaxOut)), raw, lim)
	if err != nil {
		out = nil
	}
	kept := len(out)
	s.held.give(lim.MaxOut - kept)
	release = func() { s.held.give(kept) }
	switch {
	case errors.Is(err, pymarshal.ErrUnsupported):
		return nil, release, errorf(codeUnsupportedValue, "params: steps_marshal: %v", err)
	case err != nil:
		return nil, release, errorf(codeInvalidParams, "params: steps_marshal: %v", err)
	case len(out) == 0 || out[0] != '[':
		return nil, release, errorf(codeInvalidParams, "params: steps_marshal: a list (or tuple) of step dicts")
	}
	return out, release, nil
}

// plainID reports whether a string's JSON text is the string itself (no
// escapes, control bytes or UTF-8 to check), as the server names sessions.
func plainID(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// runChained answers a session.run part: refused when its chain broke
// before it; else serr (from reading steps_marshal) or the run, either of
// whose errors breaks the chain.
func runChained(s *server, p *sessionRunParams, steps []byte, serr *serveError) (any, *serveError) {
	sess, lerr := s.state.lookup(p.Session)
	if lerr != nil {
		return nil, lerr
	}
	if p.Chain != "" && sess.broken.has(p.Chain) {
		return nil, errorf(codeChainBroken, "params: chain %q: a part before this one failed; none of this part's steps was applied", p.Chain)
	}
	var res any
	if serr == nil {
		res, serr = runArray(s, p, steps)
	}
	if serr != nil && p.Chain != "" {
		sess.broken.add(p.Chain)
	}
	return res, serr
}

// runArray feeds a session.run's steps (a JSON array, or null) to the
// session's episode reader and reports the record after the last, with
// goals the goal's truth after each: {"goals":[...],"result":{...},
// "steps":N}, assembled here (the goals column costs a byte copy a step,
// not a reflected MarshalText). A bad step, or an array that breaks
// before it, is an error with its index; the steps before it stay
// applied, as bddl check applies an episode's lines before a bad one.
func runArray(s *server, p *sessionRunParams, steps []byte) (any, *serveError) {
	sess, serr := s.state.lookup(p.Session)
	if serr != nil {
		return nil, serr
	}
	var goals []byte
	if p.Goals {
		goals = make([]byte, 0, 64+len(steps)/8)
		goals = append(goals, `{"goals":[`...)
	}
	n, serr := walkSteps(steps, func(_ int, rest []byte) (int, *serveError) {
		k, serr := sess.feedPrefix(rest)
		if serr == nil && p.Goals {
			if len(goals) > len(`{"goals":[`) {
				goals = append(goals, ',')
			}
			goals = append(append(append(goals, '"'), sess.stepper.Goal().String()...), '"')
		}
		return k, serr
	})
	if serr != nil {
		return nil, serr
	}
	rec, serr := record(sess.result(p.Explain))
	if serr != nil {
		return nil, serr
	}
	out := goals
	if p.Goals {
		out = append(out, `],"result":`...)
	} else {
		out = append(make([]byte, 0, len(rec)+32), `{"result":`...)
	}
	out = append(append(out, rec...), `,"steps":`...)
	out = append(strconv.AppendInt(out, int64(n), 10), '}')
	return json.RawMessage(out), nil
}

// feedPrefix gives the session the step object that begins rest and
// returns its length (episode.Stepper.FeedPrefix).
func (sess *serveSession) feedPrefix(rest []byte) (int, *serveError) {
	if rest[0] != '{' {
		return 0, errorf(codeInvalidParams, "step: a JSON object as a line of the episode format, e.g. {\"step\": 0}")
	}
	n, _, err := sess.stepper.FeedPrefix(rest)
	if err != nil {
		return 0, asServeError(err, codeBadStep)
	}
	return n, nil
}

// walkSteps walks a JSON array of objects (from its '[' to its ']', or
// null, or nothing: no elements) without splitting it first: feed is
// given each element's index and the bytes from the element's first
// byte to the array's end, and returns how many the element took (the
// episode reader parses the element, so the bytes are scanned once).
// Between elements only JSON whitespace and single commas may come; an
// array that breaks is an invalid_params error with the index of the
// element where it broke. It returns the number of elements.
func walkSteps(arr []byte, feed func(i int, rest []byte) (int, *serveError)) (int, *serveError) {
	arr = trimJSONSpace(arr)
	if len(arr) == 0 || string(arr) == "null" {
		return 0, nil
	}
	if len(arr) < 2 || arr[0] != '[' || arr[len(arr)-1] != ']' {
		return 0, errorf(codeInvalidParams, "params: steps: an array of step objects")
	}
	body := arr[1 : len(arr)-1]
	k := skipSpace(body, 0)
	i := 0
	for k < len(body) {
		if body[k] == ']' || body[k] == ',' {
			return i, stepsBroken(i, "expected a step object, found '"+string(body[k])+"'")
		}
		n, serr := feed(i, body[k:])
		if serr != nil {
			serr.Index = &i
			return i, serr
		}
		i++
		if k = skipSpace(body, k+n); k == len(body) {
			break
		}
		if body[k] != ',' {
			return i, stepsBroken(i-1, "expected ',' or the array's end after the step, found "+describeByte(body[k]))
		}
		if k = skipSpace(body, k+1); k == len(body) {
			return i, stepsBroken(i, "expected a step object after ',', found ']'")
		}
	}
	return i, nil
}

func stepsBroken(i int, msg string) *serveError {
	e := errorf(codeInvalidParams, "params: steps[%d]: %s", i, msg)
	e.Index = &i
	return e
}

// jsonSpace is JSON's whitespace (RFC 8259 §2); bytes.TrimSpace would also
// take a form feed or a vertical tab, which no JSON value may carry.
const jsonSpace = " \t\n\r"

func trimJSONSpace(b []byte) []byte { return bytes.Trim(b, jsonSpace) }

func skipSpace(b []byte, k int) int {
	for k < len(b) && (b[k] == ' ' || b[k] == '\t' || b[k] == '\n' || b[k] == '\r') {
		k++
	}
	return k
}

func describeByte(c byte) string {
	if c >= 0x20 && c < 0x7f {
		return "'" + string(c) + "'"
	}
	return fmt.Sprintf("byte 0x%02x", c)
}
