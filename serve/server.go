package serve

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// server is one bddl serve process: it reads requests from in, runs them
// (those of one session in order, the others in parallel) and writes one
// response line each to out.
type server struct {
	opts    *Options
	maxLine int

	// Responses go through lines to one writer goroutine, so that the
	// reader, which runs a session's cheap requests itself, never blocks
	// on a client that writes many requests before reading; the writer
	// flushes when no response is waiting (one system call for a burst).
	lines   chan []byte
	written chan error
	out     *bufio.Writer

	// direct is the output when it is a non-blocking pipe: a response
	// is written there by the goroutine that made it, when no other
	// waits (queued 0), with one write(2) that never waits (writeNow;
	// elsewhere a write with a short deadline); a hand-off to the writer
	// goroutine cost more than a session step's work. Whatever the pipe
	// does not take at once goes to the writer, so a client that does
	// not read never blocks the reader. qmu orders the direct writes and
	// the sends on lines.
	direct *os.File
	qmu    sync.Mutex
	queued atomic.Int64 // lines sent to the writer and not yet flushed

	running sync.WaitGroup
	slots   chan struct{} // bounds the requests run at once

	state *serveState
	// held is the data of requests read and not yet answered, across all
	// sessions; maxResponse caps a response line.
	held        budget
	maxResponse int
	// methods are the methods served (serveMethods; a fuzz test serves
	// those that write no file).
	methods map[string]serveMethod
}

// serveMethod runs one request's params; the result is marshalled as the
// response's result.
type serveMethod func(s *server, params json.RawMessage) (any, *serveError)

// serveMethods maps method names to their handlers; session methods are
// run by the session's own worker, in order.
var serveMethods = map[string]serveMethod{}

// serveSessionMethods are the methods whose params name a session.
var serveSessionMethods = map[string]bool{}

func newServer(o *Options, out io.Writer, maxLine int) *server {
	s := &server{opts: o, maxLine: maxLine, out: bufio.NewWriterSize(out, 64<<10),
		lines: make(chan []byte, maxPendingResponses), written: make(chan error, 1),
		slots: make(chan struct{}, 2*runtime.GOMAXPROCS(0)), state: newServeState(o), methods: serveMethods,
		maxResponse: DefaultMaxResponse}
	s.held.max = DefaultMaxQueued
	s.state.maxSessions = DefaultMaxSessions
	go s.writeLoop()
	return s
}

// maxPendingResponses bounds the responses waiting for the client to
// read them; past it, requests wait.
const maxPendingResponses = 4096

// writeLoop writes the response lines, flushing whenever none waits; it
// reports the first write error when lines is closed.
func (s *server) writeLoop() {
	var werr error
	var unflushed int64
	for line := range s.lines {
		unflushed++
		if werr == nil { // else the client is gone: drain
			_, werr = s.out.Write(line)
		}
		if len(s.lines) == 0 {
			if werr == nil {
				werr = s.out.Flush()
			}
			s.queued.Add(-unflushed)
			unflushed = 0
		}
	}
	if werr == nil {
		werr = s.out.Flush()
	}
	s.written <- werr
}

