package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestServeDirectWrites: with the output a non-blocking pipe (as
// bddl serve's stdout), responses written directly by the goroutine that
// made them, or left to the writer when the client reads late (the
// pipe fills), still arrive whole, one line
// each, every id once.
func TestServeDirectWrites(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const n = 120
	var in strings.Builder
	in.WriteString(`{"id":"open","method":"session.open","params":{"activity":"` + exampleActivity + `"}}` + "\n")
	for i := 0; i < n; i++ {
		// explain records (kilobytes each) fill the 64 KiB pipe while
		// the client waits; session steps are answered on the reader.
		fmt.Fprintf(&in, `{"id":%d,"method":"explain","params":{"activity":%q}}`+"\n", i, exampleActivity)
	}
	g := testHost(&bytes.Buffer{}, "")
	done := make(chan error, 1)
	go func() {
		s := newServer(g, w, DefaultMaxLine)
		s.direct = w
		err := s.serve(strings.NewReader(in.String()))
		w.Close()
		done <- err
	}()
	time.Sleep(100 * time.Millisecond) // read late: direct writes find the pipe full
	seen := map[string]bool{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var resp struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
			Error  *serveError     `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &resp); err != nil {
			t.Fatalf("a response line is not JSON (%v): %.200s", err, sc.Text())
		}
		if resp.ID == nil {
			continue // the handshake
		}
		if resp.Error != nil {
			t.Errorf("id %s: %v", resp.ID, resp.Error.Message)
		}
		if seen[string(resp.ID)] {
			t.Errorf("id %s answered twice", resp.ID)
		}
		seen[string(resp.ID)] = true
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if len(seen) != n+1 {
		t.Errorf("%d responses, want %d", len(seen), n+1)
	}
}
