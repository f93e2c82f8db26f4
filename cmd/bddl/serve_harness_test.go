package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/openbddl/bddl/serve"
)

// serveClient drives an in-process bddl serve (serve.Run with the
// command's host) through pipes, as the Python client drives the
// process. The package serve has its own, on the server's internals.
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
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &serveClient{t: t, in: inW, done: make(chan error, 1), stderr: &bytes.Buffer{}, early: map[string]serveReply{}}
	g := &globalOptions{streams: streams{in: inR, out: outW, err: c.stderr}, kbPath: kbPath}
	o := serveHost(g)
	o.MaxLine = maxLine
	go func() {
		err := serve.Run(inR, outW, o)
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

// serveHandshake is the server's first line.
type serveHandshake struct {
	Protocol int      `json:"protocol"`
	Version  string   `json:"version"`
	Methods  []string `json:"methods"`
}

// serveError is a response's error, with the fields these tests read.
type serveError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Line    int    `json:"line,omitempty"`
	Step    *int64 `json:"step,omitempty"`
	Field   string `json:"field,omitempty"`
	Index   *int   `json:"index,omitempty"`
}

// The error codes these tests expect (docs/python.md).
const (
	codeUnknownSession = "unknown_session"
	codeBadStep        = "bad_step"
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