func methodNames() []string {
	names := make([]string, 0, len(serveMethods))
	for n := range serveMethods {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// serve writes the handshake, then answers every request line until in
// ends; it returns when every response is written. A line longer than
// maxLine is answered with an error and skipped, without being held in
// memory.
func (s *server) serve(in io.Reader) error {
	if err := s.write(serveHandshake{Protocol: serveProtocol, Version: s.opts.Version, Methods: methodNames(), MaxLine: s.maxLine, Features: []string{"steps_marshal"}}); err != nil {
		return err
	}
	br := bufio.NewReaderSize(in, 64<<10)
	var readErr error
	for readErr == nil {
		var line []byte
		line, readErr = br.ReadSlice('\n')
		if readErr == bufio.ErrBufferFull {
			var ok bool
			if line, readErr, ok = s.readLong(br, line); !ok {
				continue
			}
		}
		if len(bytes.TrimRight(line, "\r\n")) > s.maxLine {
			s.tooLong(idPrefix(line))
			continue
		}
		if readErr != nil && readErr != io.EOF {
			break
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		s.dispatch(line)
	}
	s.running.Wait()
	s.state.closeSessions()
	close(s.lines)
	if err := <-s.written; err != nil {
		return err
	}
	if readErr != nil && readErr != io.EOF {
		return readErr
	}
	return nil
}

// readLong reads the rest of a line longer than the reader's buffer, in
// blocks of at most 1 MiB, so that a line is held at its own size and
// never twice (a growing slice is copied at each doubling). A line past
// maxLine is dropped block by block as soon as it is known to be too
// long, and its memory given back (ok false: it was answered).
func (s *server) readLong(br *bufio.Reader, first []byte) ([]byte, error, bool) {
	const block = 1 << 20
	var blocks [][]byte
	cur := append(make([]byte, 0, block), first...)
	n := len(first)
	var err error = bufio.ErrBufferFull
	for err == bufio.ErrBufferFull && n <= s.maxLine+2 {
		var part []byte
		part, err = br.ReadSlice('\n')
		n += len(part)
		for len(part) > 0 {
			if len(cur) == cap(cur) {
				blocks = append(blocks, cur)
				cur = make([]byte, 0, block)
			}
			k := min(len(part), cap(cur)-len(cur))
			cur = append(cur, part[:k]...)
			part = part[k:]
		}
	}
	blocks = append(blocks, cur)
	if n > s.maxLine+2 { // the line's end (\r\n) aside
		id := idPrefix(blocks[0])
		blocks, cur = nil, nil
		for err == bufio.ErrBufferFull {
			_, err = br.ReadSlice('\n')
		}
		s.tooLong(id)
		if n > 64<<20 {
			debug.FreeOSMemory()
		}
		return nil, err, false
	}
	line := make([]byte, 0, n)
	for _, b := range blocks {
		line = append(line, b...)
	}
	return line, err, true
}

func (s *server) tooLong(id json.RawMessage) {
	s.respond(id, nil, errorf(codeLineTooLong, "request line longer than %d bytes (--max-line): skipped", s.maxLine))
}

// dispatch decodes one request line and starts it. The line is copied:
// the reader's buffer is reused.
func (s *server) dispatch(line []byte) {
	if s.dispatchStep(line) || s.dispatchRun(line) || s.dispatchGroup(line) {
		return
	}
	var req serveRequest
	if err := json.Unmarshal(line, &req); err != nil {
		s.respond(idOf(line), nil, errorf(codeParse, "malformed request: %v", err))
		return
	}
	if !validID(req.ID) {
		s.respond(nil, nil, errorf(codeInvalidRequest, "the request's id must be null, a finite number or a string of valid UTF-8"))
		return
	}
	if req.Method == "" {
		s.respond(req.ID, nil, errorf(codeInvalidRequest, "the request names no method"))
		return
	}
	m, ok := s.methods[req.Method]
	if !ok {
		s.respond(req.ID, nil, errorf(codeUnknownMethod, "unknown method %q; methods: %v", req.Method, methodNames()))
		return
	}
	// The request holds its params (a copy of the line's) until answered.
	held := len(req.Params) + len(req.ID)
	if !s.held.take(held) {
		s.respond(req.ID, nil, s.overloaded(held))
		return
	}
	run := func() {
		defer s.running.Done()
		defer s.held.give(held)
		res, err := s.call(m, req.Params)
		s.respond(req.ID, res, err)
	}
	s.running.Add(1)
	if serveSessionMethods[req.Method] {
		inline := req.Method != "session.run" && len(line) <= inlineMaxStep
		if !s.state.enqueue(req.Params, run, func(e *serveError) { s.held.give(held); s.respond(req.ID, nil, e) }, inline) {
			s.running.Done()
		}
		return
	}
	// The slot is waited for on the request's goroutine, never on the
	// reader: busy stateless requests do not hold the sessions' steps.
	go func() {
		s.slots <- struct{}{}
		defer func() { <-s.slots }()
		run()
	}()
}

// call runs a method, turning a panic into an internal error response:
// the server outlives any one request.
func (s *server) call(m serveMethod, params json.RawMessage) (res any, serr *serveError) {
	defer func() {
		if p := recover(); p != nil {
			res, serr = nil, errorf(codeInternal, "internal error (a bug, please report it): %v", p)
			fmt.Fprintf(s.opts.Log, "bddl serve: panic: %v\n%s", p, debug.Stack())
		}
	}()
	return m(s, params)
}

// respond writes one response line.
func (s *server) respond(id json.RawMessage, res any, e *serveError) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	if raw, ok := res.(json.RawMessage); ok && e == nil && len(raw) > s.maxResponse {
		res, e = nil, s.tooLarge(len(raw))
	}
	if raw, ok := res.(json.RawMessage); ok && e == nil && len(raw) > 0 {
		// A record marshalled already (session.step): the line is
		// assembled, not re-encoded (which would validate and compact it
		// again).
		line := make([]byte, 0, len(id)+len(raw)+len(`{"id":,"result":}`)+1)
		line = append(append(append(append(line, `{"id":`...), id...), `,"result":`...), raw...)
		s.emit(append(line, "}\n"...))
		return
	}
	resp := serveResponse{ID: id, Result: res, Error: e}
	if e == nil && res == nil {
		resp.Result = struct{}{}
	}
	if err := s.writeCapped(resp); err != nil {
		fmt.Fprintf(s.opts.Log, "bddl serve: writing a response: %v\n", err)
	}
}

// write marshals v as one line and queues it for the writer.
func (s *server) write(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		b, _ := json.Marshal(serveResponse{ID: json.RawMessage("null"), Error: errorf(codeInternal, "marshalling the response: %v", err)})
		buf.Reset()
		buf.Write(append(b, '\n'))
	}
	s.emit(buf.Bytes())
	return nil
}

// writeCapped is write for a response: one past --max-response is
// replaced by the error saying so.
func (s *server) writeCapped(resp serveResponse) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	err := enc.Encode(resp)
	switch {
	case err == nil && buf.Len() > s.maxResponse+1:
		n := buf.Len()
		buf = bytes.Buffer{}
		resp.Result, resp.Error = nil, s.tooLarge(n)
	case err == nil:
		s.emit(buf.Bytes())
		return nil
	}
	return s.write(resp)
}

