package bddl

import (
	"fmt"
	"strconv"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2/lexer"
)

// sectionParser is a recursive-descent parser for the body of one section.
// On an error it records a diagnostic and skips to a point where parsing can
// resume: the end of the broken element, or the next section.
type sectionParser struct {
	lex *lexer.PeekingLexer
	sec *gSection
	// unwinding is set once a ')' was found missing at the end of input or
	// before the next section: enclosing lists then close silently, so one
	// missing ')' gives one diagnostic.
	unwinding bool
	scope     []string // folded names of the variables bound here
}

func (p *sectionParser) errorf(r Range, code, summary, detail string) {
	p.sec.diags = append(p.sec.diags, &Diagnostic{Severity: Error, Code: code, Summary: summary, Detail: detail, Subject: r})
}

// peek2 returns the token after the next one.
func (p *sectionParser) peek2() *lexer.Token {
	cp := p.lex.MakeCheckpoint()
	p.lex.Next()
	t := p.lex.Peek()
	p.lex.LoadCheckpoint(cp)
	return t
}

// atSection reports whether the next tokens start a new section: "(:".
// Keywords appear nowhere else, so this is where a parser resynchronises.
func (p *sectionParser) atSection() bool {
	return p.lex.Peek().Type == tokLParen && p.peek2().Type == tokKeyword
}

// atListEnd reports whether a list of elements ends here.
func (p *sectionParser) atListEnd() bool {
	t := p.lex.Peek()
	return p.unwinding || t.Type == tokRParen || t.EOF() || p.atSection()
}

func describe(t *lexer.Token) string {
	switch t.Type {
	case tokEOF:
		return "end of file"
	case tokLParen:
		return "'('"
	case tokRParen:
		return "')'"
	case tokDash:
		return "'-'"
	case tokKeyword:
		return "keyword " + t.Value
	case tokVar:
		return "variable " + t.Value
	case tokName:
		return "name " + strconv.Quote(t.Value)
	}
	return strconv.Quote(t.Value)
}

// badToken reports a token that does not belong here, naming invalid
// characters and bytes precisely.
func (p *sectionParser) badToken(t *lexer.Token, expected string) {
	switch {
	case t.Type == tokInvalid && !utf8.ValidString(t.Value):
		p.errorf(tokRange(t), codeInvalidUTF8, "invalid UTF-8 bytes",
			"BDDL files are UTF-8 text; remove or re-encode these bytes")
	case t.Type == tokInvalid:
		p.errorf(tokRange(t), codeInvalidChar, fmt.Sprintf("unexpected character %s", strconv.Quote(t.Value)),
			"delete it: BDDL names use letters, digits and _ . - * only")
	default:
		p.errorf(tokRange(t), codeUnexpectedToken, fmt.Sprintf("unexpected %s; expected %s", describe(t), expected), "")
	}
}

// close consumes the ')' that closes the form opened by open and returns the
// end of the form. what names the form in messages, e.g. "(and".
func (p *sectionParser) close(open *lexer.Token, what string) Pos {
	for {
		t := p.lex.Peek()
		if t.Type == tokRParen {
			p.lex.Next()
			return Pos{Offset: t.Pos.Offset + 1, Line: t.Pos.Line, Col: t.Pos.Column + 1}
		}
		if p.unwinding {
			return posOf(t.Pos)
		}
		if t.EOF() || p.atSection() {
			where := "before the end of the file"
			if !t.EOF() {
				where = "before the next section starts at " + posOf(t.Pos).String()
			}
			p.errorf(tokRange(open), codeUnclosedParen, fmt.Sprintf("%s is not closed %s", what, where),
				"add the missing ')'; every '(' needs a matching ')'")
			p.unwinding = true
			return posOf(t.Pos)
		}
		p.badToken(t, "')' to close "+what+" opened at "+posOf(open.Pos).String())
		p.skipElement()
	}
}

// skipElement skips one token, or a whole parenthesised element, without
// crossing into the next section.
func (p *sectionParser) skipElement() {
	t := p.lex.Next()
	if t.Type != tokLParen {
		return
	}
	depth := 1
	for depth > 0 {
		t := p.lex.Peek()
		if t.EOF() || p.atSection() {
			return
		}
		p.lex.Next()
		switch t.Type {
		case tokLParen:
			depth++
		case tokRParen:
			depth--
		}
	}
}

