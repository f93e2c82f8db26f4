package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
)

// MaxMessageBytes bounds one message's content: a larger one is skipped
// unread (its bytes discarded), so a client cannot make the server hold
// more than this at once.
const MaxMessageBytes = 16 << 20

// maxHeaderLine bounds a header line; maxHeaders the lines of a header.
const (
	maxHeaderLine = 4096
	maxHeaders    = 32
)

// JSON-RPC and LSP error codes.
const (
	codeParseError       = -32700
	codeInvalidRequest   = -32600
	codeMethodNotFound   = -32601
	codeInvalidParams    = -32602
	codeInternalError    = -32603
	codeNotInitialized   = -32002
	codeRequestCancelled = -32800
	codeRequestFailed    = -32803
)

// errTooLarge reports a message over MaxMessageBytes, which was skipped.
var errTooLarge = errors.New("message larger than the limit, skipped")

// incoming is a request, a notification or a response from the client.
type incoming struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params,omitempty"`
}

// isRequest reports whether the message wants an answer.
func (m *incoming) isRequest() bool { return len(m.ID) > 0 && string(m.ID) != "null" }

type rpcError struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
}

// response always carries "result" (null included) unless it is an error,
// as JSON-RPC 2.0 requires.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result"`
}

type errorResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   rpcError        `json:"error"`
}

type notification struct {
	JSONRPC string `json:"jsonrpc"`
	Method  string `json:"method"`
	Params  any    `json:"params"`
}

// readMessage reads one framed message's content. Header lines and the
// content are bounded; a message over the limit is discarded and
// errTooLarge returned, after which the stream is still in step.
func readMessage(r *bufio.Reader) ([]byte, error) {
	length := -1
	for n := 0; ; n++ {
		if n == maxHeaders {
			return nil, errors.New("too many header lines")
		}
		line, err := r.ReadSlice('\n')
		if err == bufio.ErrBufferFull || len(line) > maxHeaderLine {
			return nil, errors.New("header line too long")
		}
		if err != nil {
			if err == io.EOF && len(line) > 0 {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		line = bytes.TrimRight(line, "\r\n")
		if len(line) == 0 {
			if length < 0 {
				if n == 0 {
					continue // a stray blank line between messages
				}
				return nil, errors.New("header without Content-Length")
			}
			break
		}
		name, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			return nil, fmt.Errorf("malformed header line %q", line)
		}
		if bytes.EqualFold(bytes.TrimSpace(name), []byte("Content-Length")) {
			v, err := strconv.ParseInt(string(bytes.TrimSpace(value)), 10, 64)
			if err != nil || v < 0 {
				return nil, fmt.Errorf("bad Content-Length %q", value)
			}
			length = int(min(v, 1<<40))
		}
	}
	if length > MaxMessageBytes {
		if _, err := io.CopyN(io.Discard, r, int64(length)); err != nil {
			return nil, err
		}
		return nil, errTooLarge
	}
	buf := make([]byte, length)
	if _, err := io.ReadFull(r, buf); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, err
	}
	return buf, nil
}

// writer frames messages onto the stream, one at a time.
type writer struct {
	mu  sync.Mutex
	w   io.Writer
	buf bytes.Buffer
	err error // the first write error; later writes are dropped
}

func (w *writer) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.buf.Reset()
	fmt.Fprintf(&w.buf, "Content-Length: %d\r\n\r\n", len(body))
	w.buf.Write(body)
	_, w.err = w.w.Write(w.buf.Bytes())
	return w.err
}
