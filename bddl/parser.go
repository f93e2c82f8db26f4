package bddl

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// sectionParser is a recursive-descent parser for the body of one section.
// On an error it records a diagnostic and skips to a point where parsing can
// resume: the end of the broken element, or the next section.
type sectionParser struct {
	sc   *scanner
	src  string // sc.src and sc.base, at hand for rebuilding tokens
	base int32
	// toks is a window of the scanner's tokens, filled ahead in one tight
	// loop, so looking ahead is indexing; i is the next token. The window
	// always holds the three tokens the parser may look at (EOF tokens
	// past the end of input), and its size is fixed, so memory does not
	// grow with the input.
	toks  []token
	i     int
	atEOF bool // the scanner has reached the end: no refill
	sec   *gSection
	arena *arena
	// unwinding is set once a ')' was found missing at the end of input or
	// before the next section: enclosing lists then close silently, so one
	// missing ')' gives one diagnostic.
	unwinding bool
	scope     []string      // folded names of the variables bound here
	stack     []Formula     // operands being gathered, see operands
	decls     []*ObjectDecl // declarations of :objects being gathered
	mode      Mode
}

// tokenWindow is the number of tokens scanned ahead at a time: large
// enough that refills are rare, small enough to stay in cache.
const tokenWindow = 1024

// lookahead is how many tokens past the next one the parser may inspect.
const lookahead = 2

// start points the parser at sc, reusing toks' storage for its window.
func (p *sectionParser) start(sc *scanner, toks []token) {
	p.sc, p.src, p.base, p.i, p.atEOF = sc, sc.src, int32(sc.base), 0, false
	if cap(toks) < tokenWindow {
		toks = make([]token, 0, tokenWindow)
	}
	p.toks = toks[:0]
	p.fill()
}

// fill moves the unread tokens to the front of the window and scans more
// behind them, up to the window's size or the end of input; past the end
// it pads with EOF tokens so peeking ahead never runs off the window.
func (p *sectionParser) fill() {
	n := copy(p.toks[:cap(p.toks)], p.toks[p.i:])
	toks := p.toks[:n]
	p.i = 0
	if !p.atEOF {
		toks = p.sc.scanTokens(toks)
		p.atEOF = toks[len(toks)-1].typ == tokEOF
	}
	if p.atEOF {
		for len(toks) < lookahead+1 || toks[len(toks)-lookahead-1].typ != tokEOF {
			toks = append(toks, toks[len(toks)-1])
		}
	}
	p.toks = toks
}

func (p *sectionParser) errorf(r Range, code, summary, detail string) *Diagnostic {
	return p.sec.errorf(r, code, summary, detail)
}

func (p *sectionParser) peek() token { return p.toks[p.i] }

// peek2 returns the token after the next one.
func (p *sectionParser) peek2() token { return p.toks[p.i+1] }

// peek3 returns the token after the next two.
func (p *sectionParser) peek3() token { return p.toks[p.i+2] }

// val is a token's value, sliced from the source.
func (p *sectionParser) val(t *token) string {
	return p.src[t.off-p.base : t.off-p.base+t.n]
}

// next consumes the next token and returns it; at the end of input it
// keeps returning EOF.
func (p *sectionParser) next() token {
	t := p.peek()
	p.skip()
	return t
}

// skip consumes the next token. Its fast path is small enough to inline.
func (p *sectionParser) skip() {
	if p.i+lookahead+1 < len(p.toks) {
		// Not EOF: EOF tokens are only the window's last lookahead+1.
		p.i++
		return
	}
	p.advance()
}

// advance is next's slow path: it refills the window, and at the end of
// input stays on the first EOF token. Kept out of line so skip inlines.
//
//go:noinline
func (p *sectionParser) advance() {
	if p.toks[p.i].typ == tokEOF {
		return
	}
	p.i++
	if !p.atEOF {
		p.fill()
	}
}

// atSection reports whether the next tokens start a new section: "(:".
// Keywords appear nowhere else, so this is where a parser resynchronises
// after a missing ')'.
func (p *sectionParser) atSection() bool {
	return p.peekType() == tokLParen && p.toks[p.i+1].typ == tokKeyword
}

// peekType is the type of the next token; cheaper than peek on hot paths.
func (p *sectionParser) peekType() tokType { return p.toks[p.i].typ }

