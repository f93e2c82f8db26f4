package lsp

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// DefaultDebounce is how long diagnostics wait after a change for the
// next one: shorter than the gap between two keystrokes of a fast typist
// (about 30 ms), long enough to fold a burst of changes an editor sends
// at once (a paste, an undo) into one validation.
const DefaultDebounce = 5 * time.Millisecond

// MaxDocuments bounds the documents open at once; opening more is refused
// with a message.
const MaxDocuments = 4096

// maxConcurrent bounds the requests answered at once; the reader waits
// for a free slot, so a flood of requests cannot grow the server without
// bound.
const maxConcurrent = 8

// Options configure a server.
type Options struct {
	// KB returns the knowledge base for the file at path ("" when the
	// document is not a local file); nil means the embedded default. It is
	// called on the diagnostics and request goroutines and should cache.
	KB func(path string) (*kb.Base, error)
	// Dialect is the dialect files are read in; DialectAuto detects it per
	// file as every command does.
	Dialect bddl.Dialect
	// Debounce is the wait after a change before diagnostics are computed;
	// 0 is DefaultDebounce, a negative value none.
	Debounce time.Duration
	// Rules are the validation options; nil is validate's default (no
	// scene feasibility: SkipRules("no-scene")).
	Rules []activities.Option
	// Log receives the server's log lines (stderr for bddl lsp); nil
	// discards them.
	Log io.Writer
	// Version is reported to the client in serverInfo.
	Version string
}

// Serve answers the client on in and out until the client sends exit or
// in ends. It returns nil after shutdown and exit, an error otherwise
// (the protocol's exit code 1).
func Serve(ctx context.Context, in io.Reader, out io.Writer, opts Options) error {
	s := newServer(opts, out)
	return s.run(ctx, in)
}

type server struct {
	opts Options
	w    *writer

	mu        sync.Mutex
	docs      map[string]*document
	timers    map[string]*time.Timer
	pending   map[string]bool // documents whose diagnostics are due
	published map[string]bool // documents with diagnostics shown
	inflight  map[string]context.CancelFunc
	kbWarned  map[string]bool
	wake      chan struct{} // tells the diagnostics worker there is work
	utf8      bool          // positions count bytes (negotiated)
	inited    bool
	shutdown  bool
	root      string // the workspace folder's path, for the knowledge base

	sem chan struct{}
	wg  sync.WaitGroup
}

func newServer(opts Options, out io.Writer) *server {
	if opts.Debounce == 0 {
		opts.Debounce = DefaultDebounce
	}
	if opts.Rules == nil {
		opts.Rules = []activities.Option{activities.SkipRules("no-scene")}
	}
	return &server{
		opts: opts, w: &writer{w: out},
		docs: map[string]*document{}, timers: map[string]*time.Timer{}, pending: map[string]bool{},
		published: map[string]bool{}, inflight: map[string]context.CancelFunc{}, kbWarned: map[string]bool{},
		wake: make(chan struct{}, 1), sem: make(chan struct{}, maxConcurrent),
	}
}

func (s *server) logf(format string, args ...any) {
	if s.opts.Log != nil {
		fmt.Fprintf(s.opts.Log, "bddl lsp: "+format+"\n", args...)
	}
}

func (s *server) run(ctx context.Context, in io.Reader) error {
	ctx, cancel := context.WithCancel(ctx)
	defer func() {
		cancel()
		s.mu.Lock()
		for _, t := range s.timers {
			t.Stop()
		}
		s.mu.Unlock()
		s.wg.Wait()
	}()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		s.diagnosticsWorker(ctx)
	}()
	br := bufio.NewReaderSize(in, 64<<10)
	for {
		body, err := readMessage(br)
		if errors.Is(err, errTooLarge) {
			s.logf("%v", err)
			s.showMessage(1, fmt.Sprintf("bddl lsp: a message over %d MiB was ignored", MaxMessageBytes>>20))
			continue
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return errors.New("the client closed the connection without exit")
			}
			return err
		}
		var m incoming
		if err := json.Unmarshal(body, &m); err != nil {
			s.replyError(json.RawMessage("null"), codeParseError, "invalid JSON: "+err.Error())
			continue
		}
		if m.Method == "" {
			continue // a response: the server sends no requests
		}
		if m.Method == "exit" {
			s.mu.Lock()
			done := s.shutdown
			s.mu.Unlock()
			if !done {
				return errors.New("exit before shutdown")
			}
			return nil
		}
		s.dispatch(ctx, &m)
	}
}

