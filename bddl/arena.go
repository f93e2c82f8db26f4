package bddl

import "bytes"

// arena hands out AST nodes from slabs sized from the input, so a file's
// thousands of atoms, terms and names cost a handful of allocations
// instead of one each. A tree keeps its slabs alive, which is fine: trees
// live as long as their files.
type arena struct {
	atoms, decls, nterms, nidents, nforms int // handed out so far

	atomChunk  []Atom
	declChunk  []ObjectDecl
	termChunk  []Term
	identChunk []Ident
	formChunk  []Formula
}

// size reserves slabs for src from counts that bound or closely estimate
// what the parse will need: an atom per '(' at most (about 60% of them are
// atoms in real definitions), a declaration per '-', about two terms per
// atom. A file that needs more gets further chunks from grow.
func (a *arena) size(src []byte, r *slabs) {
	// The estimates are capped by what the input's size allows (an atom
	// takes at least "(p)" and a space, a term two bytes, ...), so that no
	// input, such as a file of parentheses, reserves more than a few bytes
	// per input byte.
	n := len(src)
	parens := bytes.Count(src, []byte{'('})
	dashes := bytes.Count(src, []byte{'-'})
	a.atomChunk = fit(&r.atoms, min(parens*5/8, n/32)+2)
	a.termChunk = fit(&r.terms, min(parens*5/4, n/16)+4)[:0]
	a.formChunk = fit(&r.forms, min(parens*3/4, n/24)+4)[:0]
	a.declChunk = fit(&r.decls, min(dashes, n/24)+1)
	a.identChunk = fit(&r.idents, min(dashes*5/4, n/16)+4)[:0]
}

// slabs are the slabs a file's tree was first given, kept with the tree so
// that, once the tree is released (File.Release), a later parse can reuse
// them instead of allocating (and faulting in) fresh memory.
type slabs struct {
	atoms  []Atom
	terms  []Term
	forms  []Formula
	decls  []ObjectDecl
	idents []Ident
}

// fit returns a zeroed slab of n elements: the start of *s when it is
// large enough, else a new slab, which *s then records.
func fit[T any](s *[]T, n int) []T {
	if cap(*s) >= n {
		x := (*s)[:n]
		clear(x)
		return x
	}
	*s = make([]T, n)
	return *s
}

// sizeFromTokens reserves slabs for a file whose tokens are all in toks,
// from counts that bound what the parse needs closely: an atom per '('
// whose head is a name other than a connective, a term per name after
// such a head, a declaration per '-' and an instance per other name of
// :objects, an ident per name of :domain, an operand per '(' that starts
// a formula.
func (a *arena) sizeFromTokens(p *sectionParser, r *slabs) {
	toks := p.toks
	var atoms, terms, forms, decls, idents int
	inAtom, inObjects, inDomain := false, false, false
	for k := 0; k < len(toks); k++ {
		switch t := &toks[k]; t.typ {
		case tokLParen:
			switch h := &toks[k+1]; h.typ { // toks ends with EOF tokens
			case tokName:
				head := p.val(h)
				inAtom = !isConnectiveHead(head)
				switch {
				case inAtom:
					atoms++
					forms++
				case head != "define" && head != "problem" && head != "domain":
					forms++
				}
				k++
			case tokKeyword: // a section
				kw := p.val(h)
				inObjects, inDomain = kw == ":objects", kw == ":domain"
				inAtom = false
				k++
			case tokVar: // a quantifier's declaration
				inAtom = false
			default:
				forms++
				inAtom = false
			}
		case tokRParen:
			inAtom, inObjects, inDomain = false, false, false
		case tokName, tokVar:
			switch {
			case inAtom:
				terms++
			case inObjects, inDomain:
				idents++
			}
		case tokDash:
			if inObjects {
				decls++
				idents-- // the type after it
			}
		}
	}
	a.atomChunk = fit(&r.atoms, atoms)
	a.termChunk = fit(&r.terms, terms)[:0]
	a.formChunk = fit(&r.forms, forms)[:0]
	a.declChunk = fit(&r.decls, decls)
	a.identChunk = fit(&r.idents, max(idents, 0))[:0]
}

// isConnectiveHead reports whether a form's head is a connective, a quantifier
// or a word of a file's header rather than a predicate, as it is written
// in nearly every file: lower case. Another spelling only costs an atom
// slot.
func isConnectiveHead(head string) bool {
	// By length first: each comparison is then a load or two.
	switch len(head) {
	case 2:
		return head == "or"
	case 3:
		return head == "and" || head == "not"
	case 4:
		return head == "forn"
	case 5:
		return head == "imply"
	case 6:
		return head == "forall" || head == "exists" || head == "define" || head == "domain"
	case 7:
		return head == "problem"
	case 8:
		return head == "forpairs"
	case 9:
		return head == "fornpairs"
	}
	return false
}

// grow returns the length of the next chunk: small for small files, doubling
// with what was handed out already.
func grow(used int) int { return min(256, max(8, used)) }

func (a *arena) atom() *Atom {
	if len(a.atomChunk) == 0 {
		a.atomChunk = make([]Atom, grow(a.atoms))
	}
	a.atoms++
	n := &a.atomChunk[0]
	a.atomChunk = a.atomChunk[1:]
	return n
}

func (a *arena) decl() *ObjectDecl {
	if len(a.declChunk) == 0 {
		a.declChunk = make([]ObjectDecl, grow(a.decls))
	}
	a.decls++
	n := &a.declChunk[0]
	a.declChunk = a.declChunk[1:]
	return n
}

// copyInto copies xs into the slab *chunk, starting a new slab (sized
// from *count, the elements allocated so far) when it lacks room. The
// result has no spare capacity, so appending to it never overwrites a
// neighbour.
func copyInto[T any](chunk *[]T, count *int, xs []T) []T {
	if len(xs) == 0 {
		return nil
	}
	if cap(*chunk)-len(*chunk) < len(xs) {
		*chunk = make([]T, 0, max(grow(*count), len(xs)))
	}
	*count += len(xs)
	start := len(*chunk)
	*chunk = append(*chunk, xs...)
	return (*chunk)[start:len(*chunk):len(*chunk)]
}

// push appends a zero element to the slab *chunk and returns it, for a
// list being gathered in place: the list's elements so far are
// (*chunk)[*first:]. When the slab is full they move to a new one, sized
// from *count (the elements handed out so far), and *first follows them.
func push[T any](chunk *[]T, first *int, count int) *T {
	if len(*chunk) == cap(*chunk) {
		partial := (*chunk)[*first:]
		*chunk = append(make([]T, 0, max(grow(count), 2*len(partial))), partial...)
		*first = 0
	}
	*chunk = (*chunk)[:len(*chunk)+1]
	return &(*chunk)[len(*chunk)-1]
}

// take hands out the list gathered in place, (*chunk)[first:], without
// spare capacity so appending to it never overwrites a neighbour; an
// empty list is nil.
func take[T any](chunk *[]T, first int, count *int) []T {
	n := len(*chunk)
	if n == first {
		return nil
	}
	*count += n - first
	return (*chunk)[first:n:n]
}

// forms copies a list of operands into the arena.
func (a *arena) forms(fs []Formula) []Formula { return copyInto(&a.formChunk, &a.nforms, fs) }
