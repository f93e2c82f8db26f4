package serve

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const exampleActivity = "tidying_the_living_room"

// openSession opens a session and returns its id.
func openSession(t testing.TB, c *serveClient, params map[string]any) string {
	t.Helper()
	var r struct{ Session string }
	if err := json.Unmarshal(c.ok("session.open", params), &r); err != nil || r.Session == "" {
		t.Fatalf("session.open: %s (%v)", r.Session, err)
	}
	return r.Session
}

func TestServeHandshake(t *testing.T) {
	t.Parallel()
	c := startServe(t, DefaultMaxLine, "")
	if c.hand.Protocol != serveProtocol || c.hand.Version == "" || len(c.hand.Methods) != len(serveMethods) {
		t.Errorf("handshake = %+v", c.hand)
	}
	c.finish()
}

// TestServeErrors sends every kind of bad request; each gets an error
// response with its code, and the server goes on answering.
func TestServeErrors(t *testing.T) {
	t.Parallel()
	c := startServe(t, 4096, "")
	sid := openSession(t, c, map[string]any{"activity": exampleActivity})
	tests := []struct {
		name, line, code string
		id               string // the id the response carries
	}{
		{"malformed JSON", `{"id": 1, "method": `, codeParse, "1"},
		{"malformed JSON, id unreadable", `{"method": "x", "id": 1, `, codeParse, "null"},
		{"NaN in a step", `{"id": "n", "method": "session.step", "params": {"session": "s1", "step": {"step": NaN}}}`, codeParse, `"n"`},
		{"not an object", `[1, 2]`, codeParse, "null"},
		{"bad id", `{"id": {"a": 1}, "method": "explain"}`, codeInvalidRequest, "null"},
		{"no method", `{"id": 2}`, codeInvalidRequest, "2"},
		{"unknown method", `{"id": 3, "method": "frobnicate"}`, codeUnknownMethod, "3"},
		{"unknown param", `{"id": 4, "method": "explain", "params": {"activty": "x"}}`, codeInvalidParams, "4"},
		{"mistyped param", `{"id": 5, "method": "sample", "params": {"activity": "x", "n": "two"}}`, codeInvalidParams, "5"},
		{"unknown session", `{"id": 6, "method": "session.step", "params": {"session": "s999", "step": {"step": 0}}}`, codeUnknownSession, "6"},
		{"no session", `{"id": 7, "method": "session.step", "params": {"step": {"step": 0}}}`, codeInvalidParams, "7"},
		{"unknown activity", `{"id": 8, "method": "session.open", "params": {"activity": "no_such_activity"}}`, codeNotFound, "8"},
		{"oversized line", `{"id": 9, "method": "explain", "params": {"text": "` + strings.Repeat("x", 10000) + `"}}`, codeLineTooLong, "9"},
		{"oversized line past the read buffer", `{"id": 19, "method": "explain", "params": {"text": "` + strings.Repeat("x", 200000) + `"}}`, codeLineTooLong, "19"},
		{"oversized line without id", `{"method": "explain", "params": {"text": "` + strings.Repeat("x", 10000) + `"}}`, codeLineTooLong, "null"},
		{"step not an object", `{"id": "ten", "method": "session.step", "params": {"session": "` + sid + `", "step": [1]}}`, codeInvalidParams, `"ten"`},
		{"unknown synset", `{"id": 11, "method": "kb.show", "params": {"synsets": ["aple.n.01"]}}`, codeNotFound, "11"},
		{"missing file", `{"id": 12, "method": "validate", "params": {"path": "/no/such/file.bddl"}}`, codeNotFound, "12"},
		{"check without episode", `{"id": 13, "method": "check", "params": {}}`, codeInvalidParams, "13"},
		{"bad header", `{"id": 14, "method": "session.open", "params": {"activity": "` + exampleActivity + `", "header": {"bddl_episode": 2}}}`, codeInvalidParams, "14"},
	}
	for _, tc := range tests {
		c.send(tc.line)
		r := c.recv()
		if r.Error == nil || r.Error.Code != tc.code || string(r.ID) != tc.id {
			t.Errorf("%s: got id %s error %+v, want id %s code %s", tc.name, r.ID, r.Error, tc.id, tc.code)
		}
		// The server goes on.
		if res := c.call("explain", map[string]any{"activity": exampleActivity}); res.Error != nil {
			t.Fatalf("after %s: explain fails: %+v", tc.name, res.Error)
		}
	}
	c.finish()
}

