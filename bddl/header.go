package bddl

import (
	"strconv"
	"unicode/utf8"
)

// header is a definition's opening, "(define (problem NAME)" or
// "(define (domain NAME)", as the hand-written parser reads it. The
// participle grammar in grammar.go is the grammar of record; this is its
// fast path, and a test holds the two to the same language.
type header struct {
	open     token  // the '(' of (define
	kind     string // "problem" or "domain", folded
	name     token
	nameText string
	end      Pos // just after the header's ')'
}

// header reads the header token by token and stops at the first token that
// does not fit, so a file that is not a definition costs one token of
// work, however long it is.
func (p *sectionParser) header() (header, *Diagnostic) {
	var h header
	want := func(typ tokType, word1, word2 string) (token, bool) {
		t := p.next()
		if t.typ != typ {
			return t, false
		}
		if word1 != "" {
			switch Fold(p.val(&t)) {
			case word1, word2:
			default:
				return t, false
			}
		}
		return t, true
	}
	var t token
	var ok bool
	if h.open, ok = want(tokLParen, "", ""); !ok {
		return h, p.headerDiag(h.open)
	}
	if t, ok = want(tokName, "define", "define"); !ok {
		return h, p.headerDiag(t)
	}
	if t, ok = want(tokLParen, "", ""); !ok {
		return h, p.headerDiag(t)
	}
	if t, ok = want(tokName, "problem", "domain"); !ok {
		return h, p.headerDiag(t)
	}
	h.kind = Fold(p.val(&t))
	kind := t
	if h.name, ok = want(tokName, "", ""); !ok {
		if h.name.line > kind.line && h.name.typ == tokRParen {
			// "(problem" ends its line: the name is missing there.
			return h, &Diagnostic{Severity: Error, Code: codeUnexpectedToken, Subject: kind.rng(),
				Summary: "(" + p.val(&kind) + " has no name", Detail: "write (" + p.val(&kind) + " NAME)"}
		}
		return h, p.headerDiag(h.name)
	}
	h.nameText = p.val(&h.name)
	if t, ok = want(tokRParen, "", ""); !ok {
		return h, p.headerDiag(t)
	}
	h.end = Pos{Offset: t.off + 1, Line: t.line, Col: t.col + 1}
	return h, nil
}

// headerDiag describes the first token that does not fit a header.
func (p *sectionParser) headerDiag(t token) *Diagnostic {
	d := &Diagnostic{Severity: Error, Code: codeUnexpectedToken, Subject: t.rng(),
		Detail: "a definition starts with (define (problem NAME) or (define (domain NAME)"}
	switch {
	case t.typ == tokInvalid && !utf8.ValidString(p.val(&t)):
		d.Code, d.Summary = codeInvalidUTF8, "invalid UTF-8 bytes"
		d.Detail = "BDDL files are UTF-8 text; remove or re-encode these bytes"
	case t.typ == tokInvalid:
		d.Code, d.Summary = codeInvalidChar, "unexpected character "+strconv.Quote(p.val(&t))
	default:
		d.Summary = "unexpected " + p.describe(t) + " in the definition's header"
	}
	return d
}

// body parses the sections after the header, the ')' closing (define ...),
// and whatever follows it, recovering from errors so one run reports every
// independent problem.
func (p *sectionParser) body(b *gBody) {
	for {
		t := p.peek()
		if t.typ == tokEOF {
			if !b.closed {
				b.end = t.pos()
			}
			return
		}
		if b.sections == nil {
			b.sections = make([]*gSection, 0, 4)
		}
		if t.typ == tokRParen && !b.closed {
			p.next()
			b.closed = true
			b.end = Pos{Offset: t.off + 1, Line: t.line, Col: t.col + 1}
			continue
		}
		// Stray tokens in a row share one section, so a file of them
		// costs a diagnostic each and no more.
		var s *gSection
		if n := len(b.sections); n > 0 && b.sections[n-1].stray && !p.atSection() {
			s = b.sections[n-1]
		} else {
			s = b.newSection()
			s.body = b
			b.sections = append(b.sections, s)
		}
		p.sec, p.unwinding = s, false
		switch {
		case t.typ == tokRParen:
			p.next()
			s.stray = true
			s.countErrorf(t.rng(), codeExtraParen, "extra ')' after the end of the definition",
				"delete this ')': the (define ...) form is already closed")
		case p.atSection():
			p.section()
			if b.closed {
				s.countErrorf(s.keyword.Range, codeOutsideDefine, "section "+s.keyword.Name+" is outside (define ...)",
					"an extra ')' earlier in the file closed (define ...) too soon; delete it")
			}
		case t.typ == tokLParen:
			s.stray = true
			d := s.countErrorf(t.rng(), codeUnexpectedToken, "expected a section such as (:init ...) here",
				"an extra ')' before this point may have closed the enclosing section too soon")
			if !b.closed && p.toks[p.i+1].typ != tokRParen {
				d.reference = "the reference ignores this form"
			}
			p.skipElement()
		default:
			s.stray = true
			d := p.badToken(t, "a section such as (:goal ...)")
			if !b.closed && d.Code != codeInvalidUTF8 {
				d.reference = "the reference skips it"
			}
			p.next()
		}
	}
}
