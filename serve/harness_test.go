package serve

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// serveClient drives an in-process bddl serve through pipes, as the
// Python client drives the process.
type serveClient struct {
	t      testing.TB
	in     *io.PipeWriter
	out    *bufio.Scanner
	done   chan error
	hand   serveHandshake
	stderr *bytes.Buffer
	mu     sync.Mutex
	next   int
	early  map[string]serveReply // responses read while waiting for another
}

// serveReply is a decoded response line.
type serveReply struct {
	ID     json.RawMessage `json:"id"`
	Result json.RawMessage `json:"result"`
	Error  *serveError     `json:"error"`
	raw    []byte          // the line as sent
}

func startServe(t testing.TB, maxLine int, kbPath string) *serveClient {
	t.Helper()
	return startServeWith(t, maxLine, kbPath, nil)
}

// startServeWith is startServe with the server configured by set before
// it reads (limits, extra methods).
func startServeWith(t testing.TB, maxLine int, kbPath string, set func(*server)) *serveClient {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &serveClient{t: t, in: inW, done: make(chan error, 1), stderr: &bytes.Buffer{}, early: map[string]serveReply{}}
	srv := newServer(testHost(c.stderr, kbPath), outW, maxLine)
	if set != nil {
		set(srv)
	}
	go func() {
		err := srv.serve(inR)
		outW.Close()
		c.done <- err
	}()
	c.out = bufio.NewScanner(outR)
	c.out.Buffer(make([]byte, 1<<20), 512<<20)
	if !c.out.Scan() {
		t.Fatalf("no handshake: %v", c.out.Err())
	}
	if err := json.Unmarshal(c.out.Bytes(), &c.hand); err != nil {
		t.Fatalf("handshake %q: %v", c.out.Text(), err)
	}
	t.Cleanup(func() { c.in.Close() })
	return c
}

// send writes a raw line (a newline is added).
func (c *serveClient) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("writing a request: %v", err)
	}
}

// recv reads the next response line.
func (c *serveClient) recv() serveReply {
	c.t.Helper()
	if !c.out.Scan() {
		c.t.Fatalf("no response: %v", c.out.Err())
	}
	var r serveReply
	if err := json.Unmarshal(c.out.Bytes(), &r); err != nil {
		c.t.Fatalf("response %q: %v", c.out.Text(), err)
	}
	r.raw = append([]byte(nil), c.out.Bytes()...)
	return r
}

// request sends a request and returns its id.
func (c *serveClient) request(method string, params any) string {
	c.t.Helper()
	c.next++
	id := fmt.Sprint(c.next)
	b, err := json.Marshal(map[string]any{"id": c.next, "method": method, "params": params})
	if err != nil {
		c.t.Fatal(err)
	}
	c.send(string(b))
	return id
}

// wait reads responses until the one with id.
func (c *serveClient) wait(id string) serveReply {
	c.t.Helper()
	if r, ok := c.early[id]; ok {
		delete(c.early, id)
		return r
	}
	for {
		r := c.recv()
		if string(r.ID) == id {
			return r
		}
		c.early[string(r.ID)] = r
	}
}

// call sends a request and waits for its response.
func (c *serveClient) call(method string, params any) serveReply {
	c.t.Helper()
	return c.wait(c.request(method, params))
}

// ok calls and fails the test on an error response.
func (c *serveClient) ok(method string, params any) json.RawMessage {
	c.t.Helper()
	r := c.call(method, params)
	if r.Error != nil {
		c.t.Fatalf("%s %v: error %s: %s", method, params, r.Error.Code, r.Error.Message)
	}
	return r.Result
}

// finish closes the input and checks that the server ends cleanly with
// nothing more to say.
func (c *serveClient) finish() {
	c.t.Helper()
	c.in.Close()
	for c.out.Scan() {
		c.t.Errorf("unexpected response after the last request: %s", c.out.Text())
	}
	if err := <-c.done; err != nil {
		c.t.Errorf("serve returned %v, want nil at the end of the input", err)
	}
	if strings.Contains(c.stderr.String(), "panic") {
		c.t.Errorf("serve logged a panic:\n%s", c.stderr)
	}
}

// readFile reads a test file.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// episodeLines reads an episode file (gzip or not) as its non-blank lines.
func episodeLines(t *testing.T, path string) [][]byte {
	t.Helper()
	data := readFile(t, path)
	if bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		zr, err := gzip.NewReader(bytes.NewReader(data))
		if err != nil {
			t.Fatal(err)
		}
		if data, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	var out [][]byte
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) > 0 {
			out = append(out, bytes.TrimRight(l, "\r"))
		}
	}
	return out
}

// comparable drops the episode's name from a record.
func comparable(t *testing.T, rec []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(rec, &m); err != nil {
		t.Fatalf("record %s: %v", rec, err)
	}
	delete(m, "episode")
	return m
}

// schemaFor reads a record schema of bddl schema; the serve schema is
// internal/schemas' (embedded there).
func schemaFor(name string) ([]byte, error) {
	return os.ReadFile(filepath.Join("..", "internal", "schemas", "schemas", name+".schema.json"))
}

// compileSchema compiles one of the record schemas.
func compileSchema(t *testing.T, name string) *jsonschema.Schema {
	return compileSchemaRef(t, name, "")
}
