package bddl

import (
	"fmt"
	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"sync"
)

// The participle grammar describes a file's skeleton:
//
//	File = "(" "define" "(" ("problem" | "domain") Name ")" Body
//	Body = Section* ")" Rest
//
// The lexer hands participle the whole body, everything after the header,
// as one token: participle materialises every token of a file (64 bytes
// each) before parsing, which would cost more than the parsing itself.
// Body implements participle.Parseable and parses sections by hand-written
// recursive descent over its own scanner, allocating little more than the
// public AST and recovering from errors so one run reports every
// independent problem. Participle never appears in the public API.
type gFile struct {
	Pos    lexer.Position
	Kind   string `parser:"'(' 'define' '(' @('problem' | 'domain')"`
	Name   *gName `parser:"@@ ')'"`
	Body   *gBody `parser:"@@?"`
	EndPos lexer.Position
}

type gName struct {
	Pos   lexer.Position
	Value string `parser:"@Name"`
}

// gBody is everything after the header: the sections, the ')' closing
// (define ...), and whatever follows it.
type gBody struct {
	sections []*gSection
	closed   bool // the ')' of (define ...) was found
	end      Pos  // just after that ')', or the end of input
	arena    arena
	spare    []gSection // storage for sections, when the parser provides it
	ndiags   int        // diagnostics recorded so far
	discard  Diagnostic // handed out once the budget is spent
}

// newSection returns storage for the next section.
func (b *gBody) newSection() *gSection {
	if len(b.spare) < cap(b.spare) {
		b.spare = b.spare[:len(b.spare)+1]
		return &b.spare[len(b.spare)-1]
	}
	return &gSection{}
}

// gSection is one "(:keyword ...)" section, or stray tokens outside any
// section, with the diagnostics and comments found while parsing it.
type gSection struct {
	keyword  Ident
	key      string // the keyword folded, as sections are compared
	rng      Range
	objects  []*ObjectDecl
	forms    []Formula
	names    []Ident
	preds    []*PredicateDecl
	diags    Diagnostics
	comments []Comment
	stray    bool // not a section: an error was recorded and tokens skipped
	body     *gBody
	// goalBroken is set when the first element of a (:goal ...) is not a
	// formula; goalFirstDiags counts the diagnostics up to its end, so
	// later ones are about what the reference never reads.
	goalBroken     bool
	goalFirstDiags int
}

func (s *gSection) errorf(r Range, code, summary, detail string) *Diagnostic {
	if b := s.body; b != nil {
		// Past a budget well above what is shown, diagnostics are not
		// kept, so no input makes a parse hold one per byte; a marker
		// says the report stops here.
		b.ndiags++
		switch {
		case b.ndiags > maxRecorded:
			b.discard = Diagnostic{}
			return &b.discard
		case b.ndiags == maxRecorded:
			summary = fmt.Sprintf("too many errors; stopped reporting after %d", maxRecorded)
			code, detail = codeTooManyErrors, "fix these first; later errors are often consequences of earlier ones"
		}
	}
	d := &Diagnostic{Severity: Error, Code: code, Summary: summary, Detail: detail, Subject: r}
	s.diags = append(s.diags, d)
	return d
}

// maxRecorded is how many diagnostics a parse records before it stops;
// finish shows at most maxErrors of them, one per line.
const maxRecorded = 10 * maxErrors

// countErrorf reports a parenthesis error that shows only where the count of
// parentheses runs out; ParseFile may replace it with one the layout places.
func (s *gSection) countErrorf(r Range, code, summary, detail string) *Diagnostic {
	d := s.errorf(r, code, summary, detail)
	d.byCount = true
	return d
}

// Parse parses the body token; participle calls it when the grammar of
// record parses a whole file (in tests), with its own scanner over the body.
func (b *gBody) Parse(lex *lexer.PeekingLexer) error {
	t := lex.Peek()
	if t.Type != lexer.TokenType(tokBody) {
		return participle.NextMatch
	}
	lex.Next()
	var comments []Comment
	sc := &scanner{filename: t.Pos.Filename, src: t.Value, end: len(t.Value), base: t.Pos.Offset,
		line: t.Pos.Line, lineOff: 1 - t.Pos.Column, comments: &comments}
	p := &sectionParser{arena: &b.arena}
	p.start(sc, nil)
	p.body(b)
	// Comments of the whole body are kept with the first section so that
	// lowering finds them in one place.
	if len(comments) > 0 {
		if len(b.sections) == 0 {
			b.sections = append(b.sections, &gSection{stray: true})
		}
		b.sections[0].comments = comments
	}
	return nil
}

// fileParser builds the grammar of record on first use: ParseFile runs the
// hand-written fast path, so a process that only parses pays nothing for
// participle's reflection at start-up.
var fileParser = sync.OnceValue(func() *participle.Parser[gFile] {
	return participle.MustBuild[gFile](
		participle.Lexer(lexDef{}),
		participle.CaseInsensitive("Name"),
	)
})
