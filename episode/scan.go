package episode

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// scanner is a cursor over one line of JSON. It checks the JSON grammar
// as it goes but builds nothing: callers read keys as byte slices of the
// line, numbers with parseNumber, and skip what they do not know. Only
// strings with escapes are copied (into esc, reset per line).
type scanner struct {
	b   []byte
	i   int
	esc []byte
	msg string // why the last call failed
}

func (s *scanner) reset(line []byte) {
	s.b, s.i, s.esc, s.msg = line, 0, s.esc[:0], ""
}

// ws skips JSON whitespace and returns the next byte, 0 at the end (a
// NUL byte in the input also reads as 0: callers that must tell them
// apart compare s.i with len(s.b)).
func (s *scanner) ws() byte {
	for s.i < len(s.b) {
		c := s.b[s.i]
		if c > ' ' || c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			return c // one comparison for any byte but a space or a control
		}
		s.i++
	}
	return 0
}

func (s *scanner) fail(msg string) bool {
	if s.msg == "" {
		s.msg = msg
	}
	return false
}

// describe names the byte at the cursor for messages.
func (s *scanner) describe() string {
	if s.i >= len(s.b) {
		return "end of line"
	}
	c := s.b[s.i]
	switch {
	case c == '"':
		return "a string"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '-' || '0' <= c && c <= '9':
		return "a number"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	case c >= 0x20 && c < 0x7f:
		return "'" + string(c) + "'"
	}
	return "an invalid byte"
}

// expect consumes c after whitespace. The failure is built in a
// function of its own, so that the step path inlines what it runs.
func (s *scanner) expect(c byte, what string) bool {
	if s.ws() == c {
		s.i++
		return true
	}
	return s.expected(what)
}

//go:noinline
func (s *scanner) expected(what string) bool {
	return s.fail("expected " + what + ", found " + s.describe())
}

// next reads the separator after a member or element: it returns true
// when another follows (a comma) and false at the closing byte, which it
// consumes. A missing separator fails.
func (s *scanner) next(closing byte) (more, ok bool) {
	switch s.ws() {
	case ',':
		s.i++
		return true, true
	case closing:
		s.i++
		return false, true
	}
	return false, s.expected("',' or '" + string(closing) + "'")
}

// open consumes an opening '{' or '[' and reports whether the container
// is empty (then its closing byte is consumed too).
func (s *scanner) open(c, closing byte, what string) (empty, ok bool) {
	if !s.expect(c, what) {
		return false, false
	}
	if s.ws() == closing {
		s.i++
		return true, true
	}
	return false, true
}

// key reads a member name and its colon.
func (s *scanner) key() ([]byte, bool) {
	if s.ws() != '"' {
		return nil, s.fail("expected a field name, found " + s.describe())
	}
	k, ok := s.str()
	if !ok {
		return nil, false
	}
	if s.i < len(s.b) && s.b[s.i] == ':' { // the colon right after the name, as writers put it
		s.i++
		return k, true
	}
	if !s.expect(':', "':'") {
		return nil, false
	}
	return k, true
}

