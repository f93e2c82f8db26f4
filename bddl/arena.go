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
func (a *arena) size(src []byte) {
	// The estimates are capped by what the input's size allows (an atom
	// takes at least "(p)" and a space, a term two bytes, ...), so that no
	// input, such as a file of parentheses, reserves more than a few bytes
	// per input byte.
	n := len(src)
	parens := bytes.Count(src, []byte{'('})
	dashes := bytes.Count(src, []byte{'-'})
	a.atomChunk = make([]Atom, min(parens*5/8, n/32)+2)
	a.termChunk = make([]Term, 0, min(parens*5/4, n/16)+4)
	a.formChunk = make([]Formula, 0, min(parens*3/4, n/24)+4)
	a.declChunk = make([]ObjectDecl, min(dashes, n/24)+1)
	a.identChunk = make([]Ident, 0, min(dashes*5/4, n/16)+4)
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

// terms copies ts into the arena; the result has no spare capacity, so
// appending to it never overwrites a neighbour.
func (a *arena) terms(ts []Term) []Term {
	if len(ts) == 0 {
		return nil
	}
	if cap(a.termChunk)-len(a.termChunk) < len(ts) {
		a.termChunk = make([]Term, 0, max(grow(a.nterms), len(ts)))
	}
	a.nterms += len(ts)
	start := len(a.termChunk)
	a.termChunk = append(a.termChunk, ts...)
	return a.termChunk[start:len(a.termChunk):len(a.termChunk)]
}

func (a *arena) idents(ids []Ident) []Ident {
	if len(ids) == 0 {
		return nil
	}
	if cap(a.identChunk)-len(a.identChunk) < len(ids) {
		a.identChunk = make([]Ident, 0, max(grow(a.nidents), len(ids)))
	}
	a.nidents += len(ids)
	start := len(a.identChunk)
	a.identChunk = append(a.identChunk, ids...)
	return a.identChunk[start:len(a.identChunk):len(a.identChunk)]
}

// forms copies a list of operands into the arena, like terms.
func (a *arena) forms(fs []Formula) []Formula {
	if len(fs) == 0 {
		return nil
	}
	if cap(a.formChunk)-len(a.formChunk) < len(fs) {
		a.formChunk = make([]Formula, 0, max(grow(a.nforms), len(fs)))
	}
	a.nforms += len(fs)
	start := len(a.formChunk)
	a.formChunk = append(a.formChunk, fs...)
	return a.formChunk[start:len(a.formChunk):len(a.formChunk)]
}