// atListEnd reports whether a list of elements ends here.
func (p *sectionParser) atListEnd() bool {
	switch p.peekType() {
	case tokRParen, tokEOF:
		return true
	case tokLParen:
		return p.unwinding || p.toks[p.i+1].typ == tokKeyword
	}
	return p.unwinding
}

func (p *sectionParser) describe(t token) string {
	switch t.typ {
	case tokEOF:
		return "end of file"
	case tokLParen:
		return "'('"
	case tokRParen:
		return "')'"
	case tokDash:
		return "'-'"
	case tokKeyword:
		return "keyword " + p.val(&t)
	case tokVar:
		return "variable " + p.val(&t)
	case tokName:
		return "name " + strconv.Quote(p.val(&t))
	}
	return strconv.Quote(p.val(&t))
}

// badToken reports a token that does not belong here, naming invalid
// characters and bytes precisely.
func (p *sectionParser) badToken(t token, expected string) *Diagnostic {
	switch {
	case t.typ == tokInvalid && !utf8.ValidString(p.val(&t)):
		return p.errorf(t.rng(), codeInvalidUTF8, "invalid UTF-8 bytes",
			"BDDL files are UTF-8 text; remove or re-encode these bytes")
	case t.typ == tokInvalid:
		return p.errorf(t.rng(), codeInvalidChar, fmt.Sprintf("unexpected character %s", strconv.Quote(p.val(&t))),
			"delete it: BDDL names use letters, digits and _ . - * only")
	default:
		return p.errorf(t.rng(), codeUnexpectedToken, fmt.Sprintf("unexpected %s; expected %s", p.describe(t), expected), "")
	}
}

// close consumes the ')' that closes the form opened by open and returns the
// end of the form. prefix+name names the form in messages, e.g. "(and";
// they are joined only when there is an error, so closing never allocates.
func (p *sectionParser) close(open token, prefix, name string) Pos {
	for {
		if cur := &p.toks[p.i]; cur.typ == tokRParen { // read in place, before skip
			end := Pos{Offset: cur.off + 1, Line: cur.line, Col: cur.col + 1}
			p.skip()
			return end
		}
		t := p.peek()
		if p.unwinding {
			return t.pos()
		}
		what := prefix + name
		if t.typ == tokEOF || p.atSection() {
			where := "before the end of the file"
			if t.typ != tokEOF {
				where = "before the next section starts at " + t.pos().String()
			}
			p.sec.countErrorf(open.rng(), codeUnclosedParen, fmt.Sprintf("%s is not closed %s", what, where),
				"add the missing ')'; every '(' needs a matching ')'")
			p.unwinding = true
			return t.pos()
		}
		p.badToken(t, "')' to close "+what+" opened at "+open.pos().String())
		p.skipElement()
	}
}

// skipElement skips one token, or a whole parenthesised element, without
// crossing into the next section.
func (p *sectionParser) skipElement() {
	t := p.next()
	if t.typ != tokLParen {
		return
	}
	depth := 1
	for depth > 0 {
		t := p.peek()
		if t.typ == tokEOF || p.atSection() {
			return
		}
		p.skip()
		switch t.typ {
		case tokLParen:
			depth++
		case tokRParen:
			depth--
		}
	}
}

// section parses "(:keyword ...)"; the caller has checked atSection.
func (p *sectionParser) section() {
	s := p.sec
	open := p.next()
	kw := p.next()
	s.keyword = Ident{Name: p.val(&kw), Range: kw.rng()}
	s.key = Fold(p.val(&kw))
	switch s.key {
	case ":objects":
		p.objects()
	case ":init":
		s.forms = p.operands(0)
	case ":goal":
		p.goal()
	case ":domain":
		ar := p.arena
		first := len(ar.identChunk)
		for !p.atListEnd() {
			t := p.next()
			if t.typ != tokName {
				p.badToken(t, "a domain name")
				continue
			}
			*push(&ar.identChunk, &first, ar.nidents) = Ident{Name: p.val(&t), Range: t.rng()}
		}
		s.names = take(&ar.identChunk, first, &ar.nidents)
	case ":requirements":
		for !p.atListEnd() {
			t := p.next()
			if t.typ != tokKeyword {
				p.badToken(t, "a requirement such as :strips")
				continue
			}
			s.names = append(s.names, Ident{Name: p.val(&t), Range: t.rng()})
		}
	case ":predicates":
		p.predicateDecls()
	default:
		fix := "problems have :domain, :objects, :init and :goal; domains have :requirements and :predicates"
		if known := closeSection(Fold(p.val(&kw))); known != "" {
			fix = "did you mean " + known + "? " + fix
		}
		d := p.errorf(s.keyword.Range, codeUnknownSection, fmt.Sprintf("unknown section %s", p.val(&kw)), fix)
		d.reference = "the reference ignores it"
		for !p.atListEnd() {
			p.skipElement()
		}
	}
	s.rng = Range{Start: open.pos(), End: p.close(open, "(", p.val(&kw))}
}