// str reads a string at the cursor. Without escapes the result is a
// slice of the line; with escapes it is decoded into esc. The loop looks
// up each byte in plainByte, so a name of plain ASCII (every name of a
// recording) costs one load and compare a byte; UTF-8 is checked only
// when a byte of a multi-byte sequence was seen.
func (s *scanner) str() ([]byte, bool) {
	if s.ws() != '"' {
		return nil, s.fail("expected a string, found " + s.describe())
	}
	s.i++
	start := s.i
	escaped, ascii := false, true
	b := s.b
	i := s.i
	// Eight bytes at a time to the first quote, backslash, control
	// character or non-ASCII byte: the lowest byte flagged in m is the
	// first such (a borrow flags bytes above a true one only). A quote
	// there ends a plain string; anything else goes to the loop below.
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		if m := (hasZeroByte(w^quotes) | hasZeroByte(w^backslashes) | (w - spaces) | w) & highBits; m != 0 {
			i += bits.TrailingZeros64(m) >> 3
			if b[i] == '"' {
				s.i = i + 1
				return b[start:i], true
			}
			break
		}
	}
	for i < len(b) {
		c := b[i]
		if plainByte[c] {
			i++
			continue
		}
		switch {
		case c == '"':
			out := b[start:i]
			s.i = i + 1
			if escaped {
				return s.unescape(out)
			}
			if !ascii && !utf8.Valid(out) {
				return nil, s.fail("invalid UTF-8 in a string")
			}
			return out, true
		case c == '\\':
			escaped = true
			i += 2
			continue
		case c < 0x20:
			s.i = i
			return nil, s.fail("control character in a string")
		}
		ascii = false // c >= 0x80
		i++
	}
	s.i = len(b)
	return nil, s.fail("unterminated string")
}

const (
	lowBits     = 0x0101010101010101
	highBits    = 0x8080808080808080
	quotes      = '"' * lowBits
	backslashes = '\\' * lowBits
	spaces      = ' ' * lowBits
)

// hasZeroByte has a high bit set where w may have a zero byte, and is 0
// when it has none.
func hasZeroByte(w uint64) uint64 { return (w - lowBits) &^ w }

// plainByte marks the bytes a string holds as they are: printable ASCII
// but the quote and the backslash.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

func (s *scanner) unescape(raw []byte) ([]byte, bool) {
	if !utf8.Valid(raw) {
		return nil, s.fail("invalid UTF-8 in a string")
	}
	start := len(s.esc)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c != '\\' {
			s.esc = append(s.esc, c)
			continue
		}
		i++
		if i >= len(raw) {
			return nil, s.fail("bad escape in a string")
		}
		switch raw[i] {
		case '"', '\\', '/':
			s.esc = append(s.esc, raw[i])
		case 'b':
			s.esc = append(s.esc, '\b')
		case 'f':
			s.esc = append(s.esc, '\f')
		case 'n':
			s.esc = append(s.esc, '\n')
		case 'r':
			s.esc = append(s.esc, '\r')
		case 't':
			s.esc = append(s.esc, '\t')
		case 'u':
			r, ok := hex4(raw, i+1)
			if !ok {
				return nil, s.fail("bad \\u escape in a string")
			}
			i += 4
			if utf16.IsSurrogate(r) {
				r2, ok2 := rune(0), false
				if i+2 < len(raw) && raw[i+1] == '\\' && raw[i+2] == 'u' {
					r2, ok2 = hex4(raw, i+3)
				}
				if dec := utf16.DecodeRune(r, r2); ok2 && dec != utf8.RuneError {
					r = dec
					i += 6
				} else {
					r = utf8.RuneError
				}
			}
			s.esc = utf8.AppendRune(s.esc, r)
		default:
			return nil, s.fail("bad escape in a string")
		}
	}
	return s.esc[start:], true
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// null consumes a null if one is at the cursor.
func (s *scanner) null() bool {
	if s.ws() == 'n' && s.literal("null") {
		return true
	}
	return false
}

func (s *scanner) literal(word string) bool {
	if len(s.b)-s.i >= len(word) && string(s.b[s.i:s.i+len(word)]) == word {
		s.i += len(word)
		return true
	}
	return false
}

// boolean reads true or false.
func (s *scanner) boolean() (bool, bool) {
	switch s.ws() {
	case 't':
		if s.literal("true") {
			return true, true
		}
	case 'f':
		if s.literal("false") {
			return false, true
		}
	}
	return false, s.fail("expected true or false, found " + s.describe())
}

