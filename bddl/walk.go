package bddl

// Inspect calls fn for f and, while fn returns true, for its operands, in
// source order (pre-order). A nil formula is skipped.
func Inspect(f Formula, fn func(Formula) bool) {
	if f == nil || !fn(f) {
		return
	}
	switch n := f.(type) {
	case *Not:
		Inspect(n.X, fn)
	case *And:
		for _, x := range n.Xs {
			Inspect(x, fn)
		}
	case *Or:
		for _, x := range n.Xs {
			Inspect(x, fn)
		}
	case *Imply:
		Inspect(n.If, fn)
		Inspect(n.Then, fn)
	case *Quant:
		Inspect(n.Body, fn)
	}
}

// Operands returns the direct operands of f.
func Operands(f Formula) []Formula {
	switch n := f.(type) {
	case *Not:
		return []Formula{n.X}
	case *And:
		return n.Xs
	case *Or:
		return n.Xs
	case *Imply:
		return []Formula{n.If, n.Then}
	case *Quant:
		return []Formula{n.Body}
	}
	return nil
}

// Atoms calls fn for every atom of the problem's :init and :goal.
func (p *Problem) Atoms(fn func(*Atom)) {
	visit := func(f Formula) bool {
		if a, ok := f.(*Atom); ok {
			fn(a)
		}
		return true
	}
	for _, f := range p.Init {
		Inspect(f, visit)
	}
	Inspect(p.Goal, visit)
}

// numberNodes gives every formula node its id, in source order.
func (p *Problem) numberNodes() {
	id := 0
	for _, f := range p.Init {
		id = number(f, id)
	}
	p.NumNodes = number(p.Goal, id)
}

// number gives f and the nodes below it ids from id on, in the order
// Inspect visits them, and returns the next free id. Every parse numbers
// its tree, so this is Inspect without the callback.
func number(f Formula, id int) int {
	switch n := f.(type) {
	case nil:
		return id
	case *Atom:
		n.ID = id
		return id + 1
	case *Not:
		n.ID = id
		return number(n.X, id+1)
	case *And:
		n.ID = id
		return numberAll(n.Xs, id+1)
	case *Or:
		n.ID = id
		return numberAll(n.Xs, id+1)
	case *Imply:
		n.ID = id
		return number(n.Then, number(n.If, id+1))
	case *Quant:
		n.ID = id
		return number(n.Body, id+1)
	}
	f.Info().ID = id
	return id + 1
}

// numberAll numbers the operands xs in turn from id on.
func numberAll(xs []Formula, id int) int {
	for _, x := range xs {
		id = number(x, id)
	}
	return id
}