func (p *sectionParser) objects() {
	// The instances of the line being read are gathered in place in the
	// arena's ident slab, idents[first:].
	ar := p.arena
	first := len(ar.identChunk)
	pending := func() []Ident { return ar.identChunk[first:] }
	drop := func() { ar.identChunk = ar.identChunk[:first] }
	flush := func() {
		pending := pending()
		if len(pending) == 0 {
			return
		}
		names := pending[0].Name
		if len(pending) > 1 {
			names += fmt.Sprintf(" and %d more", len(pending)-1)
		}
		r := Range{Start: pending[0].Range.Start, End: pending[len(pending)-1].Range.End}
		d := p.errorf(r, codeMissingType,
			"instances without a type: "+names, "add '- SYNSET' after them, e.g. apple.n.01_1 - apple.n.01")
		d.reference = "the reference gives them the type object"
		if p.mode != Reference {
			drop()
			return
		}
		decl := ar.decl()
		*decl = ObjectDecl{Instances: take(&ar.identChunk, first, &ar.nidents),
			Type: Ident{Name: "object", Range: Range{Start: r.End, End: r.End}}, Range: r}
		p.decls = append(p.decls, decl)
	}
	for !p.atListEnd() {
		if cur := &p.toks[p.i]; cur.typ == tokName { // read in place, before skip
			id := push(&ar.identChunk, &first, ar.nidents)
			id.Name = p.val(cur)
			id.Range.Start = Pos{Offset: cur.off, Line: cur.line, Col: cur.col}
			id.Range.End = Pos{Offset: cur.off + cur.n, Line: cur.line, Col: cur.col + cur.n}
			p.skip()
			continue
		}
		t := p.peek()
		switch t.typ {
		case tokDash:
			p.skip()
			typ := p.peek()
			if typ.typ != tokName {
				p.errorf(t.rng(), codeMissingType, "'-' is not followed by a type",
					"write the synset after '-', e.g. apple.n.01_1 - apple.n.01")
				drop()
				continue
			}
			// A '-' that ends its line, before a line that starts with
			// "NAME -", lacks its type: the name after it starts the next
			// declaration. Say so at the '-', where a person looks.
			if typ.line > t.line && p.toks[p.i+1].typ == tokDash {
				p.errorf(t.rng(), codeMissingType, "'-' at the end of the line is not followed by a type",
					"write the synset after '-', e.g. apple.n.01_1 - apple.n.01")
				drop()
				continue
			}
			p.skip()
			if len(ar.identChunk) == first {
				d := p.errorf(t.rng(), codeBareDash, "'-' has no instances before it",
					"list the instances before '-', e.g. apple.n.01_1 apple.n.01_2 - apple.n.01")
				d.reference = "the reference declares no instance here"
				continue
			}
			d := ar.decl() // filled field by field, as atom says why
			d.Type.Name = p.val(&typ)
			typ.setRange(&d.Type.Range)
			d.Range.Start = ar.identChunk[first].Range.Start
			d.Range.End = d.Type.Range.End
			d.Instances = take(&ar.identChunk, first, &ar.nidents)
			first = len(ar.identChunk)
			p.decls = append(p.decls, d)
		default:
			p.badToken(t, "an instance name or '-'")
			p.skipElement()
		}
	}
	flush()
	if len(p.decls) > 0 {
		p.sec.objects = append(p.sec.objects, p.decls...)
	}
	clear(p.decls)
	p.decls = p.decls[:0]
}

