package bddl

import (
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar describes a file's skeleton:
//
//	File    = "(" "define" "(" ("problem" | "domain") Name ")" Section* [")"] Stray*
//	Section = "(" Keyword ... ")"
//
// Sections implement participle.Parseable: they hold nearly every byte of a
// file, so they are parsed by hand-written recursive descent that allocates
// only the public AST, and they recover from errors so that one run reports
// every independent problem. Participle never appears in the public API.
type gFile struct {
	Pos      lexer.Position
	Kind     string       `parser:"'(' 'define' '(' @('problem' | 'domain')"`
	Name     *gName       `parser:"@@ ')'"`
	Sections []*gSection  `parser:"@@*"`
	Close    *gClose      `parser:"@@?"`
	Stray    []*gTrailing `parser:"@@*"`
	EndPos   lexer.Position
}

type gName struct {
	Pos   lexer.Position
	Value string `parser:"@Name"`
}

type gClose struct {
	Pos   lexer.Position
	Paren string `parser:"@')'"`
}

// gSection is one "(:keyword ...)" section, or a stray token between
// sections, with the diagnostics found while parsing it.
type gSection struct {
	keyword Ident
	rng     Range
	objects []*ObjectDecl
	forms   []Formula
	names   []Ident
	preds   []*PredicateDecl
	diags   Diagnostics
	stray   bool // not a section: an error was recorded and tokens skipped
}

// Parse parses one section. It returns NextMatch at ")" or the end of input
// so participle can match the closing parenthesis of (define ...).
func (s *gSection) Parse(lex *lexer.PeekingLexer) error {
	if t := lex.Peek(); t.Type == tokRParen || t.EOF() {
		return participle.NextMatch
	}
	p := sectionParser{lex: lex, sec: s}
	p.section()
	return nil
}

// gTrailing is anything after the closing ")" of (define ...): a section
// that an extra ")" pushed out of the definition, or stray tokens. Parsing
// it anyway keeps the rest of the file's diagnostics and AST.
type gTrailing struct {
	gSection
}

func (s *gTrailing) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.EOF() {
		return participle.NextMatch
	}
	p := sectionParser{lex: lex, sec: &s.gSection}
	if t.Type == tokRParen {
		tok := lex.Next()
		p.errorf(tokRange(tok), codeExtraParen, "extra ')' after the end of the definition",
			"delete this ')': the (define ...) form is already closed")
		s.stray = true
		return nil
	}
	p.section()
	if !s.stray {
		p.errorf(s.keyword.Range, codeOutsideDefine,
			"section "+s.keyword.Name+" is outside (define ...)",
			"an extra ')' earlier in the file closed (define ...) too soon; delete it")
	}
	return nil
}

var fileParser = participle.MustBuild[gFile](
	participle.Lexer(lexDef{}),
	participle.CaseInsensitive("Name"),
)