func (p *sectionParser) section() {
	s := p.sec
	open := p.lex.Peek()
	if open.Type != tokLParen {
		s.stray = true
		p.badToken(open, "a section such as (:goal ...)")
		p.lex.Next()
		return
	}
	if kw := p.peek2(); kw.Type != tokKeyword {
		s.stray = true
		p.errorf(tokRange(open), codeUnexpectedToken, fmt.Sprintf("expected a section keyword such as :init after '(', found %s", describe(kw)),
			"an extra ')' before this point may have closed the enclosing section too soon")
		p.skipElement()
		return
	}
	p.lex.Next()
	kw := p.lex.Next()
	s.keyword = Ident{Name: kw.Value, Range: tokRange(kw)}
	switch Fold(kw.Value) {
	case ":objects":
		p.objects()
	case ":init", ":goal":
		for !p.atListEnd() {
			if f := p.formula(1); f != nil {
				s.forms = append(s.forms, f)
			}
		}
	case ":domain":
		for !p.atListEnd() {
			t := p.lex.Next()
			if t.Type != tokName {
				p.badToken(t, "a domain name")
				continue
			}
			s.names = append(s.names, Ident{Name: t.Value, Range: tokRange(t)})
		}
	case ":requirements":
		for !p.atListEnd() {
			t := p.lex.Next()
			if t.Type != tokKeyword {
				p.badToken(t, "a requirement such as :strips")
				continue
			}
			s.names = append(s.names, Ident{Name: t.Value, Range: tokRange(t)})
		}
	case ":predicates":
		p.predicateDecls()
	default:
		p.errorf(s.keyword.Range, codeUnknownSection, fmt.Sprintf("unknown section %s", kw.Value),
			"problems have :domain, :objects, :init and :goal; domains have :requirements and :predicates")
		for !p.atListEnd() {
			p.skipElement()
		}
	}
	s.rng = Range{Start: posOf(open.Pos), End: p.close(open, "("+kw.Value)}
}

func (p *sectionParser) objects() {
	var pending []Ident
	flush := func() {
		if len(pending) == 0 {
			return
		}
		names := pending[0].Name
		if len(pending) > 1 {
			names += fmt.Sprintf(" and %d more", len(pending)-1)
		}
		p.errorf(Range{Start: pending[0].Range.Start, End: pending[len(pending)-1].Range.End}, codeMissingType,
			"instances without a type: "+names, "add '- SYNSET' after them, e.g. apple.n.01_1 - apple.n.01")
		pending = nil
	}
	for !p.atListEnd() {
		t := p.lex.Peek()
		switch t.Type {
		case tokName:
			p.lex.Next()
			pending = append(pending, Ident{Name: t.Value, Range: tokRange(t)})
		case tokDash:
			p.lex.Next()
			typ := p.lex.Peek()
			if typ.Type != tokName {
				p.errorf(tokRange(t), codeMissingType, "'-' is not followed by a type",
					"write the synset after '-', e.g. apple.n.01_1 - apple.n.01")
				pending = nil
				continue
			}
			p.lex.Next()
			if len(pending) == 0 {
				p.errorf(tokRange(t), codeBareDash, "'-' has no instances before it",
					"list the instances before '-', e.g. apple.n.01_1 apple.n.01_2 - apple.n.01")
				continue
			}
			p.sec.objects = append(p.sec.objects, &ObjectDecl{
				Instances: pending,
				Type:      Ident{Name: typ.Value, Range: tokRange(typ)},
				Range:     Range{Start: pending[0].Range.Start, End: tokRange(typ).End},
			})
			pending = nil
		default:
			p.badToken(t, "an instance name or '-'")
			p.skipElement()
		}
	}
	flush()
}

func (p *sectionParser) predicateDecls() {
	for !p.atListEnd() {
		open := p.lex.Peek()
		if open.Type != tokLParen {
			p.badToken(open, "a predicate declaration such as (ontop ?obj1 ?obj2)")
			p.lex.Next()
			continue
		}
		p.lex.Next()
		name := p.lex.Peek()
		if name.Type != tokName {
			p.badToken(name, "a predicate name")
			p.skipRest(open)
			continue
		}
		p.lex.Next()
		d := &PredicateDecl{Name: Ident{Name: name.Value, Range: tokRange(name)}}
		for !p.atListEnd() {
			t := p.lex.Next()
			if t.Type != tokVar || len(t.Value) < 2 {
				p.badToken(t, "a parameter such as ?obj1")
				continue
			}
			d.Params = append(d.Params, Ident{Name: t.Value[1:], Range: tokRange(t)})
		}
		d.Range = Range{Start: posOf(open.Pos), End: p.close(open, "("+name.Value)}
		p.sec.preds = append(p.sec.preds, d)
	}
}

// skipRest skips the remaining elements of a form whose head was bad, and
// its closing parenthesis.
func (p *sectionParser) skipRest(open *lexer.Token) {
	for !p.atListEnd() {
		p.skipElement()
	}
	p.close(open, "'('")
}

