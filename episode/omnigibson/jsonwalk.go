package omnigibson

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/openbddl/bddl/internal/termsafe"
)

// maxFileBytes bounds every file this package reads. Templates are a few
// hundred kilobytes and instances tens; a file beyond this is not one of
// them.
const maxFileBytes = 256 << 20

// Error is a problem with a task-state file: the file and the key path of
// the offending value ("state.registry.object_registry.bowl_73.root_link.pos").
type Error struct {
	File string
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	// Keys and values from the file are data: escaped (termsafe.Text).
	switch {
	case e.Key == "":
		return termsafe.Text(e.File + ": " + e.Msg)
	default:
		return termsafe.Text(e.File + ": " + e.Key + ": " + e.Msg)
	}
}

// walker reads one JSON document token by token, so that a file is never
// held whole: each object's entry is decoded on its own and dropped.
type walker struct {
	dec  *json.Decoder
	file string
	path []string
	lim  *io.LimitedReader
}

func newWalker(r io.Reader, file string) *walker {
	lim := &io.LimitedReader{R: r, N: maxFileBytes + 1}
	dec := json.NewDecoder(lim)
	dec.UseNumber()
	return &walker{dec: dec, file: file, lim: lim}
}

func (w *walker) key() string { return strings.Join(w.path, ".") }

// fail wraps a decoding error with the file and key path, in words a user
// can act on.
func (w *walker) fail(err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	msg := err.Error()
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case w.lim.N <= 0:
		msg = fmt.Sprintf("file is larger than %d MiB", maxFileBytes>>20)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		msg = "truncated: the file ends inside this value"
	case errors.As(err, &se):
		if strings.Contains(msg, "'N'") || strings.Contains(msg, "'I'") || strings.Contains(msg, "'-' in numeric literal") {
			msg = "not a finite number (NaN or Infinity): " + msg
		}
		msg += fmt.Sprintf(" (byte %d)", se.Offset)
	case errors.As(err, &te):
		msg = fmt.Sprintf("expected %s, found a JSON %s", te.Type, te.Value)
		if te.Field != "" {
			return &Error{File: w.file, Key: joinKey(w.key(), te.Field), Msg: msg}
		}
	}
	return &Error{File: w.file, Key: w.key(), Msg: msg}
}

func joinKey(a, b string) string {
	if a == "" {
		return b
	}
	return a + "." + b
}

func (w *walker) errorf(format string, args ...any) error {
	return &Error{File: w.file, Key: w.key(), Msg: fmt.Sprintf(format, args...)}
}

// object walks a JSON object; fn must consume the value of each key.
func (w *walker) object(fn func(key string) error) error {
	tok, err := w.dec.Token()
	if err != nil {
		return w.fail(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return w.errorf("expected an object, found %s", describe(tok))
	}
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return w.fail(err)
		}
		k, _ := tok.(string)
		w.path = append(w.path, k)
		if err := fn(k); err != nil {
			return err
		}
		w.path = w.path[:len(w.path)-1]
	}
	if _, err := w.dec.Token(); err != nil {
		return w.fail(err)
	}
	return nil
}

// decode decodes the next value into v.
func (w *walker) decode(v any) error {
	if err := w.dec.Decode(v); err != nil {
		return w.fail(err)
	}
	return nil
}

// skip consumes the next value without keeping it.
func (w *walker) skip() error {
	depth := 0
	for {
		tok, err := w.dec.Token()
		if err != nil {
			return w.fail(err)
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				depth++
			default:
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

// end checks that nothing but white space follows the document.
func (w *walker) end() error {
	if _, err := w.dec.Token(); err != io.EOF {
		if err != nil {
			return w.fail(err)
		}
		return &Error{File: w.file, Msg: "unexpected data after the top-level object"}
	}
	if w.lim.N <= 0 {
		return &Error{File: w.file, Msg: fmt.Sprintf("file is larger than %d MiB", maxFileBytes>>20)}
	}
	return nil
}

func describe(tok json.Token) string {
	switch t := tok.(type) {
	case json.Delim:
		return "'" + t.String() + "'"
	case string:
		return "a string"
	case json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%v", tok)
}
