package serve

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"sync"
	"testing"
)

// TestServeIDs: an id is echoed only when every client reads it back as
// written; else the request is invalid_request, answered with a null id.
func TestServeIDs(t *testing.T) {
	t.Parallel()
	c := startServe(t, DefaultMaxLine, "")
	for _, id := range []string{`1`, `-3`, `1.5`, `"a"`, `"é"`, `"\u00e9"`} {
		c.send(`{"id":` + id + `,"method":"explain","params":{"activity":"` + exampleActivity + `"}}`)
		r := c.recv()
		if string(r.ID) != id || r.Error != nil {
			t.Errorf("id %s: echoed %s, error %+v", id, r.ID, r.Error)
		}
	}
	for _, id := range []string{`1e999`, `-1e400`, "\"\xff\xfe\"", `true`, `[1]`} {
		c.send(`{"id":` + id + `,"method":"explain","params":{}}`)
		r := c.recv()
		if string(r.ID) != "null" || r.Error == nil || r.Error.Code != codeInvalidRequest || !json.Valid(r.raw) {
			t.Errorf("id %q: %s", id, r.raw)
		}
	}
	c.finish()
}

// TestServeMaxSessions: past --max-sessions, session.open is refused with
// the limit's name; closing one makes room.
func TestServeMaxSessions(t *testing.T) {
	t.Parallel()
	c := startServeWith(t, DefaultMaxLine, "", func(s *server) { s.state.maxSessions = 2 })
	a := openSession(t, c, map[string]any{"activity": exampleActivity})
	openSession(t, c, map[string]any{"activity": exampleActivity})
	r := c.call("session.open", map[string]any{"activity": exampleActivity})
	if r.Error == nil || r.Error.Code != codeTooManySessions || !strings.Contains(r.Error.Message, "--max-sessions 2") {
		t.Fatalf("a third session: %s", r.raw)
	}
	c.ok("session.close", map[string]any{"session": a})
	openSession(t, c, map[string]any{"activity": exampleActivity})
	c.finish()
}

// TestServeResponseCap: a response past --max-response is the error
// naming the limit; the server goes on.
func TestServeResponseCap(t *testing.T) {
	t.Parallel()
	c := startServeWith(t, DefaultMaxLine, "", func(s *server) { s.maxResponse = 16 << 10 })
	many := make([]string, 2000)
	for i := range many {
		many[i] = "apple.n.01"
	}
	r := c.call("kb.show", map[string]any{"synsets": many})
	if r.Error == nil || r.Error.Code != codeResponseTooLarge || !strings.Contains(r.Error.Message, "--max-response") {
		t.Fatalf("kb.show of 2,000 synsets: %.300s", r.raw)
	}
	c.ok("kb.show", map[string]any{"synsets": []string{"apple.n.01"}})
	c.finish()
}

// TestServeOverloaded: a request past the queued-data budget is refused
// with the limit's name; smaller ones go on.
func TestServeOverloaded(t *testing.T) {
	t.Parallel()
	c := startServeWith(t, 1<<20, "", func(s *server) { s.held.max = 1 << 20 })
	sid := openSession(t, c, map[string]any{"activity": exampleActivity})
	big := fmt.Sprintf(`{"id":"big","method":"session.step","params":{"session":%q,"step":{"step":0,"pad":"%s"}}}`, sid, strings.Repeat("x", 900<<10))
	// A marshal request holds the most its JSON may expand to (1 MiB at
	// least) while it is decoded: past the budget here.
	c.send(fmt.Sprintf(`{"id":"m","method":"session.run","params":{"session":%q,"steps_marshal":%q}}`, sid, base64.StdEncoding.EncodeToString(marshalList(1))))
	if r := c.wait(`"m"`); r.Error == nil || r.Error.Code != codeOverloaded || !strings.Contains(r.Error.Message, "--max-queued") {
		t.Fatalf("marshal past the budget: %s", r.raw)
	}
	c.send(big)
	if r := c.wait(`"big"`); r.Error != nil && r.Error.Code == codeOverloaded {
		t.Fatalf("a request within the budget: %s", r.raw)
	}
	c.finish()
}

// marshalList is marshal.dumps([{"step": 0}, ...]) of n steps.
func marshalList(n int) []byte {
	b := binary.LittleEndian.AppendUint32([]byte{'['}, uint32(n))
	for k := range n {
		b = append(b, '{', 'z', 4, 's', 't', 'e', 'p', 'i')
		b = binary.LittleEndian.AppendUint32(b, uint32(k))
		b = append(b, '0')
	}
	return b
}

// marshalBomb is under 600 bytes of nested back-references that would
// expand to 2^40 copies of a 200-byte string.
func marshalBomb() []byte {
	b := []byte{0xdb, 41, 0, 0, 0, 0xfa, 200}
	b = append(b, strings.Repeat("x", 200)...)
	for level := range 40 {
		b = append(b, 0xdb, 2, 0, 0, 0)
		for range 2 {
			b = append(b, 'r', byte(1+level), 0, 0, 0)
		}
	}
	return b
}