// TestServePanicRecovered checks that a request that panics gets an
// internal error and the server lives on.
func TestServePanicRecovered(t *testing.T) {
	serveMethods["test.panic"] = func(*server, json.RawMessage) (any, *serveError) { panic("boom") }
	defer delete(serveMethods, "test.panic")
	c := startServe(t, DefaultMaxLine, "")
	r := c.call("test.panic", nil)
	if r.Error == nil || r.Error.Code != codeInternal || !strings.Contains(r.Error.Message, "boom") {
		t.Errorf("panic: got %+v", r.Error)
	}
	c.ok("explain", map[string]any{"activity": exampleActivity})
	c.stderr.Reset() // the panic is logged, as it should be
	c.finish()
}

// TestServeEOF: the input ending mid-request answers the partial line
// with an error and ends cleanly after the requests in flight.
func TestServeEOF(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, tail string
		code       string
	}{
		{"partial line", `{"id": 1, "method": "expl`, codeParse},
		{"complete line without newline", `{"id": 1, "method": "explain", "params": {"activity": "` + exampleActivity + `"}}`, ""},
	} {
		c := startServe(t, DefaultMaxLine, "")
		sid := openSession(t, c, map[string]any{"activity": exampleActivity})
		id := c.request("session.step", map[string]any{"session": sid, "step": map[string]any{"step": 0}})
		if _, err := io.WriteString(c.in, tc.tail); err != nil {
			t.Fatal(err)
		}
		c.in.Close()
		got := map[string]serveReply{}
		for c.out.Scan() {
			var r serveReply
			if err := json.Unmarshal(c.out.Bytes(), &r); err != nil {
				t.Fatal(err)
			}
			got[string(r.ID)] = r
		}
		if r, ok := got[id]; !ok || r.Error != nil {
			t.Errorf("%s: the step in flight was not answered: %+v", tc.name, r)
		}
		last, ok := got["1"] // the id of a partial line is read from its start
		switch {
		case !ok:
			t.Errorf("%s: the last line got no response (%d responses)", tc.name, len(got))
		case tc.code == "" && last.Error != nil, tc.code != "" && (last.Error == nil || last.Error.Code != tc.code):
			t.Errorf("%s: last response %+v, want code %q", tc.name, last.Error, tc.code)
		}
		if err := <-c.done; err != nil {
			t.Errorf("%s: serve returned %v", tc.name, err)
		}
	}
}

// TestServeConcurrentSessions pipelines the steps of several sessions
// without waiting, interleaved: each session's results must be those of
// the same steps sent one at a time.
func TestServeConcurrentSessions(t *testing.T) {
	t.Parallel()
	eps, _ := filepath.Glob("../activities/examples/*/episodes/*.jsonl")
	c := startServe(t, DefaultMaxLine, "")
	type run struct {
		sid   string
		steps [][]byte
		want  []map[string]any
		ids   []string
	}
	var runs []*run
	for _, ep := range eps {
		lines := episodeLines(t, ep)
		r := &run{steps: lines[1:]}
		// Sequential reference.
		sid := openSession(t, c, map[string]any{"header": json.RawMessage(lines[0])})
		for _, st := range r.steps {
			r.want = append(r.want, comparable(t, c.ok("session.step", map[string]any{"session": sid, "step": json.RawMessage(st)})))
		}
		r.sid = openSession(t, c, map[string]any{"header": json.RawMessage(lines[0])})
		runs = append(runs, r)
	}
	// Interleaved, all in flight.
	for k := 0; ; k++ {
		sent := false
		for _, r := range runs {
			if k < len(r.steps) {
				r.ids = append(r.ids, c.request("session.step", map[string]any{"session": r.sid, "step": json.RawMessage(r.steps[k])}))
				sent = true
			}
		}
		if !sent {
			break
		}
	}
	for _, r := range runs {
		for k, id := range r.ids {
			got := c.wait(id)
			if got.Error != nil {
				t.Fatalf("step %d: %+v", k, got.Error)
			}
			if diff := cmp.Diff(r.want[k], comparable(t, got.Result)); diff != "" {
				t.Errorf("session %s step %d differs when interleaved:\n%s", r.sid, k, diff)
			}
		}
	}
	c.finish()
}

