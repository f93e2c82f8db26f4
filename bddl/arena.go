package bddl

// arena hands out AST nodes from chunks, so a file's thousands of atoms,
// terms and names cost a few allocations instead of one each. A tree keeps
// its chunks alive, which is fine: trees live as long as their files.
type arena struct {
	atoms, decls, nterms, nidents int // handed out so far

	atomChunk  []Atom
	declChunk  []ObjectDecl
	termChunk  []Term
	identChunk []Ident
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