// number reads a finite number.
func (s *scanner) number() (float64, bool) {
	c := s.ws()
	if c == 'N' || c == 'I' || c == '-' && s.i+1 < len(s.b) && s.b[s.i+1] == 'I' {
		return 0, s.fail("NaN and infinity are not numbers")
	}
	if c != '-' && (c < '0' || c > '9') {
		return 0, s.fail("expected a number, found " + s.describe())
	}
	f, end, err := parseNumber(s.b, s.i)
	s.i = end
	switch err {
	case numMalformed:
		return 0, s.fail("malformed number")
	case numNotFinite:
		return 0, s.fail("number out of range (not finite)")
	}
	return f, true
}

// integer reads a number that must be written as a whole number (plain
// digits, so 1e3 or 2.0 are not read as step numbers) within int64.
func (s *scanner) integer() (int64, bool) {
	s.ws()
	begin := s.i
	// The common case, up to 18 plain digits ending the number: read
	// here, without parsing a float first.
	if j := begin; j < len(s.b) && '1' <= s.b[j] && s.b[j] <= '9' || j+1 < len(s.b) && s.b[j] == '0' {
		var n int64
		for ; j < len(s.b); j++ {
			d := s.b[j] - '0'
			if d > 9 {
				break
			}
			n = n*10 + int64(d)
		}
		if j-begin <= 18 && (j == len(s.b) || numberEnds[s.b[j]]) && (s.b[begin] != '0' || j == begin+1) {
			s.i = j
			return n, true
		}
	}
	return s.integerSlow()
}

// integerSlow is integer for any number: parsed as a float first, then
// checked to be written as plain digits.
func (s *scanner) integerSlow() (int64, bool) {
	begin := s.i
	if _, ok := s.number(); !ok {
		return 0, false
	}
	j := begin
	neg := s.b[j] == '-'
	if neg {
		j++
	}
	var n uint64
	for ; j < s.i; j++ {
		c := s.b[j]
		if c < '0' || c > '9' {
			return 0, s.fail("expected an integer, found " + string(s.b[begin:s.i]))
		}
		if n > (1<<63)/10 {
			return 0, s.fail("integer out of range")
		}
		n = n*10 + uint64(c-'0')
	}
	if n > 1<<63-1 {
		return 0, s.fail("integer out of range")
	}
	if neg {
		return -int64(n), true
	}
	return int64(n), true
}

// numberEnds marks the bytes that may follow a number in JSON.
var numberEnds = func() (t [256]bool) {
	for _, c := range []byte(" \t\r\n,]}") {
		t[c] = true
	}
	return t
}()

// maxDepth bounds the nesting of values the scanner skips, so a hostile
// line cannot exhaust the stack.
const maxDepth = 256

// skip consumes any JSON value.
func (s *scanner) skip() bool { return s.skipDepth(0) }

func (s *scanner) skipDepth(depth int) bool {
	if depth > maxDepth {
		return s.fail("nesting too deep")
	}
	switch c := s.ws(); {
	case c == '{':
		empty, ok := s.open('{', '}', "'{'")
		if !ok || empty {
			return ok
		}
		for {
			if _, ok := s.key(); !ok {
				return false
			}
			if !s.skipDepth(depth + 1) {
				return false
			}
			more, ok := s.next('}')
			if !ok {
				return false
			}
			if !more {
				return true
			}
		}
	case c == '[':
		empty, ok := s.open('[', ']', "'['")
		if !ok || empty {
			return ok
		}
		for {
			if !s.skipDepth(depth + 1) {
				return false
			}
			more, ok := s.next(']')
			if !ok {
				return false
			}
			if !more {
				return true
			}
		}
	case c == '"':
		_, ok := s.str()
		return ok
	case c == 't' || c == 'f':
		_, ok := s.boolean()
		return ok
	case c == 'n':
		if s.null() {
			return true
		}
	case c == '-' || '0' <= c && c <= '9':
		_, ok := s.number()
		return ok
	}
	return s.fail("expected a value, found " + s.describe())
}

// end checks that nothing but whitespace follows the value.
func (s *scanner) end() bool {
	if s.ws(); s.i < len(s.b) {
		return s.fail("unexpected " + s.describe() + " after the line's object")
	}
	return true
}
