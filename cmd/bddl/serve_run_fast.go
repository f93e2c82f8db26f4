package main

import (
	"bytes"
	"encoding/json"
)

// dispatchRun starts a session.run request written as openbddl writes
// it, without decoding its envelope: {"id":ID,"method":"session.run",
// "params":{"session":"S",["explain":B,]"goals":B,"steps":[...]}} with
// nothing else, no spaces, no escapes in S. The generic path scans a
// run's whole line three times (json.Unmarshal of the request, the
// strict decoding of its params, the split), two thirds of a run's time
// before; here the steps are split once and each goes to the session's
// episode reader, which parses it strictly as bddl check parses a line.
// Any other line (or a steps array that does not split cleanly) returns
// false and takes the generic path, which reports its errors.
func (s *server) dispatchRun(line []byte) bool {
	if _, ok := s.methods["session.run"]; !ok ||
		!bytes.Contains(line[:min(len(line), 64)], []byte(`,"method":"session.run","params":{"session":"`)) {
		return false
	}
	line = append([]byte(nil), line...) // the reader's buffer is reused
	id, p, steps, ok := parseRunFast(line)
	if !ok {
		return false
	}
	run := func() {
		defer s.running.Done()
		res, err := s.call(func(s *server, _ json.RawMessage) (any, *serveError) { return runSteps(s, &p, steps) }, nil)
		s.respond(id, res, err)
	}
	s.running.Add(1)
	if !s.state.enqueueID(p.Session, run, func(e *serveError) { s.respond(id, nil, e) }, false) {
		s.running.Done()
	}
	return true
}

// parseRunFast recognises the session.run layout dispatchRun takes.
func parseRunFast(line []byte) (id json.RawMessage, p sessionRunParams, steps [][]byte, ok bool) {
	if id = idPrefix(line); id == nil {
		return nil, p, nil, false
	}
	rest, ok := bytes.CutPrefix(line, []byte(`{"id":`))
	if !ok {
		return nil, p, nil, false
	}
	if rest, ok = bytes.CutPrefix(rest, id); !ok {
		return nil, p, nil, false
	}
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"method":"session.run","params":{"session":"`)); !ok {
		return nil, p, nil, false
	}
	end := bytes.IndexByte(rest, '"')
	if end < 0 {
		return nil, p, nil, false
	}
	for _, c := range rest[:end] {
		if c < 0x20 || c == '\\' || c >= 0x80 { // a plain id, as the server names sessions
			return nil, p, nil, false
		}
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
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"steps":`)); !ok {
		return nil, p, nil, false
	}
	if rest, ok = bytes.CutSuffix(rest, []byte(`}}`)); !ok {
		return nil, p, nil, false
	}
	if steps, ok = splitSteps(rest); !ok {
		return nil, p, nil, false
	}
	return id, p, steps, true
}

// splitSteps splits an array of objects, not validated before, into its
// elements: each must be an object ({...} at depth 0, strings closed,
// brackets never below their opening) separated by single commas and
// spaces or tabs (openbddl joins JSON Lines text with commas); the
// elements are parsed by the episode reader. Anything else is not ok.
func splitSteps(t []byte) ([][]byte, bool) {
	if len(t) < 2 || t[0] != '[' || t[len(t)-1] != ']' {
		return nil, false
	}
	body := t[1 : len(t)-1]
	out := make([][]byte, 0, bytes.Count(body, []byte(`{"`))/2+1)
	depth, start, inString := 0, -1, false
	for i := 0; i < len(body); i++ {
		c := body[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			if depth == 0 {
				return nil, false
			}
			inString = true
		case '{', '[':
			if depth == 0 {
				if c != '{' || start >= 0 {
					return nil, false
				}
				start = i
			}
			depth++
		case '}', ']':
			depth--
			if depth < 0 {
				return nil, false
			}
			if depth == 0 {
				if c != '}' {
					return nil, false
				}
				out = append(out, body[start:i+1])
			}
		case ' ', '\t':
		case ',':
			if depth == 0 {
				if start < 0 || i+1 >= len(body) {
					return nil, false
				}
				start = -1
			}
		default:
			if depth == 0 {
				return nil, false // nothing but objects and commas between them
			}
		}
	}
	if inString || depth != 0 || (len(out) > 0 && start < 0) {
		return nil, false
	}
	return out, true
}