// TestServeConcurrentClients has several goroutines use one server at
// once, as threads of one Python process do.
func TestServeConcurrentClients(t *testing.T) {
	t.Parallel()
	c := startServe(t, DefaultMaxLine, "")
	var mu sync.Mutex // serveClient is not itself safe for concurrent use
	call := func(method string, params any) serveReply {
		mu.Lock()
		id := c.request(method, params)
		r := c.wait(id)
		mu.Unlock()
		return r
	}
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := call("session.open", map[string]any{"activity": exampleActivity})
			var o struct{ Session string }
			_ = json.Unmarshal(r.Result, &o)
			for k := 0; k < 20; k++ {
				if r := call("session.step", map[string]any{"session": o.Session, "step": map[string]any{"step": k}}); r.Error != nil {
					t.Errorf("step %d: %+v", k, r.Error)
				}
			}
			call("session.close", map[string]any{"session": o.Session})
		}()
	}
	wg.Wait()
	c.finish()
}

// TestServeDefinitionError: a definition that does not parse is a
// definition error with its position and findings.
func TestServeDefinitionError(t *testing.T) {
	t.Parallel()
	c := startServe(t, DefaultMaxLine, "")
	src := "(define (problem p-0)\n  (:domain omnigibson)\n  (:objects apple.n.01_1 - apple.n.01)\n  (:init (ontop apple.n.01_1)\n"
	for _, m := range []string{"session.open", "explain", "sample"} {
		params := map[string]any{"text": src, "name": "gen.bddl"}
		if m == "session.open" {
			params = map[string]any{"definition": src, "name": "gen.bddl"}
		}
		r := c.call(m, params)
		if r.Error == nil || r.Error.Code != codeDefinition || r.Error.File != "gen.bddl" || r.Error.Line == 0 || r.Error.Column == 0 || len(r.Error.Findings) == 0 {
			t.Errorf("%s: %+v", m, r.Error)
		}
	}
	c.finish()
}

// BenchmarkServe measures the server alone: session.step requests of the
// median-size example activity through the protocol (decode, step,
// result, encode), pipelined 64 deep.
func BenchmarkServe(b *testing.B) {
	for _, explain := range []bool{true, false} {
		b.Run(fmt.Sprintf("explain=%v", explain), func(b *testing.B) {
			c := startServe(b, DefaultMaxLine, "")
			sid := openSession(b, c, map[string]any{"activity": exampleActivity})
			step := 0
			line := func() string {
				step++
				return fmt.Sprintf(`{"id":%d,"method":"session.step","params":{"session":%q,"explain":%v,"step":{"step":%d,"facts":[["ontop","mug.n.04_1","sink.n.01_1"]]}}}`, step, sid, explain, step)
			}
			const depth = 64
			b.ReportAllocs()
			inflight := 0
			for b.Loop() {
				if inflight == depth {
					c.recv()
					inflight--
				}
				c.send(line())
				inflight++
			}
			for ; inflight > 0; inflight-- {
				c.recv()
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "requests/s")
			c.finish()
		})
	}
}

