package lsp

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestClosedDocumentsAreDropped: over a long session of documents opened,
// changed and closed, the server keeps nothing of a closed document.
func TestClosedDocumentsAreDropped(t *testing.T) {
	t.Parallel()
	s := newServer(Options{}, nopWriter{})
	s.inited = true
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan struct{})
	go func() { s.diagnosticsWorker(ctx); close(done) }()
	text := readTestdata(t, "cookies.bddl")
	for i := range 300 {
		uri := fmt.Sprintf("file:///d/%d/problem0.bddl", i)
		s.didOpen(mustJSON(t, didOpenParams{TextDocument: textDocumentItem{URI: uri, Version: 1, Text: text}}))
		s.didChange(mustJSON(t, didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: uri, Version: 2},
			ContentChanges: []contentChange{{Text: text + "\n"}}}))
		if i%3 == 0 {
			time.Sleep(2 * DefaultDebounce) // some get their diagnostics published before the close
		}
		s.didClose(mustJSON(t, didCloseParams{TextDocument: textDocumentIdentifier{URI: uri}}))
	}
	deadline := time.Now().Add(timeout)
	for {
		s.mu.Lock()
		n := len(s.docs) + len(s.timers) + len(s.pending) + len(s.published) + len(s.kbWarned) + len(s.inflight)
		s.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d entries kept for closed documents", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	<-done
}

// TestDocumentLimit: a document over MaxDocumentBytes is refused, and an
// edit that would make one is ignored.
func TestDocumentLimit(t *testing.T) {
	t.Parallel()
	s := newServer(Options{Debounce: -1}, nopWriter{})
	s.inited = true
	big := strings.Repeat("x", MaxDocumentBytes+1)
	s.didOpen(mustJSON(t, didOpenParams{TextDocument: textDocumentItem{URI: "a", Version: 1, Text: big}}))
	if s.docs["a"] != nil {
		t.Error("a document over the limit was opened")
	}
	s.didOpen(mustJSON(t, didOpenParams{TextDocument: textDocumentItem{URI: "b", Version: 1, Text: "(define"}}))
	s.didChange(mustJSON(t, didChangeParams{TextDocument: versionedTextDocumentIdentifier{URI: "b", Version: 2},
		ContentChanges: []contentChange{{Text: big}}}))
	if d := s.docs["b"]; d == nil || d.text != "(define" || d.version != 1 {
		t.Errorf("an edit over the limit was applied")
	}
}