// handler answers one request on a snapshot of its document (nil when the
// request names no open document).
type handler func(s *server, ctx context.Context, doc *document, params json.RawMessage) (any, error)

var handlers = map[string]handler{
	"textDocument/hover":               (*server).hover,
	"textDocument/completion":          (*server).completion,
	"textDocument/definition":          (*server).definition,
	"textDocument/references":          (*server).references,
	"textDocument/prepareRename":       (*server).prepareRename,
	"textDocument/rename":              (*server).rename,
	"textDocument/documentSymbol":      (*server).documentSymbols,
	"textDocument/formatting":          (*server).formatting,
	"textDocument/rangeFormatting":     (*server).rangeFormatting,
	"textDocument/codeAction":          (*server).codeActions,
	"textDocument/semanticTokens/full": (*server).semanticTokensFull,
	"textDocument/documentHighlight":   (*server).highlights,
}

// requestError is an error with its JSON-RPC code.
type requestError struct {
	code int
	msg  string
}

func (e *requestError) Error() string { return e.msg }

func (s *server) dispatch(ctx context.Context, m *incoming) {
	s.mu.Lock()
	inited, shut := s.inited, s.shutdown
	s.mu.Unlock()
	switch m.Method {
	case "initialize":
		s.initialize(m)
		return
	case "initialized":
		go s.warm()
		return
	case "shutdown":
		s.mu.Lock()
		s.shutdown = true
		s.mu.Unlock()
		s.reply(m.ID, nil)
		return
	case "$/cancelRequest":
		var p cancelParams
		if json.Unmarshal(m.Params, &p) == nil {
			s.mu.Lock()
			if c := s.inflight[string(p.ID)]; c != nil {
				c()
			}
			s.mu.Unlock()
		}
		return
	}
	if !inited {
		if m.isRequest() {
			s.replyError(m.ID, codeNotInitialized, "the server is not initialized")
		}
		return
	}
	if shut {
		if m.isRequest() {
			s.replyError(m.ID, codeInvalidRequest, "the server is shut down")
		}
		return
	}
	switch m.Method {
	case "textDocument/didOpen":
		s.didOpen(m.Params)
		return
	case "textDocument/didChange":
		s.didChange(m.Params)
		return
	case "textDocument/didClose":
		s.didClose(m.Params)
		return
	}
	h, ok := handlers[m.Method]
	if !ok {
		if m.isRequest() {
			s.replyError(m.ID, codeMethodNotFound, "method not supported: "+m.Method)
		}
		return // notifications the server has no use for
	}
	if !m.isRequest() {
		return
	}
	// The snapshot is taken now, in the order of the stream, so the answer
	// is about the text as the client had it when it asked.
	var target documentParams
	_ = json.Unmarshal(m.Params, &target)
	s.mu.Lock()
	doc := s.docs[target.TextDocument.URI]
	rctx, cancel := context.WithCancel(ctx)
	id := string(m.ID)
	s.inflight[id] = cancel
	s.mu.Unlock()
	s.sem <- struct{}{}
	s.wg.Add(1)
	go func() {
		defer func() {
			<-s.sem
			s.mu.Lock()
			delete(s.inflight, id)
			s.mu.Unlock()
			cancel()
			s.wg.Done()
		}()
		var result any
		var err error
		func() {
			// A bug answering one request must not take the server down.
			defer func() {
				if r := recover(); r != nil {
					err = &requestError{codeInternalError, fmt.Sprintf("internal error: %v", r)}
					s.logf("%s: panic: %v", m.Method, r)
				}
			}()
			if doc == nil {
				return
			}
			result, err = h(s, rctx, doc, m.Params)
		}()
		if rctx.Err() != nil && ctx.Err() == nil {
			s.replyError(m.ID, codeRequestCancelled, "request cancelled")
			return
		}
		if err != nil {
			var re *requestError
			if errors.As(err, &re) {
				s.replyError(m.ID, re.code, re.msg)
			} else {
				s.replyError(m.ID, codeRequestFailed, err.Error())
			}
			return
		}
		s.reply(m.ID, result)
	}()
}