// BenchmarkServeRun measures session.run of a 10,000-step episode in
// openbddl's layout, through the protocol in process (the request
// written, the response read and decoded), per step: without the goals
// column and with it (what python/bench/reference_speed.py asks for).
func BenchmarkServeRun(b *testing.B) {
	var steps []string
	for k := 0; k < 10000; k++ {
		steps = append(steps, fmt.Sprintf(`{"step":%d,"facts":[["ontop","mug.n.04_1","sink.n.01_1"]]}`, k))
	}
	arr := "[" + strings.Join(steps, ",") + "]"
	marshalled := base64.StdEncoding.EncodeToString(pyMarshal(b, arr))
	for _, enc := range []string{"json", "marshal"} {
		for _, goals := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/goals=%v", enc, goals), func(b *testing.B) {
				c := startServe(b, DefaultMaxLine, "")
				field := `,"steps":` + arr
				if enc == "marshal" {
					field = `,"steps_marshal":"` + marshalled + `"`
				}
				b.ReportAllocs()
				for b.Loop() {
					sid := openSession(b, c, map[string]any{"activity": exampleActivity})
					c.send(`{"id":"run","method":"session.run","params":{"session":"` + sid + `","goals":` +
						strconv.FormatBool(goals) + field + `}}`)
					if r := c.wait(`"run"`); r.Error != nil {
						b.Fatal(r.Error)
					}
				}
				b.ReportMetric(float64(b.N*len(steps))/b.Elapsed().Seconds(), "steps/s")
				c.finish()
			})
		}
	}
}

// TestServeMatchesSchema checks a transcript of every method, and of
// errors, against bddl schema serve.
func TestServeMatchesSchema(t *testing.T) {
	t.Parallel()
	s := compileSchema(t, "serve")
	c := startServe(t, 4096, "")
	check := func(what string, line []byte) {
		t.Helper()
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(line))
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if err := s.Validate(v); err != nil {
			t.Errorf("%s does not match the serve schema: %v\n%.300s", what, err, line)
		}
	}
	hand, _ := json.Marshal(c.hand)
	check("handshake", hand)
	ep := "../activities/examples/cleaning_shoes/episodes/success.jsonl"
	lines := episodeLines(t, ep)
	requests := []map[string]any{
		{"method": "validate", "params": map[string]any{"activity": exampleActivity}},
		{"method": "explain", "params": map[string]any{"activity": exampleActivity}},
		{"method": "kb.show", "params": map[string]any{"synsets": []string{"apple.n.01"}}},
		{"method": "check", "params": map[string]any{"episode": ep, "hold": 2}},
		{"method": "sample", "params": map[string]any{"activity": exampleActivity, "seed": 1}},
		{"method": "session.open", "params": map[string]any{"header": json.RawMessage(lines[0]), "transitions": true}},
		{"method": "session.init", "params": map[string]any{"session": "s1", "step": json.RawMessage(lines[1])}},
		{"method": "session.step", "params": map[string]any{"session": "s1", "step": json.RawMessage(lines[2])}},
		{"method": "session.run", "params": map[string]any{"session": "s1", "steps": []json.RawMessage{lines[3]}, "goals": true}},
		{"method": "session.run", "params": map[string]any{"session": "s1", "chain": "c1",
			"steps_marshal": base64.StdEncoding.EncodeToString(pyMarshal(t, "["+string(lines[4])+"]"))}},
		{"method": "session.close", "params": map[string]any{"session": "s1"}},
		{"method": "session.close", "params": map[string]any{"session": "s1"}},
		{"method": "nope"},
	}
	for i, req := range requests {
		req["id"] = i
		b, _ := json.Marshal(req)
		if req["method"] != "nope" { // not a valid request: its error response is checked
			check(fmt.Sprintf("request %v", req["method"]), b)
		}
		c.send(string(b))
		check(fmt.Sprintf("response to %v", req["method"]), c.recv().raw)
	}
	c.send("not json")
	check("parse error", c.recv().raw)
	c.finish()
}
