// Package termsafe keeps data from steering a terminal. A name read from
// data (an activity, an episode header, an object, a file met in a walk)
// may hold ESC ] 0; … BEL (which sets the window title), CR and LF (which
// forge a line of a report), or C1 controls; printed raw, they act on
// the terminal instead of being shown.
//
// Text is the one function that escapes a data string before it is
// printed: every command passes names through it where it builds a line
// or a table. Writer is the safety net around the CLI's stdout and
// stderr: whatever reaches it, a control byte other than a newline or a
// tab is written escaped (only the colour sequences the CLI itself emits
// pass, and only on a terminal).
package termsafe

import (
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// unsafeRune reports the runes Text escapes: C0 and C1 controls, DEL,
// the line and paragraph separators and the bidirectional overrides
// (which reorder what a terminal shows).
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x2028, r == 0x2029, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// Text returns s with every control character, and every byte that is
// not UTF-8, written as a Go escape (\x1b, \r, \n, \u202e, \xff): one
// line, shown as it is. A string without any is returned as it is.
func Text(s string) string {
	i := 0
	for i < len(s) {
		c := s[i]
		if c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || unsafeRune(r) {
			break
		}
		i += size
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteString(`\x`)
			b.WriteString(strconv.FormatUint(uint64(s[i])>>4, 16))
			b.WriteString(strconv.FormatUint(uint64(s[i])&15, 16))
			size = 1
		case unsafeRune(r):
			q := strconv.QuoteRune(r) // '\x1b', '\n', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Lines is Text on each line of a message, keeping the message's own
// line breaks and tabs (cobra indents its suggestions with a tab).
func Lines(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		cells := strings.Split(l, "\t")
		for j, c := range cells {
			cells[j] = Text(c)
		}
		lines[i] = strings.Join(cells, "\t")
	}
	return strings.Join(lines, "\n")
}

// Writer escapes, in what is written through it, every control byte but
// newline and tab, C1 controls and bytes that are not UTF-8, as Text
// does. With Colors set (the stream is a terminal), the SGR sequences
// ESC [ digits and semicolons m that colour the CLI's output pass.
type Writer struct {
	W      io.Writer
	Colors bool
	carry  []byte // an incomplete UTF-8 sequence at the end of a write
}

// NewWriter wraps w; colors says w is a terminal the CLI colours.
func NewWriter(w io.Writer, colors bool) *Writer { return &Writer{W: w, Colors: colors} }

// Unwrap is the stream wrapped (for a progress bar, which redraws its
// line with CR).
func (w *Writer) Unwrap() io.Writer { return w.W }

// Raw is the stream under w's escaping, for a protocol (JSON Lines, LSP)
// whose encoder escapes control bytes itself: the escaping writer is for
// text read on a terminal, and it hid the pipe from bddl serve's
// pollable (every response then went through the writer goroutine: 13 µs
// more a round trip).
func Raw(w io.Writer) io.Writer {
	if t, ok := w.(*Writer); ok {
		return t.W
	}
	return w
}

// Write writes p, escaped; n is len(p) when all of it was written.
func (w *Writer) Write(p []byte) (int, error) {
	data := p
	if len(w.carry) > 0 {
		data = append(w.carry, p...)
		w.carry = nil
	}
	clean := true
	for i := 0; i < len(data); i++ {
		if c := data[i]; c < 0x20 && c != '\n' && c != '\t' || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		if _, err := w.W.Write(data); err != nil {
			return 0, err
		}
		return len(p), nil
	}
	var out []byte
	for i := 0; i < len(data); {
		c := data[i]
		switch {
		case c == '\n' || c == '\t' || c >= 0x20 && c < 0x7f:
			out = append(out, c)
			i++
		case c == 0x1b && w.Colors && sgrLen(data[i:]) > 0:
			n := sgrLen(data[i:])
			out = append(out, data[i:i+n]...)
			i += n
		case c < 0x80:
			out = append(out, Text(string(c))...)
			i++
		default:
			if !utf8.FullRune(data[i:]) && len(data)-i < utf8.UTFMax {
				w.carry = append([]byte(nil), data[i:]...)
				i = len(data)
				continue
			}
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 || unsafeRune(r) {
				out = append(out, Text(string(data[i:i+max(size, 1)]))...)
				i += max(size, 1)
				continue
			}
			out = append(out, data[i:i+size]...)
			i += size
		}
	}
	if _, err := w.W.Write(out); err != nil {
		return 0, err
	}
	return len(p), nil
}

// sgrLen is the length of an SGR sequence (ESC [ 0-9; m) at the start of
// b; 0 when there is none.
func sgrLen(b []byte) int {
	if len(b) < 3 || b[0] != 0x1b || b[1] != '[' {
		return 0
	}
	for i := 2; i < len(b) && i < 16; i++ {
		switch c := b[i]; {
		case c == 'm':
			return i + 1
		case c >= '0' && c <= '9' || c == ';':
		default:
			return 0
		}
	}
	return 0
}