// directDeadline bounds a direct write: past it the client is not
// reading, and the rest of the line goes to the writer goroutine.
const directDeadline = 2 * time.Millisecond

// errWouldBlock: a direct write found the pipe full; the rest of the
// line goes to the writer goroutine.
var errWouldBlock = errors.New("the output pipe is full")

// emit writes one response line: directly when nothing waits for the
// writer goroutine, else (or for what a direct write left) through it.
func (s *server) emit(line []byte) {
	s.qmu.Lock()
	defer s.qmu.Unlock()
	if s.direct != nil && s.queued.Load() == 0 {
		n, err := s.writeDirect(line)
		if err == nil {
			return
		}
		line = line[n:]
		if !errors.Is(err, os.ErrDeadlineExceeded) && !errors.Is(err, errWouldBlock) {
			s.direct = nil // the writer reports the error
		}
	}
	s.queued.Add(1)
	s.lines <- line
}

func (s *server) writeDirect(line []byte) (int, error) {
	if n, err, ok := writeNow(s.direct, line); ok {
		return n, err
	}
	if err := s.direct.SetWriteDeadline(time.Now().Add(directDeadline)); err != nil {
		return 0, err
	}
	n, err := s.direct.Write(line)
	_ = s.direct.SetWriteDeadline(time.Time{})
	return n, err
}

// idOf finds the id of a line that is not a valid request, so that its
// error can still be matched when the id itself is readable: from the
// whole line, else from its start (a client writing "id" first, as
// openbddl does, always gets its id back).
func idOf(line []byte) json.RawMessage {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	if json.Unmarshal(line, &probe) == nil && validID(probe.ID) {
		return probe.ID
	}
	return idPrefix(line)
}

// idPrefix reads the id of a line that starts {"id": ID, a number or a
// simple string; nil otherwise.
func idPrefix(line []byte) json.RawMessage { return keyPrefix(line, "id") }

// keyPrefix reads the value of an object's first key when it is key and
// the value a number or a string without escapes; nil otherwise.
func keyPrefix(line []byte, key string) json.RawMessage {
	rest := bytes.TrimLeft(line, " \t\r\n")
	var ok bool
	if rest, ok = bytes.CutPrefix(rest, []byte("{")); !ok {
		return nil
	}
	rest = bytes.TrimLeft(rest, " \t\r\n")
	if rest, ok = bytes.CutPrefix(rest, []byte(`"`+key+`"`)); !ok {
		return nil
	}
	rest = bytes.TrimLeft(rest, " \t\r\n")
	if rest, ok = bytes.CutPrefix(rest, []byte(":")); !ok {
		return nil
	}
	rest = bytes.TrimLeft(rest, " \t\r\n")
	end := 0
	switch {
	case len(rest) > 0 && rest[0] == '"':
		end = bytes.IndexByte(rest[1:], '"') + 2
		if end < 2 || bytes.IndexByte(rest[1:end-1], '\\') >= 0 {
			return nil
		}
	default:
		for end < len(rest) && end < 32 && bytes.IndexByte([]byte("-+.0123456789eE"), rest[end]) >= 0 {
			end++
		}
	}
	if end == 0 || end > 256 || !validID(rest[:end]) {
		return nil
	}
	return append(json.RawMessage(nil), rest[:end]...)
}
