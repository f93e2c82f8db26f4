package serve

import (
	"encoding/json"
	"math"
	"strconv"
	"sync/atomic"
	"unicode/utf8"
)

// The limits that keep one client's requests from taking down a server
// that serves others (docs/limits.md, "bddl serve"): the data queued
// requests hold across all sessions, the sessions open, a response's
// size. Each refusal is an error response naming the limit and its flag.

const (
	// inlineMaxStep is the largest session.step the reader runs itself
	// (saving a hand-off); a larger one goes to the session's worker, so
	// that the reader, which serves every session, never spends long on
	// one.
	inlineMaxStep = 64 << 10
)

// The error codes of the limits.
const (
	codeOverloaded       = "overloaded"         // the queued-data budget is spent: retry when answers come
	codeTooManySessions  = "too_many_sessions"  // --max-sessions open
	codeResponseTooLarge = "response_too_large" // the response would pass --max-response
)

// budget counts the bytes held by requests read and not yet answered.
type budget struct {
	used atomic.Int64
	max  int64
}

// take reserves n bytes, or reports that they would pass the budget.
func (b *budget) take(n int) bool {
	if b.used.Add(int64(n)) > b.max {
		b.used.Add(-int64(n))
		return false
	}
	return true
}

func (b *budget) give(n int) { b.used.Add(-int64(n)) }

func (s *server) overloaded(n int) *serveError {
	return errorf(codeOverloaded, "the server holds %d bytes of requests not yet answered and this one needs %d more (--max-queued %d): send it again when earlier requests are answered, or start the server with a larger --max-queued",
		s.held.used.Load(), n, s.held.max)
}

func (s *server) tooLarge(n int) *serveError {
	return errorf(codeResponseTooLarge, "the response is more than %d bytes (--max-response; it reached %d): ask for less (fewer synsets, a smaller definition, fewer steps a run) or start the server with a larger --max-response",
		s.maxResponse, n)
}

// validID reports whether a request id is absent, null, a finite number
// or a string of valid UTF-8: it is echoed as sent, so it must be JSON
// every client reads back as it wrote it (1e999 reads as Infinity, and
// invalid UTF-8 is no JSON text).
func validID(id json.RawMessage) bool {
	if len(id) == 0 {
		return true
	}
	switch c := id[0]; {
	case c == 'n':
		return string(id) == "null"
	case c == '"':
		return utf8.Valid(id) && json.Valid(id)
	case c == '-' || c >= '0' && c <= '9':
		f, err := strconv.ParseFloat(string(id), 64)
		return err == nil && !math.IsInf(f, 0) && json.Valid(id)
	}
	return false
}

// brokenChains remembers the chains of a session whose parts failed, the
// most recent maxBrokenChains of them.
type brokenChains struct {
	set   map[string]struct{}
	order []string
}

const maxBrokenChains = 4096

func (b *brokenChains) has(c string) bool { _, ok := b.set[c]; return ok }

func (b *brokenChains) add(c string) {
	if b.set == nil {
		b.set = map[string]struct{}{}
	}
	if _, ok := b.set[c]; ok {
		return
	}
	if len(b.order) == maxBrokenChains {
		delete(b.set, b.order[0])
		b.order = b.order[1:]
	}
	b.set[c] = struct{}{}
	b.order = append(b.order, c)
}