func (s *server) reply(id json.RawMessage, result any) {
	if err := s.w.write(response{JSONRPC: "2.0", ID: id, Result: result}); err != nil {
		s.logf("writing a reply: %v", err)
	}
}

func (s *server) replyError(id json.RawMessage, code int, msg string) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	if err := s.w.write(errorResponse{JSONRPC: "2.0", ID: id, Error: rpcError{Code: code, Message: msg}}); err != nil {
		s.logf("writing a reply: %v", err)
	}
}

func (s *server) notify(method string, params any) {
	if err := s.w.write(notification{JSONRPC: "2.0", Method: method, Params: params}); err != nil {
		s.logf("writing %s: %v", method, err)
	}
}

// showMessage shows a message in the editor: 1 error, 2 warning, 3 info.
func (s *server) showMessage(typ int, msg string) {
	s.notify("window/showMessage", map[string]any{"type": typ, "message": msg})
}

func (s *server) initialize(m *incoming) {
	var p initializeParams
	if err := json.Unmarshal(m.Params, &p); err != nil {
		s.replyError(m.ID, codeInvalidParams, "initialize: "+err.Error())
		return
	}
	s.mu.Lock()
	for _, e := range p.Capabilities.General.PositionEncodings {
		if e == "utf-8" {
			s.utf8 = true
		}
	}
	if len(p.WorkspaceFolders) > 0 {
		s.root = uriPath(p.WorkspaceFolders[0].URI)
	} else if p.RootURI != nil {
		s.root = uriPath(*p.RootURI)
	}
	s.inited = true
	encoding := "utf-16"
	if s.utf8 {
		encoding = "utf-8"
	}
	s.mu.Unlock()
	s.reply(m.ID, map[string]any{
		"capabilities": map[string]any{
			"positionEncoding": encoding,
			"textDocumentSync": map[string]any{"openClose": true, "change": 2},
			"hoverProvider":    true,
			"completionProvider": map[string]any{
				"triggerCharacters": []string{"(", " ", "-", ":", "?"},
			},
			"definitionProvider":              true,
			"referencesProvider":              true,
			"documentHighlightProvider":       true,
			"renameProvider":                  map[string]any{"prepareProvider": true},
			"documentSymbolProvider":          true,
			"documentFormattingProvider":      true,
			"documentRangeFormattingProvider": true,
			"codeActionProvider":              map[string]any{"codeActionKinds": []string{"quickfix"}},
			"semanticTokensProvider": map[string]any{
				"legend": map[string]any{"tokenTypes": tokenTypes, "tokenModifiers": []string{"declaration"}},
				"full":   true,
			},
		},
		"serverInfo": map[string]any{"name": "bddl", "version": s.opts.Version},
	})
}

// warm loads the knowledge base of the workspace before the first file
// needs it, so the first diagnostics do not wait for it.
func (s *server) warm() {
	s.mu.Lock()
	root := s.root
	s.mu.Unlock()
	if s.opts.KB != nil {
		_, _ = s.opts.KB(root)
	}
}

// base is the knowledge base for a document; a loading error is shown
// once per document and the embedded default used.
func (s *server) base(doc *document) *kb.Base {
	if s.opts.KB == nil {
		return kb.Default()
	}
	b, err := s.opts.KB(doc.path)
	if err != nil || b == nil {
		s.mu.Lock()
		warned := s.kbWarned[doc.uri]
		s.kbWarned[doc.uri] = true
		s.mu.Unlock()
		if !warned {
			s.showMessage(1, fmt.Sprintf("bddl lsp: the knowledge base could not be loaded (%v); using the embedded default", err))
		}
		return kb.Default()
	}
	return b
}

// isLibero reports whether doc is read in LIBERO's dialect.
func (s *server) isLibero(doc *document) bool {
	return s.opts.Dialect == bddl.DialectLibero ||
		s.opts.Dialect == bddl.DialectAuto && bddl.IsLibero([]byte(doc.text))
}

