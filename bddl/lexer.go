package bddl

import (
	"io"
	"unicode"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// Token types of the hand-written lexer. Participle's regex lexers allocate
// per token and dominate parse time; this one scans bytes once and slices
// token values out of the source without copying.
const (
	tokEOF     = lexer.EOF
	tokLParen  = lexer.TokenType(iota + 1) // (
	tokRParen                              // )
	tokName                                // apple.n.01_1, kitchen, and, 2
	tokVar                                 // ?apple.n.01, ?x
	tokKeyword                             // :init
	tokDash                                // a lone - in :objects
	tokInvalid                             // any byte run that is not BDDL
)

// lexDef is the participle lexer definition.
type lexDef struct{}

// Symbols builds its map on each call: participle asks while the package's
// variables are still being initialised.
func (lexDef) Symbols() map[string]lexer.TokenType {
	return map[string]lexer.TokenType{
		"EOF": tokEOF, "LParen": tokLParen, "RParen": tokRParen, "Name": tokName,
		"Var": tokVar, "Keyword": tokKeyword, "Dash": tokDash, "Invalid": tokInvalid,
	}
}

func (lexDef) Lex(filename string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	return newScanner(filename, b), nil
}

func (lexDef) LexBytes(filename string, b []byte) (lexer.Lexer, error) {
	return newScanner(filename, b), nil
}

func (lexDef) LexString(filename string, s string) (lexer.Lexer, error) {
	return newScanner(filename, []byte(s)), nil
}

// scanner produces tokens for participle and keeps comments aside, so the
// grammar never sees them but the formatter can put them back.
type scanner struct {
	filename string
	src      string // the source as a string so token values share its memory
	off      int
	line     int
	lineOff  int // offset of the current line's first byte
	comments []Comment
}

func newScanner(filename string, b []byte) *scanner {
	return &scanner{filename: filename, src: string(b), line: 1}
}

func (s *scanner) pos() lexer.Position {
	return lexer.Position{Filename: s.filename, Offset: s.off, Line: s.line, Column: s.off - s.lineOff + 1}
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
	for j < len(s.src) {
		c := s.src[j]
		if c < utf8.RuneSelf {
			if !nameByte[c] {
				break
			}
			j++
			continue
		}
		r, n := utf8.DecodeRuneInString(s.src[j:])
		if r == utf8.RuneError || !(unicode.IsLetter(r) || unicode.IsDigit(r)) {
			break
		}
		j += n
	}
	return j - i
}

func (s *scanner) Next() (lexer.Token, error) {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == '\n':
			s.off++
			s.line++
			s.lineOff = s.off
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			s.off++
			continue
		case c == ';':
			start := s.pos()
			end := s.off
			for end < len(s.src) && s.src[end] != '\n' {
				end++
			}
			text := s.src[s.off:end]
			if end > s.off && text[len(text)-1] == '\r' {
				text = text[:len(text)-1]
			}
			s.comments = append(s.comments, Comment{Text: text, Range: Range{
				Start: posOf(start), End: Pos{Offset: start.Offset + len(text), Line: start.Line, Col: start.Column + len(text)}}})
			s.off = end
			continue
		}
		start := s.pos()
		var typ lexer.TokenType
		n := 1
		switch {
		case c == '(':
			typ = tokLParen
		case c == ')':
			typ = tokRParen
		case c == '?':
			typ, n = tokVar, 1+s.nameLen(s.off+1)
		case c == ':':
			typ, n = tokKeyword, 1+s.nameLen(s.off+1)
		case c == '-' && s.nameLen(s.off+1) == 0:
			typ = tokDash
		default:
			if n = s.nameLen(s.off); n > 0 {
				typ = tokName
			} else {
				typ, n = tokInvalid, s.invalidLen(s.off)
			}
		}
		tok := lexer.Token{Type: typ, Value: s.src[s.off : s.off+n], Pos: start}
		s.off += n
		return tok, nil
	}
	return lexer.EOFToken(s.pos()), nil
}

// invalidLen groups a run of bytes that start no token, so one stray
// character or one broken UTF-8 sequence gives one error.
func (s *scanner) invalidLen(i int) int {
	j := i
	for j < len(s.src) {
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
		_, n := utf8.DecodeRuneInString(s.src[j:])
		j += n
	}
	if j == i {
		j = i + 1
	}
	return j - i
}

func posOf(p lexer.Position) Pos { return Pos{Offset: p.Offset, Line: p.Line, Col: p.Column} }

// tokRange is the source range of a token; tokens never span lines.
func tokRange(t *lexer.Token) Range {
	start := posOf(t.Pos)
	return Range{Start: start, End: Pos{Offset: start.Offset + len(t.Value), Line: start.Line, Col: start.Col + len(t.Value)}}
}
