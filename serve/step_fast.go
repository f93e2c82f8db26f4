package serve

import (
	"bytes"
	"encoding/json"
)

// dispatchStep starts a session.step request written as openbddl writes
// it, without decoding its envelope twice (json.Unmarshal of the request,
// then the strict decoding of its params: a third of the server's time
// per step): {"id":ID,"method":"session.step","params":{"session":"S",
// ["explain":B,]"step":{...}}} with nothing else, no spaces, no escapes
// in S, and the line valid JSON. Such a line decodes to the same request
// on the generic path, so the answer is the same; any other line returns
// false and takes the generic path, which reports its errors.
func (s *server) dispatchStep(line []byte) bool {
	if _, ok := s.methods["session.step"]; !ok {
		return false
	}
	id, sid, explain, step, ok := parseStepFast(line)
	if !ok {
		return false
	}
	// The reader's buffer is reused when the step waits in the queue.
	id = append(json.RawMessage(nil), id...)
	held := len(step)
	if !s.held.take(held) {
		s.respond(id, nil, s.overloaded(held))
		return true
	}
	step = append([]byte(nil), step...)
	run := func() {
		defer s.running.Done()
		defer s.held.give(held)
		res, err := s.call(func(s *server, _ json.RawMessage) (any, *serveError) {
			return sessionStep(s, sid, explain, step)
		}, nil)
		s.respond(id, res, err)
	}
	s.running.Add(1)
	if !s.state.enqueueID(sid, run, func(e *serveError) { s.held.give(held); s.respond(id, nil, e) }, len(step) <= inlineMaxStep) {
		s.running.Done()
	}
	return true
}

// parseStepFast recognises the session.step layout dispatchStep takes.
func parseStepFast(line []byte) (id json.RawMessage, session string, explain bool, step []byte, ok bool) {
	rest, ok := bytes.CutPrefix(line, []byte(`{"id":`))
	if !ok {
		return nil, "", false, nil, false
	}
	if id = idPrefix(line); id == nil {
		return nil, "", false, nil, false
	}
	if rest, ok = bytes.CutPrefix(rest, id); !ok {
		return nil, "", false, nil, false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"method":"session.step","params":{"session":"`)); !ok {
		return nil, "", false, nil, false
	}
	end := bytes.IndexByte(rest, '"')
	if end <= 0 {
		return nil, "", false, nil, false
	}
	for _, c := range rest[:end] {
		if c < 0x20 || c == '\\' || c >= 0x80 { // a plain id, as the server names sessions
			return nil, "", false, nil, false
		}
	}
	session = string(rest[:end])
	rest = rest[end+1:]
	if r, ok := bytes.CutPrefix(rest, []byte(`,"explain":true`)); ok {
		rest, explain = r, true
	} else if r, ok := bytes.CutPrefix(rest, []byte(`,"explain":false`)); ok {
		rest = r
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"step":`)); !ok {
		return nil, "", false, nil, false
	}
	// The step is an object, then the two braces that close params and
	// the request, and nothing else.
	if step, ok = bytes.CutSuffix(rest, []byte(`}}`)); !ok || len(step) < 2 || step[0] != '{' ||
		objectEnd(step) != len(step) || !json.Valid(line) {
		return nil, "", false, nil, false
	}
	return id, session, explain, step, true
}

// stringEnd is the index of the quote closing the JSON string whose
// opening quote is b[i], escapes skipped (len(b) when it does not close).
func stringEnd(b []byte, i int) int {
	for i++; i < len(b) && b[i] != '"'; i++ {
		if b[i] == '\\' {
			i++
		}
	}
	return i
}

// objectEnd returns the length of the JSON object b starts with (b[0]
// is '{'), strings and escapes skipped; -1 when it does not close. It
// finds the extent only: json.Valid checks the rest.
func objectEnd(b []byte) int {
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '"':
			i = stringEnd(b, i)
		case '{', '[':
			depth++
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}
