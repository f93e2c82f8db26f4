package lsp

import (
	"context"
	"encoding/json"
	"testing"
)

// TestCancelRequest: $/cancelRequest cancels a request still running,
// which is answered with RequestCancelled; the session goes on. Not
// parallel: it adds a handler that waits for its cancellation.
func TestCancelRequest(t *testing.T) {
	started := make(chan struct{})
	handlers["test/wait"] = func(_ *server, ctx context.Context, _ *document, _ json.RawMessage) (any, error) {
		close(started)
		<-ctx.Done()
		return "too late", nil
	}
	defer delete(handlers, "test/wait")
	c := newClient(t, Options{})
	c.initialize(false)
	c.open(cookiesURI, readTestdata(t, "cookies.bddl"), 1)
	id, ch := c.send("test/wait", map[string]any{"textDocument": map[string]any{"uri": cookiesURI}})
	<-started
	c.notify("$/cancelRequest", map[string]any{"id": id})
	if m := c.wait("test/wait", ch); m.Error == nil || m.Error.Code != codeRequestCancelled {
		t.Errorf("a cancelled request: %+v, want error %d", m, codeRequestCancelled)
	}
	// Cancelling what is not running is harmless.
	c.notify("$/cancelRequest", map[string]any{"id": 999})
	var h *hover
	c.call("textDocument/hover", docParams(cookiesURI, posOf(t, readTestdata(t, "cookies.bddl"), "oven.n.01_1", 0, 0)), &h)
	if h == nil {
		t.Error("no hover after a cancellation")
	}
	if err := c.shutdown(); err != nil {
		t.Error(err)
	}
}