// TestServeBombedSessionLeavesOthers: one session sends marshal bombs,
// huge integers and a broken chain, and is then closed with work queued;
// another session's steps, sent in between, are answered as when alone.
func TestServeBombedSessionLeavesOthers(t *testing.T) {
	t.Parallel()
	lines := episodeLines(t, "../activities/examples/cleaning_shoes/episodes/success.jsonl")
	open := map[string]any{"activity": "../activities/examples/cleaning_shoes/problem0.bddl", "header": json.RawMessage(lines[0])}
	c := startServe(t, DefaultMaxLine, "")
	ref := openSession(t, c, maps.Clone(open))
	var want []json.RawMessage
	for _, st := range lines[1:] {
		want = append(want, c.ok("session.step", map[string]any{"session": ref, "step": json.RawMessage(st)}))
	}
	bad := openSession(t, c, maps.Clone(open))
	good := openSession(t, c, maps.Clone(open))
	long := binary.LittleEndian.AppendUint32([]byte{'l'}, 1<<20)
	long = append(long, make([]byte, 2<<20)...)
	attacks := []struct{ params, code, msg string }{
		{fmt.Sprintf(`{"session":%q,"chain":"x","steps_marshal":%q}`, bad, base64.StdEncoding.EncodeToString(marshalBomb())), codeInvalidParams, "limit"},
		{fmt.Sprintf(`{"session":%q,"chain":"y","steps_marshal":%q}`, bad, base64.StdEncoding.EncodeToString(long)), codeInvalidParams, "more than 4300 digits"},
		{fmt.Sprintf(`{"session":%q,"chain":"x","steps":[]}`, bad), codeChainBroken, `chain "x"`},
		{fmt.Sprintf(`{"session":%q,"chain":"y","steps":[]}`, bad), codeChainBroken, `chain "y"`},
	}
	var goodIDs []string
	for k, st := range lines[1:] {
		if k < len(attacks) {
			c.send(fmt.Sprintf(`{"id":"a%d","method":"session.run","params":%s}`, k, attacks[k].params))
		}
		goodIDs = append(goodIDs, c.request("session.step", map[string]any{"session": good, "step": json.RawMessage(st)}))
	}
	// the bad session is closed with requests still queued
	for k := range 50 {
		c.send(fmt.Sprintf(`{"id":"q%d","method":"session.run","params":{"session":%q,"steps_marshal":%q}}`, k, bad, base64.StdEncoding.EncodeToString(marshalBomb())))
	}
	closeID := c.request("session.close", map[string]any{"session": bad})
	for k, id := range goodIDs {
		r := c.wait(id)
		if r.Error != nil || string(r.Result) != string(want[k]) {
			t.Fatalf("the other session's step %d: %s, want %s", k, r.raw, want[k])
		}
	}
	for k, a := range attacks {
		r := c.wait(fmt.Sprintf(`"a%d"`, k))
		if r.Error == nil || r.Error.Code != a.code || !strings.Contains(r.Error.Message, a.msg) {
			t.Errorf("attack %d: %s; want %s with %q", k, r.raw, a.code, a.msg)
		}
	}
	for k := range 50 {
		c.wait(fmt.Sprintf(`"q%d"`, k))
	}
	c.wait(closeID)
	c.ok("kb.show", map[string]any{"synsets": []string{"apple.n.01"}})
	c.finish()
}

// TestServeNoHeadOfLineBlocking: stateless requests that do not end
// (more of them than run at once) hold no session's step.
func TestServeNoHeadOfLineBlocking(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	var once sync.Once
	c := startServeWith(t, DefaultMaxLine, "", func(s *server) {
		s.methods = maps.Clone(s.methods)
		s.methods["test.block"] = func(*server, json.RawMessage) (any, *serveError) {
			<-release
			return nil, nil
		}
	})
	defer once.Do(func() { close(release) })
	sid := openSession(t, c, map[string]any{"activity": exampleActivity})
	var blocked []string
	for range 20 {
		blocked = append(blocked, c.request("test.block", nil))
	}
	for k := range 20 {
		if r := c.call("session.step", map[string]any{"session": sid, "step": map[string]any{"step": k}}); r.Error != nil {
			t.Fatalf("step %d: %s", k, r.raw)
		}
	}
	once.Do(func() { close(release) })
	for _, id := range blocked {
		c.wait(id)
	}
	c.finish()
}

// TestSessionQueueNeverBlocksReader: a session whose worker is stuck,
// with hundreds of requests queued behind it (a channel of 64 held the
// reader, and with it every session, when full), takes more without
// waiting, keeps their order, and another session's requests run at
// once.
func TestSessionQueueNeverBlocksReader(t *testing.T) {
	t.Parallel()
	st := newServeState(testHost(nil, ""))
	st.maxSessions = 2
	stuck, other := &serveSession{}, &serveSession{}
	a, _ := st.add(stuck)
	b, _ := st.add(other)
	release := make(chan struct{})
	var order []int
	done := make(chan struct{})
	fail := func(e *serveError) { t.Errorf("enqueue: %v", e) }
	st.enqueueID(a, func() { <-release }, fail, false)
	for k := range 1000 {
		st.enqueueID(a, func() {
			order = append(order, k)
			if k == 999 {
				close(done)
			}
		}, fail, true)
	}
	ran := false
	st.enqueueID(b, func() { ran = true }, fail, true)
	if !ran {
		t.Fatal("the other session's inline request did not run at once")
	}
	close(release)
	<-done
	for k, v := range order {
		if k != v {
			t.Fatalf("request %d ran as %d", v, k)
		}
	}
}
