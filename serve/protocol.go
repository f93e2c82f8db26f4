package serve

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
)

// The wire format of bddl serve: JSON Lines both ways. The server's
// first line is the handshake; then each request line gets one response
// line carrying the request's id, in completion order (requests on one
// session complete in the order they were sent). The schema is
// internal/schemas/schemas/serve.schema.json (bddl schema serve).

// serveProtocol is the protocol version of the handshake. A client that
// does not know it must stop.
const serveProtocol = 1

// serveHandshake is the server's first line.
type serveHandshake struct {
	Protocol int      `json:"protocol"`
	Version  string   `json:"version"`
	Methods  []string `json:"methods"`
	MaxLine  int      `json:"max_line"`
	// Features names the optional request fields this server reads, so a
	// client can use them only where they are understood.
	Features []string `json:"features"`
}

// serveRequest is one request line. ID may be any JSON number or string;
// it is echoed in the response.
type serveRequest struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// serveResponse is one response line: Result, or Error.
type serveResponse struct {
	ID     json.RawMessage `json:"id"`
	Result any             `json:"result,omitempty"`
	Error  *serveError     `json:"error,omitempty"`
}

// The error codes of a response.
const (
	codeParse          = "parse_error"     // the line is not a JSON object
	codeInvalidRequest = "invalid_request" // no method, or a bad id
	codeUnknownMethod  = "unknown_method"
	codeInvalidParams  = "invalid_params" // a missing, unknown or mistyped parameter
	codeUnknownSession = "unknown_session"
	codeLineTooLong    = "line_too_long"
	codeDefinition     = "definition" // the definition does not parse or check: position and findings
	codeBadStep        = "bad_step"   // a step the episode reader refuses: line, step, field
	codeNotFound       = "not_found"  // an activity, synset, scene or file that does not exist
	codeEpisode        = "episode"    // an episode file that cannot be read
	codeKB             = "kb"         // a knowledge base that does not load: its data errors in the message
	codeInternal       = "internal"   // a failure of the server (a recovered panic): a bug
	// codeUnsupportedValue: steps_marshal holds a value JSON cannot (bytes,
	// a set, a non-str key, ...); no step of the request was applied, so
	// the client sends the steps as JSON instead.
	codeUnsupportedValue = "unsupported_value"
	// codeChainBroken: a session.run part whose chain had a part fail
	// before it; none of its steps was applied.
	codeChainBroken = "chain_broken"
)

// serveError is the error of a response. Position fields are set when
// the error has one: a definition's first error (file, line, column and
// every finding), or a step's (line of the session's episode, step,
// field).
type serveError struct {
	Code     string                  `json:"code"`
	Message  string                  `json:"message"`
	File     string                  `json:"file,omitempty"`
	Line     int                     `json:"line,omitempty"`
	Column   int                     `json:"column,omitempty"`
	Step     *int64                  `json:"step,omitempty"`
	Field    string                  `json:"field,omitempty"`
	Index    *int                    `json:"index,omitempty"` // session.run: the step that failed
	Findings []bddl.DiagnosticRecord `json:"findings,omitempty"`
}

func (e *serveError) Error() string { return e.Message }

// errorf builds an error response with a code.
func errorf(code, format string, args ...any) *serveError {
	return &serveError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// asServeError maps an error of the library onto a response error:
// definition diagnostics and episode errors keep their positions.
func asServeError(err error, fallback string) *serveError {
	var se *serveError
	if errors.As(err, &se) {
		return se
	}
	if ds, ok := bddl.AsDiagnostics(err); ok {
		e := &serveError{Code: codeDefinition, Message: err.Error()}
		for _, d := range ds {
			e.Findings = append(e.Findings, d.Record())
		}
		for _, d := range ds {
			if d.Severity == bddl.Error {
				r := d.Record()
				e.File, e.Line, e.Column = r.File, int(r.Line), int(r.Col)
				e.Message = fmt.Sprintf("%s:%d:%d: %s", r.File, r.Line, r.Col, r.Message)
				break
			}
		}
		return e
	}
	var ee *episode.Error
	if errors.As(err, &ee) {
		e := &serveError{Code: codeBadStep, Message: err.Error(), File: ee.File, Line: ee.Line, Field: ee.Field}
		if ee.HasStep {
			step := ee.Step
			e.Step = &step
		}
		return e
	}
	return &serveError{Code: fallback, Message: err.Error()}
}

// decodeParams decodes a request's params strictly: an unknown field is
// an error, so that a misspelt option is not silently ignored.
func decodeParams(raw json.RawMessage, v any) *serveError {
	if len(bytes.TrimSpace(raw)) == 0 || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		raw = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return errorf(codeInvalidParams, "params: %v", err)
	}
	return nil
}
