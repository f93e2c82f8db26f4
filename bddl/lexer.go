package bddl

import (
	"encoding/binary"
	"io"
	"math/bits"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types of the hand-written lexer.
//
// Participle materialises every token of a file (64 bytes each) before
// parsing, and its regex lexers allocate per token; together they would cap
// parsing far below the speed we need. So the lexer hands participle the
// header's tokens and then one tokBody token for the rest of the file,
// which the body's own parser (a participle.Parseable) scans on demand with
// the same scanner.
const (
	tokEOF     tokType = tokType(lexer.EOF)
	tokLParen  tokType = iota // (
	tokRParen                 // )
	tokName                   // apple.n.01_1, kitchen, and, 2
	tokVar                    // ?apple.n.01, ?x
	tokKeyword                // :init
	tokDash                   // a lone - in :objects
	tokInvalid                // any byte run that is not BDDL
	tokBody                   // everything after a file's header
)

// tokType is a token's type in one byte; participle sees it as a
// lexer.TokenType.
type tokType int8

// lexDef is the participle lexer definition.
type lexDef struct{}

// Symbols builds its map on each call: participle asks while the package's
// variables are still being initialised.
func (lexDef) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF": lexer.TokenType(tokEOF), "LParen": lexer.TokenType(tokLParen), "RParen": lexer.TokenType(tokRParen),
		"Name": lexer.TokenType(tokName), "Var": lexer.TokenType(tokVar), "Keyword": lexer.TokenType(tokKeyword),
		"Dash": lexer.TokenType(tokDash), "Invalid": lexer.TokenType(tokInvalid), "Body": lexer.TokenType(tokBody),
	}
}

func (lexDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return newScanner(filename, b), nil
}

// token is the scanner's own compact token: no file name, no value (the
// parser slices it from the source), 32-bit positions and no pointers, so
// a window of them costs the garbage collector nothing and copying one is
// cheap. It is padded to 32 bytes: a 20- or 24-byte value is copied with
// two overlapping 16-byte moves, and reading such a copy back at once
// stalls the CPU (the load spans two stores, which the store buffer cannot
// forward); 32 bytes are two moves that do not overlap.
type token struct {
	off  int32 // in the file
	n    int32 // length in bytes
	line int32
	col  int32
	typ  tokType
	_    [15]byte
}

// text is the token's value.
func (s *scanner) text(t token) string {
	return s.src[int(t.off)-s.base : int(t.off)-s.base+int(t.n)]
}

// setRange sets *r to the token's range, field by field.
func (t *token) setRange(r *Range) {
	r.Start = Pos{Offset: t.off, Line: t.line, Col: t.col}
	r.End = Pos{Offset: t.off + t.n, Line: t.line, Col: t.col + t.n}
}

func (t *token) pos() Pos { return Pos{Offset: t.off, Line: t.line, Col: t.col} }

// rng is the token's source range; tokens other than sections never span lines.
func (t *token) rng() Range {
	n := t.n
	return Range{Start: t.pos(), End: Pos{Offset: t.off + n, Line: t.line, Col: t.col + n}}
}

// scanner scans src[off:end]. The file-level scanner groups sections into
// tokSection tokens; a section scanner yields the section's tokens one by
// one. Comments go to a shared list so the formatter can put them back.
type scanner struct {
	filename string
	src      string // the source as a string so token values share its memory
	off, end int
	base     int // offset of src[0] in the file
	line     int
	lineOff  int // offset of the current line's first byte
	// header is set for the file-level scanner: it yields the header's
	// tokens, then the rest of the file as one tokBody token.
	header   bool
	depth    int  // parenthesis depth, tracked in header mode
	closed   bool // a ')' has brought the depth back to 1: the header ended
	comments *[]Comment
}

// newScanner scans b without copying it: token values, and so the names in
// the AST, point into b, which the caller must not modify afterwards.
//
// A UTF-8 byte-order mark at the start, which some editors write, is
// skipped: columns on the first line count from after it, as an editor
// shows them.
func newScanner(filename string, b []byte) *scanner {
	s := new(scanner)
	s.init(filename, b, new([]Comment))
	return s
}