func (s *server) didOpen(raw json.RawMessage) {
	var p didOpenParams
	if err := json.Unmarshal(raw, &p); err != nil {
		s.logf("didOpen: %v", err)
		return
	}
	uri := p.TextDocument.URI
	s.mu.Lock()
	if _, open := s.docs[uri]; !open && len(s.docs) >= MaxDocuments {
		s.mu.Unlock()
		s.showMessage(1, fmt.Sprintf("bddl lsp: more than %d documents open; %s is not checked", MaxDocuments, uri))
		return
	}
	if len(p.TextDocument.Text) > MaxDocumentBytes {
		s.mu.Unlock()
		s.showMessage(1, fmt.Sprintf("bddl lsp: %s is over %d MiB and is not checked", uri, MaxDocumentBytes>>20))
		return
	}
	s.docs[uri] = newDocument(uri, p.TextDocument.Version, p.TextDocument.Text, s.utf8)
	s.mu.Unlock()
	s.schedule(uri)
}

func (s *server) didChange(raw json.RawMessage) {
	var p didChangeParams
	if err := json.Unmarshal(raw, &p); err != nil {
		s.logf("didChange: %v", err)
		return
	}
	uri := p.TextDocument.URI
	s.mu.Lock()
	doc := s.docs[uri]
	if doc == nil {
		s.mu.Unlock()
		return
	}
	for _, c := range p.ContentChanges {
		text := doc.applyChange(c)
		if len(text) > MaxDocumentBytes {
			s.mu.Unlock()
			s.showMessage(1, fmt.Sprintf("bddl lsp: %s would be over %d MiB; the edit is ignored, reopen the file", uri, MaxDocumentBytes>>20))
			return
		}
		doc = newDocument(uri, p.TextDocument.Version, text, s.utf8)
	}
	s.docs[uri] = doc
	s.mu.Unlock()
	s.schedule(uri)
}

func (s *server) didClose(raw json.RawMessage) {
	var p didCloseParams
	if err := json.Unmarshal(raw, &p); err != nil {
		return
	}
	uri := p.TextDocument.URI
	s.mu.Lock()
	delete(s.docs, uri)
	delete(s.kbWarned, uri)
	if t := s.timers[uri]; t != nil {
		t.Stop()
		delete(s.timers, uri)
	}
	s.mu.Unlock()
	s.enqueue(uri) // the worker clears what it published
}

// schedule computes uri's diagnostics after the debounce, unless another
// change comes first.
func (s *server) schedule(uri string) {
	if s.opts.Debounce < 0 {
		s.enqueue(uri)
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := s.timers[uri]; t != nil {
		t.Stop()
	}
	s.timers[uri] = time.AfterFunc(s.opts.Debounce, func() { s.enqueue(uri) })
}

func (s *server) enqueue(uri string) {
	s.mu.Lock()
	s.pending[uri] = true
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// diagnosticsWorker validates the documents that are due, one at a time.
// It is the only goroutine publishing diagnostics, so a document's are
// published in order, and a result for a version that has since changed
// or closed is dropped (the change scheduled its own).
func (s *server) diagnosticsWorker(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		s.mu.Lock()
		due := make([]string, 0, len(s.pending))
		for uri := range s.pending {
			due = append(due, uri)
		}
		clear(s.pending)
		s.mu.Unlock()
		for _, uri := range due {
			if ctx.Err() != nil {
				return
			}
			s.mu.Lock()
			doc := s.docs[uri]
			shown := s.published[uri]
			s.mu.Unlock()
			if doc == nil {
				if shown {
					s.mu.Lock()
					delete(s.published, uri)
					s.mu.Unlock()
					s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Diagnostics: []diagnostic{}})
				}
				continue
			}
			diags := s.diagnose(doc)
			s.mu.Lock()
			current := s.docs[uri] == doc
			if current {
				s.published[uri] = true
			}
			s.mu.Unlock()
			if !current {
				continue
			}
			v := doc.version
			s.notify("textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Version: &v, Diagnostics: diags})
		}
	}
}
