package kb

import (
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// jsonScanner is a pull parser over a whole JSON file in memory. The
// BEHAVIOR-1K knowledge base is a few megabytes of JSON read on every
// command, and decoding it with encoding/json into maps costs several times
// the 100 ms load budget; scanning the bytes in place and converting only
// what we keep (names become strings once, property names are looked up
// without allocating) keeps loading fast.
//
// The first syntax error stops the scan: it is recorded, the position jumps
// to the end, and every later call returns a zero value, so callers can
// loop without checking errors at each step.
type jsonScanner struct {
	data   []byte
	pos    int
	failed bool
	errPos int
	errMsg string

	// Building values: children collect on these stacks and are copied
	// once into exactly sized slices; strings are interned, since the same
	// names (substances, conditions) repeat thousands of times.
	vals    []gval
	keys    []string
	strings map[string]string
}

// intern returns b as a string, shared with earlier equal strings.
func (s *jsonScanner) intern(b []byte) string {
	if str, ok := s.strings[string(b)]; ok {
		return str
	}
	if s.strings == nil {
		s.strings = make(map[string]string, 256)
	}
	str := string(b)
	s.strings[str] = str
	return str
}

// maxJSONDepth bounds nesting so hostile input cannot exhaust the stack.
const maxJSONDepth = 512

func (s *jsonScanner) fail(msg string) {
	if s.failed {
		return
	}
	s.failed = true
	s.errPos = s.pos
	s.errMsg = msg
	s.pos = len(s.data)
}

func (s *jsonScanner) ws() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next non-space byte without consuming it, 0 at the end.
func (s *jsonScanner) peek() byte {
	s.ws()
	if s.pos >= len(s.data) {
		return 0
	}
	return s.data[s.pos]
}

// open consumes the opening bracket c ('{' or '[').
func (s *jsonScanner) open(c byte) bool {
	if s.peek() != c {
		s.fail("expected " + strconv.QuoteRune(rune(c)) + ", found " + s.found())
		return false
	}
	s.pos++
	return true
}

// more steps to the next member of an object or list. It consumes the
// closing bracket and returns false at the end of the container.
func (s *jsonScanner) more(first *bool, closer byte) bool {
	c := s.peek()
	if c == closer {
		s.pos++
		return false
	}
	if c == 0 {
		s.fail("unexpected end of input")
		return false
	}
	if !*first {
		if c != ',' {
			s.fail("expected ',' or " + strconv.QuoteRune(rune(closer)) + ", found " + s.found())
			return false
		}
		s.pos++
		if s.peek() == closer {
			s.fail("trailing comma")
			return false
		}
	}
	*first = false
	return true
}

// key reads an object key and its colon. The bytes may alias the input.
func (s *jsonScanner) key() []byte {
	k := s.str()
	if s.peek() != ':' {
		s.fail("expected ':' after key, found " + s.found())
		return nil
	}
	s.pos++
	return k
}

// str reads a string. Without escapes the result aliases the input; with
// escapes it is a fresh buffer.
func (s *jsonScanner) str() []byte {
	if s.peek() != '"' {
		s.fail("expected a string, found " + s.found())
		return nil
	}
	s.pos++
	start := s.pos
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			out := s.data[start:s.pos]
			s.pos++
			return out
		case c == '\\':
			return s.escapedStr(start)
		case c < 0x20:
			s.fail("control character in string")
			return nil
		}
		s.pos++
	}
	s.fail("unterminated string")
	return nil
}

func (s *jsonScanner) escapedStr(start int) []byte {
	out := append([]byte(nil), s.data[start:s.pos]...)
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			return out
		case c < 0x20:
			s.fail("control character in string")
			return nil
		case c != '\\':
			out = append(out, c)
			s.pos++
			continue
		}
		if s.pos+1 >= len(s.data) {
			break
		}
		e := s.data[s.pos+1]
		s.pos += 2
		switch e {
		case '"', '\\', '/':
			out = append(out, e)
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r, ok := s.hex4()
			if !ok {
				return nil
			}
			if utf16.IsSurrogate(r) {
				// As encoding/json: a surrogate pairs with the next escape
				// only if that escape completes it; otherwise it becomes
				// U+FFFD and the next escape is read on its own.
				paired := false
				if s.pos+1 < len(s.data) && s.data[s.pos] == '\\' && s.data[s.pos+1] == 'u' {
					back := s.pos
					s.pos += 2
					r2, ok := s.hex4()
					if !ok {
						return nil
					}
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r, paired = d, true
					} else {
						s.pos = back
					}
				}
				if !paired {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			s.pos -= 2
			s.fail("invalid escape in string")
			return nil
		}
	}
	s.fail("unterminated string")
	return nil
}

func (s *jsonScanner) hex4() (rune, bool) {
	if s.pos+4 > len(s.data) {
		s.fail("short \\u escape")
		return 0, false
	}
	v, err := strconv.ParseUint(string(s.data[s.pos:s.pos+4]), 16, 32)
	if err != nil {
		s.fail("invalid \\u escape")
		return 0, false
	}
	s.pos += 4
	return rune(v), true
}