// formula parses one formula. It returns nil after recording an error; it
// always consumes at least one token unless the list it is in has ended.
func (p *sectionParser) formula(depth int) Formula {
	open := p.lex.Peek()
	if open.Type != tokLParen {
		p.badToken(open, "'(' to start a formula")
		p.lex.Next()
		return nil
	}
	if depth > maxDepth {
		p.errorf(tokRange(open), codeTooDeep, fmt.Sprintf("formula nested more than %d levels deep", maxDepth),
			"simplify the formula; real definitions nest about ten levels")
		p.skipElement()
		return nil
	}
	p.lex.Next()
	head := p.lex.Peek()
	if head.Type != tokName {
		if head.Type == tokRParen {
			p.lex.Next()
			p.errorf(Range{Start: posOf(open.Pos), End: tokRange(head).End}, codeEmptyFormula, "empty formula ()",
				"write a literal such as (ontop ?a ?b) or delete the parentheses")
			return nil
		}
		p.badToken(head, "a predicate or a connective such as and, or, not, forall")
		p.skipRest(open)
		return nil
	}
	p.lex.Next()
	switch Fold(head.Value) {
	case "and":
		n := &And{Xs: p.operands(depth)}
		n.Range = Range{Start: posOf(open.Pos), End: p.close(open, "(and")}
		return n
	case "or":
		n := &Or{Xs: p.operands(depth)}
		n.Range = Range{Start: posOf(open.Pos), End: p.close(open, "(or")}
		return n
	case "not":
		xs := p.operands(depth)
		n := &Not{}
		n.Range = Range{Start: posOf(open.Pos), End: p.close(open, "(not")}
		if !p.arity(n.Range, "not", xs, 1, "(not (cooked ?x))") {
			return nil
		}
		n.X = xs[0]
		return n
	case "imply":
		xs := p.operands(depth)
		n := &Imply{}
		n.Range = Range{Start: posOf(open.Pos), End: p.close(open, "(imply")}
		if !p.arity(n.Range, "imply", xs, 2, "(imply (cooked ?x) (hot ?x))") {
			return nil
		}
		n.If, n.Then = xs[0], xs[1]
		return n
	case "forall":
		return p.quant(open, head, Forall, depth)
	case "exists":
		return p.quant(open, head, Exists, depth)
	case "forn":
		return p.quant(open, head, ForN, depth)
	case "forpairs":
		return p.quant(open, head, ForPairs, depth)
	case "fornpairs":
		return p.quant(open, head, ForNPairs, depth)
	}
	return p.atom(open, head)
}

func (p *sectionParser) operands(depth int) []Formula {
	var xs []Formula
	for !p.atListEnd() {
		if f := p.formula(depth + 1); f != nil {
			xs = append(xs, f)
		}
	}
	return xs
}

// arity checks a connective's operand count. A count made wrong only by
// operands that failed to parse (and were reported) is not reported again.
func (p *sectionParser) arity(r Range, op string, xs []Formula, want int, example string) bool {
	if len(xs) == want {
		return true
	}
	if len(xs) < want && p.hasErrorsIn(r) {
		return false
	}
	p.errorf(r, codeOperandCount, fmt.Sprintf("(%s ...) takes %d formula(s), found %d", op, want, len(xs)),
		"write it as "+example)
	return false
}

func (p *sectionParser) hasErrorsIn(r Range) bool {
	for _, d := range p.sec.diags {
		if d.Subject.Start.Offset >= r.Start.Offset && d.Subject.Start.Offset < r.End.Offset {
			return true
		}
	}
	return false
}

func (p *sectionParser) atom(open, head *lexer.Token) Formula {
	a := &Atom{Pred: Ident{Name: head.Value, Range: tokRange(head)}}
	end := tokRange(head).End
	for {
		t := p.lex.Peek()
		switch t.Type {
		case tokName, tokVar:
			p.lex.Next()
			term := p.term(t)
			a.Args = append(a.Args, term)
			end = term.Range.End
			continue
		case tokRParen:
			a.Range = Range{Start: posOf(open.Pos), End: p.close(open, "("+head.Value)}
			return a
		case tokLParen, tokEOF:
			// Atoms never nest: most likely this atom lacks its ')'. Close
			// it here and let the '(' start the next formula.
			if !p.unwinding {
				p.errorf(Range{Start: posOf(open.Pos), End: end}, codeUnclosedParen,
					fmt.Sprintf("(%s ... is missing its ')'", head.Value),
					"add ')' after the last argument; a predicate's arguments are names, not formulas")
			}
			a.Range = Range{Start: posOf(open.Pos), End: end}
			return a
		}
		if p.unwinding || p.atSection() {
			a.Range = Range{Start: posOf(open.Pos), End: end}
			return a
		}
		p.badToken(t, "an argument or ')'")
		p.lex.Next()
	}
}

