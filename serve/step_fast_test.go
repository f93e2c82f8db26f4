package serve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
)

// TestServeStepFastPath: a session.step in openbddl's layout (taken by
// dispatchStep without decoding the envelope) answers exactly as the same
// request in another layout (the generic path), errors included, and a
// malformed request leaves the session as the generic path leaves it.
func TestServeStepFastPath(t *testing.T) {
	t.Parallel()
	c := startServe(t, DefaultMaxLine, "")
	lines := episodeLines(t, "../activities/examples/cleaning_shoes/episodes/success.jsonl")
	for i, tc := range []struct {
		params string // after "session":S
		fast   bool   // taken by the fast path in openbddl's layout
	}{
		{`,"step":` + string(lines[1]), true},
		{`,"explain":true,"step":` + string(lines[1]), true},
		{`,"explain":false,"step":{"step":0}`, true},
		{`,"step":{"step":0,"facts":[["ontop","x\"}}","y"]]}`, true}, // braces in a string: an unknown object
		{`,"step":{"step":0,"facts":[["nosuch","shoe.n.01_1"]]}`, true},
		{`,"step":{"step":0,}`, false},
		{`,"step":{"step":0}},"x":1`, false},
		{`,"step":{"step":0},"x":1`, false},
		{`,"step":{"step":0}}}`, false},
		{`,"step":[1]`, false},
		{`,"step":{"step":0,"facts":"x\"}`, false},
		{`,"step":{"step":NaN}`, false},
		{`,"explain":1,"step":{"step":0}`, false},
	} {
		var recs [2]serveReply
		for k, layout := range []string{`{"id":"s%d","method":"session.step","params":{"session":%q%s}}`,
			`{"id": "s%d", "method":"session.step","params":{"session":%q%s}}`} {
			sid := openSession(t, c, map[string]any{"activity": "../activities/examples/cleaning_shoes/problem0.bddl", "header": json.RawMessage(lines[0])})
			line := fmt.Sprintf(layout, i, sid, tc.params)
			_, _, _, _, fast := parseStepFast([]byte(line))
			if fast != (k == 0 && tc.fast) {
				t.Errorf("case %d layout %d: parseStepFast ok = %v", i, k, fast)
			}
			c.send(line)
			recs[k] = c.wait(fmt.Sprintf(`"s%d"`, i))
			// What the session does next shows whether the request
			// stopped it.
			next := c.call("session.step", map[string]any{"session": sid, "step": json.RawMessage(`{"step":99}`)})
			recs[k].raw, _ = json.Marshal(map[string]any{"result": next.Result, "error": next.Error})
		}
		e0, e1 := recs[0].Error, recs[1].Error
		if (e0 == nil) != (e1 == nil) || (e0 != nil && (e0.Code != e1.Code || e0.Message != e1.Message)) {
			t.Errorf("case %d: errors differ: fast %+v, generic %+v", i, e0, e1)
		}
		if !bytes.Equal(recs[0].Result, recs[1].Result) || !bytes.Equal(recs[0].raw, recs[1].raw) {
			t.Errorf("case %d: fast path %s / %s\ngeneric %s / %s", i, recs[0].Result, recs[0].raw, recs[1].Result, recs[1].raw)
		}
	}
	c.finish()
}

// FuzzParseStepFast: a line parseStepFast takes decodes, on the generic
// path, to the same request: method session.step, the same id, session,
// explain and step.
func FuzzParseStepFast(f *testing.F) {
	for _, s := range []string{
		`{"id":1,"method":"session.step","params":{"session":"s1","step":{"step":0}}}`,
		`{"id":"a","method":"session.step","params":{"session":"s1","explain":true,"step":{"step":0,"facts":[["a","}"]]}}}`,
		`{"id":1,"method":"session.step","params":{"session":"s1","step":{"step":0}},"x":1}}`,
		`{"id":1,"method":"session.step","params":{"session":"s1","step":{"step":0}}}}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		id, sid, explain, step, ok := parseStepFast([]byte(line))
		if !ok {
			return
		}
		var req serveRequest
		if err := json.Unmarshal([]byte(line), &req); err != nil {
			t.Fatalf("parseStepFast took %q, which does not decode: %v", line, err)
		}
		var p sessionStepParams
		if e := decodeParams(req.Params, &p); e != nil {
			t.Fatalf("parseStepFast took %q, whose params do not decode: %v", line, e)
		}
		if req.Method != "session.step" || !bytes.Equal(req.ID, id) || p.Session != sid || p.Explain != explain ||
			!bytes.Equal(p.Step, step) {
			t.Fatalf("parseStepFast(%q) = %s %q %v %s; generic %s %q %q %v %s", line, id, sid, explain, step,
				req.ID, req.Method, p.Session, p.Explain, p.Step)
		}
	})
}