func (p *sectionParser) predicateDecls() {
	for !p.atListEnd() {
		open := p.peek()
		if open.typ != tokLParen {
			p.badToken(open, "a predicate declaration such as (ontop ?obj1 ?obj2)")
			p.skip()
			continue
		}
		p.skip()
		name := p.peek()
		if name.typ != tokName {
			p.badToken(name, "a predicate name")
			p.skipRest(open)
			continue
		}
		p.skip()
		d := &PredicateDecl{Name: Ident{Name: p.val(&name), Range: name.rng()}}
		for !p.atListEnd() {
			t := p.next()
			if t.typ != tokVar || len(p.val(&t)) < 2 {
				p.badToken(t, "a parameter such as ?obj1")
				continue
			}
			d.Params = append(d.Params, Ident{Name: p.val(&t)[1:], Range: t.rng()})
		}
		d.Range = Range{Start: open.pos(), End: p.close(open, "(", p.val(&name))}
		p.sec.preds = append(p.sec.preds, d)
	}
}

// goal parses the formulas of (:goal ...), noting where its first element
// ends: the reference reads only that one.
func (p *sectionParser) goal() {
	s := p.sec
	if p.atListEnd() {
		return
	}
	// The formulas are gathered on the operand stack, as operands does,
	// and copied into the arena in one piece.
	base := len(p.stack)
	first := p.formula(1)
	s.goalBroken = first == nil
	s.goalFirstDiags = len(s.diags)
	if first != nil {
		p.stack = append(p.stack, first)
	}
	for !p.atListEnd() {
		if f := p.formula(1); f != nil {
			p.stack = append(p.stack, f)
		}
	}
	if len(p.stack) > base {
		s.forms = p.arena.forms(p.stack[base:])
	}
	clear(p.stack[base:])
	p.stack = p.stack[:base]
}

// closeSection returns the known section one edit away from key, if any.
func closeSection(key string) string {
	for _, known := range []string{":domain", ":objects", ":init", ":goal", ":requirements", ":predicates"} {
		if EditDistance(key, known, 1) == 1 {
			return known
		}
	}
	return ""
}

// skipRest skips the remaining elements of a form whose head was bad, and
// its closing parenthesis.
func (p *sectionParser) skipRest(open token) {
	for !p.atListEnd() {
		p.skipElement()
	}
	p.close(open, "'('", "")
}