// init readies s to scan b, recording comments in *comments.
func (s *scanner) init(filename string, b []byte, comments *[]Comment) {
	*s = scanner{filename: filename, src: unsafe.String(unsafe.SliceData(b), len(b)), end: len(b), line: 1, header: true, comments: comments}
	if len(s.src) >= 3 && s.src[:3] == bom {
		s.off, s.lineOff = 3, 3
	}
}

// bom is the UTF-8 byte-order mark.
const bom = "\xEF\xBB\xBF"

// Next implements participle's lexer.Lexer.
func (s *scanner) Next() (lexer.Token, error) {
	t := s.scan()
	return lexer.Token{Type: lexer.TokenType(t.typ), Value: s.text(t), Pos: lexer.Position{
		Filename: s.filename, Offset: int(t.off), Line: int(t.line), Column: int(t.col)}}, nil
}

// nameByte reports whether c may appear in a name. The reference splits on
// whitespace and parentheses only; we are stricter so stray characters such
// as '\' get a precise error instead of becoming part of a name.
var nameByte = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for _, c := range "_.-*+'&/@#" {
		t[c] = true
	}
	return t
}()

// nameLen returns the length of the name starting at s.src[i:].
func (s *scanner) nameLen(i int) int {
	j := i
	for j < s.end {
		c := s.src[j]
		if c < utf8.RuneSelf {
			if !nameByte[c] {
				break
			}
			j++
			continue
		}
		r, n := utf8.DecodeRuneInString(s.src[j:s.end])
		if r == utf8.RuneError || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			break
		}
		j += n
	}
	return j - i
}

// skipSpace skips white space and comments, recording the comments when
// record is set.
func (s *scanner) skipSpace(record bool) {
	for s.off < s.end {
		c := s.src[s.off]
		if c > ' ' && c != ';' {
			return
		}
		switch c {
		case '\n':
			s.off++
			s.line++
			s.lineOff = s.off
		case ' ', '\t', '\r', '\f', '\v':
			s.off++
		case ';':
			start := s.off
			for s.off < s.end && s.src[s.off] != '\n' {
				s.off++
			}
			if record {
				s.comment(start)
			}
		default:
			return
		}
	}
}

func (s *scanner) comment(start int) {
	text := s.src[start:s.off]
	// Trailing blanks, and the '\r's of CRLF (or worse) line ends, are not
	// part of the comment: the formatter would otherwise print them back.
	for len(text) > 1 && (text[len(text)-1] == '\r' || text[len(text)-1] == ' ' || text[len(text)-1] == '\t') {
		text = text[:len(text)-1]
	}
	col, off, n, line := int32(start-s.lineOff+1), int32(s.base+start), int32(len(text)), int32(s.line)
	*s.comments = append(*s.comments, Comment{Text: text, Range: Range{
		Start: Pos{Offset: off, Line: line, Col: col},
		End:   Pos{Offset: off + n, Line: line, Col: col + n}}})
}

// blanks8 is eight ' ' bytes read as one little-endian word.
const blanks8 = 0x2020202020202020