// number reads a number.
func (s *jsonScanner) number() float64 {
	s.ws()
	start := s.pos
	for s.pos < len(s.data) && isNumberByte(s.data[s.pos]) {
		s.pos++
	}
	f, err := strconv.ParseFloat(string(s.data[start:s.pos]), 64)
	if err != nil || start == s.pos {
		text := s.data[start:s.pos]
		s.pos = start
		switch {
		case nonFiniteWord(s.data[start:]) != "":
			// Python's json module writes NaN and Infinity.
			s.fail("number " + nonFiniteWord(s.data[start:]) + " is not finite; every number in a knowledge base must be")
		case math.IsInf(f, 0):
			s.fail("number " + strconv.Quote(string(text)) + " is out of range (not finite)")
		default:
			s.fail("invalid number")
		}
		return 0
	}
	return f
}

// nonFiniteWord returns the non-finite literal data starts with (NaN,
// Infinity, -Infinity), or "".
func nonFiniteWord(data []byte) string {
	for _, w := range []string{"NaN", "Infinity", "-Infinity", "-NaN", "+Infinity"} {
		if len(data) >= len(w) && string(data[:len(w)]) == w {
			return w
		}
	}
	return ""
}

func isNumberByte(c byte) bool {
	return '0' <= c && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E'
}

// literal consumes true, false or null.
func (s *jsonScanner) literal(word string) bool {
	if len(s.data)-s.pos >= len(word) && string(s.data[s.pos:s.pos+len(word)]) == word {
		s.pos += len(word)
		return true
	}
	s.fail("invalid literal")
	return false
}

// skip consumes any value.
func (s *jsonScanner) skip(depth int) {
	if depth > maxJSONDepth {
		s.fail("nesting too deep")
		return
	}
	switch s.peek() {
	case '{':
		s.pos++
		first := true
		for s.more(&first, '}') {
			s.key()
			s.skip(depth + 1)
		}
	case '[':
		s.pos++
		first := true
		for s.more(&first, ']') {
			s.skip(depth + 1)
		}
	case '"':
		s.str()
	case 't':
		s.literal("true")
	case 'f':
		s.literal("false")
	case 'n':
		s.literal("null")
	case 0:
		s.fail("unexpected end of input")
	default:
		s.number()
	}
}

// value decodes any value into a gval tree.
func (s *jsonScanner) value(depth int) gval {
	if depth > maxJSONDepth {
		s.fail("nesting too deep")
		return gval{}
	}
	c := s.peek()
	g := gval{where: int32(s.pos)}
	switch c {
	case '{':
		s.pos++
		g.kind = gObject
		kstart, vstart := len(s.keys), len(s.vals)
		first := true
		for s.more(&first, '}') {
			k := s.intern(s.key())
			v := s.value(depth + 1)
			s.keys = append(s.keys, k)
			s.vals = append(s.vals, v)
		}
		if n := len(s.keys) - kstart; n > 0 {
			g.keys = append(make([]string, 0, n), s.keys[kstart:]...)
			g.vals = append(make([]gval, 0, n), s.vals[vstart:]...)
		}
		clear(s.vals[vstart:]) // drop references held by the stack
		s.keys, s.vals = s.keys[:kstart], s.vals[:vstart]
	case '[':
		s.pos++
		g.kind = gList
		start := len(s.vals)
		first := true
		for s.more(&first, ']') {
			v := s.value(depth + 1)
			s.vals = append(s.vals, v)
		}
		if n := len(s.vals) - start; n > 0 {
			g.list = append(make([]gval, 0, n), s.vals[start:]...)
		}
		clear(s.vals[start:])
		s.vals = s.vals[:start]
	case '"':
		g.kind = gString
		g.str = s.intern(s.str())
	case 't':
		if s.literal("true") {
			g.kind, g.num = gBool, 1
		}
	case 'f':
		if s.literal("false") {
			g.kind = gBool
		}
	case 'n':
		s.literal("null")
	case 0:
		s.fail("unexpected end of input")
	default:
		g.kind = gNumber
		g.num = s.number()
	}
	return g
}

// end checks that nothing but space follows the top-level value.
func (s *jsonScanner) end() {
	if s.peek() != 0 && !s.failed {
		s.fail("unexpected data after the top-level value")
	}
}

func (s *jsonScanner) found() string {
	if s.pos >= len(s.data) {
		return "end of input"
	}
	r, _ := utf8.DecodeRune(s.data[s.pos:])
	return strconv.QuoteRune(r)
}

// report records the scan's syntax error, if any.
func (s *jsonScanner) report(p *problems, file string) {
	if s.failed {
		p.errorf(Location{File: file, Line: lineAt(s.data, s.errPos)}, "syntax", "invalid JSON: %s", s.errMsg)
	}
}