// term classifies a name lexically: a variable when an enclosing quantifier
// binds it, else an instance when it has an instance's shape, else a
// variable if written with '?', else a constant such as a room type.
func (p *sectionParser) term(t *lexer.Token) Term {
	name, question := t.Value, t.Type == tokVar
	if question {
		name = name[1:]
	}
	term := Term{Name: name, Question: question, Range: tokRange(t)}
	switch {
	case p.bound(name):
		term.Kind = VariableTerm
	case IsInstanceName(name):
		term.Kind = InstanceTerm
	case question:
		term.Kind = VariableTerm
	default:
		term.Kind = ConstantTerm
	}
	return term
}

func (p *sectionParser) bound(name string) bool {
	key := Fold(name)
	for i := len(p.scope) - 1; i >= 0; i-- {
		if p.scope[i] == key {
			return true
		}
	}
	return false
}

var quantExamples = [...]string{
	Forall:    "(forall (?x - apple.n.01) (cooked ?x))",
	Exists:    "(exists (?x - apple.n.01) (cooked ?x))",
	ForN:      "(forn (2) (?x - apple.n.01) (cooked ?x))",
	ForPairs:  "(forpairs (?x - apple.n.01) (?y - plate.n.04) (ontop ?x ?y))",
	ForNPairs: "(fornpairs (2) (?x - apple.n.01) (?y - plate.n.04) (ontop ?x ?y))",
}

func (p *sectionParser) quant(open, head *lexer.Token, kind QuantKind, depth int) Formula {
	q := &Quant{Kind: kind}
	what := "(" + head.Value
	example := quantExamples[kind]
	ok := true
	if kind.Counted() {
		ok = p.count(q, head, example)
	}
	want := 1
	if kind.Pairs() {
		want = 2
	}
	scopeLen := len(p.scope)
	defer func() { p.scope = p.scope[:scopeLen] }()
	for len(q.Vars) < want && ok {
		d, good := p.varDecl(head, example)
		if !good {
			ok = false
			break
		}
		q.Vars = append(q.Vars, d)
		p.scope = append(p.scope, d.Var.Key())
	}
	if !ok {
		p.skipRest(open)
		return nil
	}
	xs := p.operands(depth)
	q.Range = Range{Start: posOf(open.Pos), End: p.close(open, what)}
	if !p.arity(q.Range, head.Value+" ...", xs, 1, example) {
		return nil
	}
	q.Body = xs[0]
	return q
}

// count parses the "(N)" of forn and fornpairs.
func (p *sectionParser) count(q *Quant, head *lexer.Token, example string) bool {
	open := p.lex.Peek()
	num := p.peek2()
	if open.Type != tokLParen || num.Type != tokName {
		p.errorf(tokRange(head), codeFornCount, head.Value+" needs a count in parentheses",
			"write it as "+example)
		return false
	}
	n, err := strconv.Atoi(num.Value)
	if err != nil || n < 0 {
		p.errorf(tokRange(num), codeFornCount, fmt.Sprintf("%s count %q is not a whole number", head.Value, num.Value),
			"write it as "+example)
		return false
	}
	p.lex.Next()
	p.lex.Next()
	q.N = n
	q.NRange = Range{Start: posOf(open.Pos), End: p.close(open, "the count of "+head.Value)}
	return !p.unwinding
}

// varDecl parses "(?x - type)".
func (p *sectionParser) varDecl(head *lexer.Token, example string) (VarDecl, bool) {
	open := p.lex.Peek()
	v := p.peek2()
	if open.Type != tokLParen || v.Type != tokVar {
		p.errorf(tokRange(head), codeMissingDecl, head.Value+" has no variable declaration",
			"declare the variable before the body: "+example)
		return VarDecl{}, false
	}
	p.lex.Next()
	p.lex.Next()
	d := VarDecl{Var: Ident{Name: v.Value[1:], Range: tokRange(v)}}
	if len(v.Value) < 2 {
		p.errorf(tokRange(v), codeBadDecl, "'?' without a variable name", "write a name after '?', e.g. ?apple.n.01")
		return d, false
	}
	dash := p.lex.Peek()
	if dash.Type == tokVar {
		p.errorf(tokRange(dash), codeBadDecl, "BDDL quantifiers bind one variable per declaration",
			"nest the quantifiers, or use forpairs for two variables: "+example)
		return d, false
	}
	typ := p.peek2()
	if dash.Type != tokDash || typ.Type != tokName {
		p.errorf(tokRange(dash), codeBadDecl, "variable ?"+d.Var.Name+" has no type",
			"declare it as (?"+d.Var.Name+" - SYNSET)")
		return d, false
	}
	p.lex.Next()
	p.lex.Next()
	d.Type = Ident{Name: typ.Value, Range: tokRange(typ)}
	d.Range = Range{Start: posOf(open.Pos), End: p.close(open, "the declaration of ?"+d.Var.Name)}
	return d, !p.unwinding
}
