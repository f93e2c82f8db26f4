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

// moveTerms starts a new term slab when the current one is full, moving
// into it the terms of the atom being parsed, termChunk[first:], and
// returns where they now start.
func (a *arena) moveTerms(first int) int {
	partial := a.termChunk[first:]
	chunk := make([]Term, 0, max(grow(a.nterms), 2*len(partial)))
	a.termChunk = append(chunk, partial...)
	return 0
}

// takeTerms hands out termChunk[first:], the terms of the atom just
// parsed, without spare capacity so appending to it never overwrites a
// neighbour.
func (a *arena) takeTerms(first int) []Term {
	n := len(a.termChunk)
	if n == first {
		return nil
	}
	a.nterms += n - first
	return a.termChunk[first:n:n]
}

// idents copies ids into the arena.
func (a *arena) idents(ids []Ident) []Ident { return copyInto(&a.identChunk, &a.nidents, ids) }

// forms copies a list of operands into the arena.
func (a *arena) forms(fs []Formula) []Formula { return copyInto(&a.formChunk, &a.nforms, fs) }
