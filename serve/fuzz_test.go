package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// FuzzServe feeds arbitrary input to the server: it must answer with
// JSON lines (the handshake, then responses carrying an id field) and
// end, never panic or hang. The methods served are those that write no
// file and walk no directory.
func FuzzServe(f *testing.F) {
	for _, seed := range []string{
		`{"id":1,"method":"explain","params":{"text":"(define (problem p) (:domain omnigibson))"}}`,
		`{"id":1,"method":"session.open","params":{"activity":"cleaning_shoes"}}` + "\n" +
			`{"id":2,"method":"session.step","params":{"session":"s1","step":{"step":0,"facts":[["dusty","shoe.n.01_1"]]}}}` + "\n" +
			`{"id":3,"method":"session.run","params":{"session":"s1","steps":[{"step":1},{"step":1}],"goals":true}}` + "\n" +
			`{"id":4,"method":"session.run","params":{"session":"s1","goals":true,"chain":"c","steps_marshal":"WwIAAAB72gRzdGVw6QEAAADaBWZhY3RzWwEAAABbAgAAANoFZHVzdHn6C3Nob2Uubi4wMV8xMHtyAAAAAOkCAAAAMA=="}}` + "\n" +
			`{"id":4,"method":"session.init","params":{"session":"s1"}}` + "\n" +
			`{"id":5,"method":"session.close","params":{"session":"s1"}}`,
		`{"id":"x","method":"session.open","params":{"definition":"(define (problem p-0) (:domain omnigibson) (:objects a.n.01_1 - a.n.01) (:init) (:goal (cooked ?a.n.01_1)))","header":{"closed_world":true}}}`,
		"not json\n{\"id\":[1]}\n{}\n\n\r\n{\"method\":\"validate\",\"params\":{\"text\":\"(\"}}",
		`{"id":1,"method":"kb.show","params":{"synsets":["apple.n.01","x"]}}`,
		`{"id":1,"method":"session.step","params":{"session":"s9","step":{}}}`,
	} {
		f.Add([]byte(seed))
	}
	safe := map[string]serveMethod{}
	for _, m := range []string{"explain", "validate", "kb.show", "session.open", "session.step", "session.run", "session.init", "session.close"} {
		safe[m] = serveMethods[m]
	}
	// One state for every input: the knowledge base and the compiled
	// programs are built once, as in a long-lived server.
	var errw bytes.Buffer
	g := testHost(&errw, "")
	state := newServeState(g)
	f.Fuzz(func(t *testing.T, in []byte) {
		// Paths in the input are not read: only texts and names.
		if bytes.Contains(in, []byte(`"path"`)) || bytes.Contains(in, []byte("/")) || bytes.Contains(in, []byte(`\`)) {
			return
		}
		var out bytes.Buffer
		errw.Reset()
		s := newServer(g, &out, 4096)
		s.methods, s.state = safe, state
		state.next = 0 // the seeds' sessions are s1, s2, ...
		if err := s.serve(bytes.NewReader(in)); err != nil {
			t.Fatalf("serve: %v", err)
		}
		if strings.Contains(errw.String(), "panic") {
			t.Fatalf("a request panicked:\n%s", errw.String())
		}
		sc := bufio.NewScanner(&out)
		sc.Buffer(nil, 1<<24)
		for n := 0; sc.Scan(); n++ {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("line %d is not a JSON object: %q", n+1, sc.Text())
			}
			if _, ok := m["id"]; n > 0 && !ok {
				t.Fatalf("response %d has no id: %q", n, sc.Text())
			}
		}
	})
}