// formula parses one formula. It returns nil after recording an error; it
// always consumes at least one token unless the list it is in has ended.
func (p *sectionParser) formula(depth int) Formula {
	open := p.peek()
	if open.typ != tokLParen {
		p.badToken(open, "'(' to start a formula")
		p.skip()
		return nil
	}
	if depth > maxDepth {
		p.errorf(open.rng(), codeTooDeep, fmt.Sprintf("formula nested more than %d levels deep", maxDepth),
			"simplify the formula; real definitions nest about ten levels")
		p.skipElement()
		return nil
	}
	p.skip()
	head := p.peek()
	if head.typ != tokName {
		if head.typ == tokRParen {
			p.skip()
			p.errorf(Range{Start: open.pos(), End: head.rng().End}, codeEmptyFormula, "empty formula ()",
				"write a literal such as (ontop ?a ?b) or delete the parentheses")
			return nil
		}
		p.badToken(head, "a predicate or a connective such as and, or, not, forall")
		p.skipRest(open)
		return nil
	}
	p.skip()
	switch Fold(p.val(&head)) {
	case "and":
		n := &And{Xs: p.operands(depth)}
		n.Range = Range{Start: open.pos(), End: p.close(open, "(", "and")}
		return n
	case "or":
		n := &Or{Xs: p.operands(depth)}
		n.Range = Range{Start: open.pos(), End: p.close(open, "(", "or")}
		return n
	case "not":
		mark := len(p.sec.diags)
		xs := p.operands(depth)
		n := &Not{}
		n.Range = Range{Start: open.pos(), End: p.close(open, "(", "not")}
		if !p.arity(n.Range, mark, "not", xs, 1, "(not (cooked ?x))") {
			if len(xs) < 2 || len(p.sec.diags) == 0 {
				return nil
			}
			// The reference negates the first operand and drops the rest.
			p.sec.diags[len(p.sec.diags)-1].reference = "the reference negates only the first"
		}
		n.X = xs[0]
		return n
	case "imply":
		mark := len(p.sec.diags)
		xs := p.operands(depth)
		n := &Imply{}
		n.Range = Range{Start: open.pos(), End: p.close(open, "(", "imply")}
		if !p.arity(n.Range, mark, "imply", xs, 2, "(imply (cooked ?x) (hot ?x))") {
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

// operands parses formulas up to the end of the enclosing list. They are
// gathered on a stack shared by all levels and copied out at their exact
// length, so a list costs one allocation however long it grows.
func (p *sectionParser) operands(depth int) []Formula {
	base := len(p.stack)
	for !p.atListEnd() {
		if f := p.formula(depth + 1); f != nil {
			p.stack = append(p.stack, f)
		}
	}
	if len(p.stack) == base {
		return nil
	}
	xs := p.arena.forms(p.stack[base:])
	clear(p.stack[base:])
	p.stack = p.stack[:base]
	return xs
}

// arity checks a connective's operand count. A count made wrong only by
// operands that failed to parse, reported since mark (the number of
// diagnostics when the form began), is not reported again.
func (p *sectionParser) arity(r Range, mark int, op string, xs []Formula, want int, example string) bool {
	if len(xs) == want {
		return true
	}
	if len(xs) < want && len(p.sec.diags) > mark {
		return false
	}
	p.errorf(r, codeOperandCount, fmt.Sprintf("(%s ...) takes %d formula(s), found %d", op, want, len(xs)),
		"write it as "+example)
	return false
}

func (p *sectionParser) atom(open, head token) Formula {
	a := p.arena.atom()
	// Field by field, here and below: a node built whole on the stack and
	// then copied into its slab is read back before its stores retire.
	a.Pred.Name = p.val(&head)
	head.setRange(&a.Pred.Range)
	end := head.rng().End
	// Terms go straight into the arena's slab (atoms never nest), taken
	// as the atom's arguments when it ends.
	ar := p.arena
	first := len(ar.termChunk)
	for {
		// The common cases read the token in place, before skip may
		// refill the window.
		switch cur := &p.toks[p.i]; cur.typ {
		case tokName, tokVar:
			term := push(&ar.termChunk, &first, ar.nterms)
			p.term(term, cur)
			end = term.Range.End
			p.skip()
			continue
		case tokRParen:
			a.Args = take(&ar.termChunk, first, &ar.nterms)
			a.Range.Start = Pos{Offset: open.off, Line: open.line, Col: open.col}
			a.Range.End = Pos{Offset: cur.off + 1, Line: cur.line, Col: cur.col + 1}
			p.skip()
			return a
		}
		t := p.peek()
		switch t.typ {
		case tokLParen, tokEOF:
			// Atoms never nest: most likely this atom lacks its ')'. Close
			// it here and let the '(' start the next formula.
			if !p.unwinding {
				p.errorf(Range{Start: open.pos(), End: end}, codeUnclosedParen,
					fmt.Sprintf("(%s ... is missing its ')'", p.val(&head)),
					"add ')' after the last argument; a predicate's arguments are names, not formulas")
			}
			a.Args = take(&ar.termChunk, first, &ar.nterms)
			a.Range = Range{Start: open.pos(), End: end}
			return a
		}
		if p.unwinding {
			a.Args = take(&ar.termChunk, first, &ar.nterms)
			a.Range = Range{Start: open.pos(), End: end}
			return a
		}
		p.badToken(t, "an argument or ')'")
		p.skip()
	}
}

// term fills *term from token t, classifying the name lexically: a
// variable when an enclosing quantifier binds it, else an instance when
// it has an instance's shape, else a variable if written with '?', else a
// constant such as a room type.
func (p *sectionParser) term(term *Term, t *token) {
	name, question := p.val(t), t.typ == tokVar
	if question {
		name = name[1:]
	}
	// Field by field: the term lives in a slab, and building it whole
	// first would copy it.
	term.Name, term.Question = name, question
	term.Range.Start = Pos{Offset: t.off, Line: t.line, Col: t.col}
	term.Range.End = Pos{Offset: t.off + t.n, Line: t.line, Col: t.col + t.n}
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
}

func (p *sectionParser) bound(name string) bool {
	if len(p.scope) == 0 {
		return false
	}
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

func (p *sectionParser) quant(open, head token, kind QuantKind, depth int) Formula {
	q := &Quant{Kind: kind}
	example := quantExamples[kind]
	ok := true
	if kind.Counted() {
		ok = p.count(q, head, example)
	}
	want := 1
	if kind.Pairs() {
		want = 2
	}
	q.Vars = make([]VarDecl, 0, want)
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
	mark := len(p.sec.diags)
	xs := p.operands(depth)
	q.Range = Range{Start: open.pos(), End: p.close(open, "(", p.val(&head))}
	if !p.arity(q.Range, mark, p.val(&head), xs, 1, example) {
		return nil
	}
	q.Body = xs[0]
	return q
}

// count parses the "(N)" of forn and fornpairs.
func (p *sectionParser) count(q *Quant, head token, example string) bool {
	open := p.peek()
	num := p.peek2()
	if open.typ != tokLParen || num.typ != tokName {
		p.errorf(head.rng(), codeFornCount, p.val(&head)+" needs a count in parentheses",
			"write it as "+example)
		return false
	}
	n, err := strconv.Atoi(p.val(&num))
	if err != nil || n < 0 {
		p.errorf(num.rng(), codeFornCount, fmt.Sprintf("%s count %q is not a whole number", p.val(&head), p.val(&num)),
			"write it as "+example)
		return false
	}
	p.skip()
	p.skip()
	q.N = n
	q.NRange = Range{Start: open.pos(), End: p.close(open, "the count of ", p.val(&head))}
	return !p.unwinding
}

// varDecl parses "(?x - type)".
func (p *sectionParser) varDecl(head token, example string) (VarDecl, bool) {
	open := p.peek()
	v := p.peek2()
	// (x - type): a declaration without '?', not a formula such as
	// (cooked ?x) where a declaration is missing.
	bare := open.typ == tokLParen && v.typ == tokName && p.toks[p.i+2].typ == tokDash
	if open.typ != tokLParen || v.typ != tokVar && !bare {
		p.errorf(head.rng(), codeMissingDecl, p.val(&head)+" has no variable declaration",
			"declare the variable before the body: "+example)
		return VarDecl{}, false
	}
	p.skip()
	p.skip()
	d := VarDecl{Var: Ident{Name: p.val(&v)[1:], Range: v.rng()}}
	declLen := v.n
	if bare {
		// The reference strips the '?' of a declared variable, so it reads
		// a declaration without one the same way.
		d.Var.Name = p.val(&v)
		e := p.errorf(v.rng(), codeBadDecl, "variable "+d.Var.Name+" is declared without '?'",
			"write (?"+d.Var.Name+" - SYNSET)")
		e.reference = "the reference reads it as ?" + d.Var.Name
		declLen++ // as if written with its '?', for the length check below
	}
	// After an error, skip the rest of the declaration and its ')', so
	// the quantifier's own ')' still closes the quantifier.
	if declLen < 2 {
		p.errorf(v.rng(), codeBadDecl, "'?' without a variable name", "write a name after '?', e.g. ?apple.n.01")
		p.skipRest(open)
		return d, false
	}
	dash := p.peek()
	if dash.typ == tokVar {
		p.errorf(dash.rng(), codeBadDecl, "BDDL quantifiers bind one variable per declaration",
			"nest the quantifiers, or use forpairs for two variables: "+example)
		p.skipRest(open)
		return d, false
	}
	typ := p.peek2()
	if dash.typ != tokDash || typ.typ != tokName {
		// Point at what a person looks at: the variable, unless what
		// stands in for the type is on the same line.
		at := dash.rng()
		if dash.line > v.line {
			at = v.rng()
		}
		p.errorf(at, codeBadDecl, "variable ?"+d.Var.Name+" has no type",
			"declare it as (?"+d.Var.Name+" - SYNSET)")
		p.skipRest(open)
		return d, false
	}
	p.skip()
	p.skip()
	d.Type = Ident{Name: p.val(&typ), Range: typ.rng()}
	d.Range = Range{Start: open.pos(), End: p.close(open, "the declaration of ?", d.Var.Name)}
	return d, !p.unwinding
}
