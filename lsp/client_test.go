package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"
)

// client speaks the protocol to a server over in-memory pipes, as an
// editor does over stdio.
type client struct {
	t      testing.TB
	w      *writer
	toSrv  *io.PipeWriter
	nextID int
	done   chan error

	mu        sync.Mutex
	responses map[string]chan *clientMessage
	diags     map[string][]publishDiagnosticsParams // by uri, in arrival order
	diagWake  chan struct{}
	others    []clientMessage // other notifications
}

type clientMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// timeout bounds every wait of a test client: a server that does not
// answer fails the test instead of hanging it.
const timeout = 60 * time.Second

func newClient(t testing.TB, opts Options) *client {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &client{t: t, w: &writer{w: inW}, toSrv: inW, done: make(chan error, 1),
		responses: map[string]chan *clientMessage{}, diags: map[string][]publishDiagnosticsParams{},
		diagWake: make(chan struct{}, 1)}
	go func() {
		err := Serve(context.Background(), inR, outW, opts)
		outW.Close()
		inR.Close()
		c.done <- err
	}()
	go c.read(bufio.NewReader(outR))
	t.Cleanup(func() {
		c.toSrv.Close()
		select {
		case <-c.done:
		case <-time.After(timeout):
			t.Errorf("the server did not stop")
		}
	})
	return c
}

func (c *client) read(r *bufio.Reader) {
	for {
		body, err := readMessage(r)
		if err != nil {
			return
		}
		var m clientMessage
		if err := json.Unmarshal(body, &m); err != nil {
			c.t.Errorf("the server sent invalid JSON: %v: %s", err, body)
			return
		}
		c.mu.Lock()
		switch {
		case m.Method == "textDocument/publishDiagnostics":
			var p publishDiagnosticsParams
			if err := json.Unmarshal(m.Params, &p); err != nil {
				c.t.Errorf("publishDiagnostics: %v", err)
			}
			c.diags[p.URI] = append(c.diags[p.URI], p)
			select {
			case c.diagWake <- struct{}{}:
			default:
			}
		case m.Method != "", string(m.ID) == "null":
			c.others = append(c.others, m)
		default:
			ch := c.responses[string(m.ID)]
			if ch == nil {
				c.t.Errorf("a response to no request: %s", body)
			} else {
				ch <- &m
			}
		}
		c.mu.Unlock()
	}
}

// send sends a request and returns a channel for its response.
func (c *client) send(method string, params any) (json.RawMessage, chan *clientMessage) {
	c.mu.Lock()
	c.nextID++
	id := json.RawMessage(fmt.Sprint(c.nextID))
	ch := make(chan *clientMessage, 1)
	c.responses[string(id)] = ch
	c.mu.Unlock()
	if err := c.w.write(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}); err != nil {
		c.t.Fatalf("sending %s: %v", method, err)
	}
	return id, ch
}

func (c *client) wait(method string, ch chan *clientMessage) *clientMessage {
	c.t.Helper()
	select {
	case m := <-ch:
		return m
	case <-time.After(timeout):
		c.t.Fatalf("no answer to %s", method)
		return nil
	}
}

// call sends a request and decodes its result into out (unless nil); an
// error response fails the test.
func (c *client) call(method string, params, out any) {
	c.t.Helper()
	_, ch := c.send(method, params)
	m := c.wait(method, ch)
	if m.Error != nil {
		c.t.Fatalf("%s: error %d %s", method, m.Error.Code, m.Error.Message)
	}
	if out != nil {
		if err := json.Unmarshal(m.Result, out); err != nil {
			c.t.Fatalf("%s: decoding %s: %v", method, m.Result, err)
		}
	}
}

func (c *client) notify(method string, params any) {
	c.t.Helper()
	if err := c.w.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params}); err != nil {
		c.t.Fatalf("sending %s: %v", method, err)
	}
}

// initialize opens the session; utf8 offers UTF-8 positions.
func (c *client) initialize(utf8 bool) map[string]any {
	c.t.Helper()
	caps := map[string]any{}
	if utf8 {
		caps["general"] = map[string]any{"positionEncodings": []string{"utf-8", "utf-16"}}
	}
	var res map[string]any
	c.call("initialize", map[string]any{"processId": nil, "rootUri": nil, "capabilities": caps}, &res)
	c.notify("initialized", map[string]any{})
	return res
}

func (c *client) open(uri, text string, version int) {
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "bddl", "version": version, "text": text}})
}

func (c *client) change(uri, text string, version int) {
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
		"contentChanges": []map[string]any{{"text": text}}})
}

// diagnostics waits for the diagnostics of uri at version (-1: without
// a version, as after a close).
func (c *client) diagnostics(uri string, version int) []diagnostic {
	c.t.Helper()
	deadline := time.After(timeout)
	for {
		c.mu.Lock()
		for _, p := range c.diags[uri] {
			if version < 0 && p.Version == nil || p.Version != nil && *p.Version == version {
				c.mu.Unlock()
				return p.Diagnostics
			}
		}
		c.mu.Unlock()
		select {
		case <-c.diagWake:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			c.t.Fatalf("no diagnostics for %s version %d", uri, version)
		}
	}
}

// forget drops what was received for uri, so a later wait sees only new
// diagnostics.
func (c *client) forget(uri string) {
	c.mu.Lock()
	delete(c.diags, uri)
	c.mu.Unlock()
}

// shutdown ends the session as an editor does and returns Serve's error.
func (c *client) shutdown() error {
	c.t.Helper()
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case err := <-c.done:
		c.done <- err
		return err
	case <-time.After(timeout):
		c.t.Fatal("the server did not exit")
		return nil
	}
}