// scanTokens appends tokens to toks until it is full but for room for
// the lookahead's padding, or until the input ends, the last token
// appended then being EOF.
//
// It is the parser's hot loop: white space, parentheses and ASCII names,
// nearly every byte of a definition, are scanned here with the scanner's
// state in locals; anything else (a comment, a non-ASCII byte, a stray
// character) goes through scanInto, which handles every case.
func (s *scanner) scanTokens(toks []token) []token {
	src := s.src[:s.end]
	b := unsafe.Slice(unsafe.StringData(src), len(src))
	off, line, lineOff := s.off, s.line, s.lineOff
	for len(toks) < cap(toks)-lookahead {
		// White space; a run of blanks (indentation, mostly) eight bytes
		// at a time, its end found from the first byte that differs.
	space:
		for off < len(src) {
			c := src[off]
			if c == ' ' {
				off++
				if off < len(b) && b[off] == ' ' {
					// A run: the rest of it a word at a time while
					// eight bytes remain, then byte by byte.
					for off+8 <= len(b) {
						if w := binary.LittleEndian.Uint64(b[off:]) ^ blanks8; w != 0 {
							off += bits.TrailingZeros64(w) >> 3
							continue space
						}
						off += 8
					}
				}
				continue
			}
			if c == '\n' {
				off++
				line++
				lineOff = off
				continue
			}
			if c == '\t' || c == '\r' {
				off++
				continue
			}
			break
		}
		toks = toks[:len(toks)+1]
		t := &toks[len(toks)-1]
		t.off, t.line, t.col = int32(s.base+off), int32(line), int32(off-lineOff+1)
		if off >= len(src) {
			t.typ, t.n = tokEOF, 0
			break
		}
		c := src[off]
		switch {
		case s.header: // the general case below
		case c == '(':
			t.typ, t.n = tokLParen, 1
			off++
			continue
		case c == ')':
			t.typ, t.n = tokRParen, 1
			off++
			continue
		case nameByte[c] && c != '-', c == '?' || c == ':':
			j := off + 1
			for j < len(src) && nameByte[src[j]] {
				j++
			}
			if j == len(src) || src[j] < utf8.RuneSelf {
				t.typ, t.n = tokName, int32(j-off)
				if c == '?' {
					t.typ = tokVar
				} else if c == ':' {
					t.typ = tokKeyword
				}
				off = j
				continue
			}
		}
		// The general case, with the state handed back and forth.
		s.off, s.line, s.lineOff = off, line, lineOff
		s.scanInto(t)
		off, line, lineOff = s.off, s.line, s.lineOff
		if t.typ == tokEOF {
			break
		}
	}
	s.off, s.line, s.lineOff = off, line, lineOff
	return toks
}

func (s *scanner) scan() token {
	var t token
	s.scanInto(&t)
	return t
}

// scanInto scans the next token into *t, which lets the section parser
// fill its lookahead buffer in place.
func (s *scanner) scanInto(t *token) {
	s.skipSpace(true)
	t.off, t.line, t.col = int32(s.base+s.off), int32(s.line), int32(s.off-s.lineOff+1)
	if s.off >= s.end {
		t.typ, t.n = tokEOF, 0
		return
	}
	c := s.src[s.off]
	if s.header && s.closed && s.depth == 1 {
		t.typ, t.n = tokBody, int32(s.end-s.off)
		s.off = s.end
		return
	}
	n := 1
	switch {
	case c == '(':
		t.typ = tokLParen
		s.depth++
	case c == ')':
		t.typ = tokRParen
		s.depth--
		s.closed = true
	case c == '?':
		t.typ, n = tokVar, 1+s.nameLen(s.off+1)
	case c == ':':
		t.typ, n = tokKeyword, 1+s.nameLen(s.off+1)
	case c == '-' && s.nameLen(s.off+1) == 0:
		t.typ = tokDash
	default:
		if n = s.nameLen(s.off); n > 0 {
			t.typ = tokName
		} else {
			t.typ, n = tokInvalid, s.invalidLen(s.off)
		}
	}
	t.n = int32(n)
	s.off += n
}

// invalidLen groups a run of bytes that start no token, so one stray
// character or one broken UTF-8 sequence gives one error.
func (s *scanner) invalidLen(i int) int {
	j := i
	for j < s.end {
		c := s.src[j]
		if c == '(' || c == ')' || c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '?' || c == ':' {
			break
		}
		if s.nameLen(j) > 0 {
			break
		}
		if c < utf8.RuneSelf {
			j++
			continue
		}
		_, n := utf8.DecodeRuneInString(s.src[j:s.end])
		j += n
	}
	if j == i {
		j = i + 1
	}
	return j - i
}
