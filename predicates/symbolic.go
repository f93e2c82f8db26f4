package predicates

// InitState returns the closed-world symbolic state the definition's own
// :init describes: every object exists except those declared (future x),
// each positive init atom is a fact True, each negated one a fact False
// (and, with strict negation, its strict partner a fact True), and every
// other atom is False. It is the state a planner or a symbolic
// simulator starts from, and the setting of the evaluation benchmark.
func (p *Program) InitState() *State {
	s := NewState(p)
	s.SetClosedWorld(true)
	s.SetAllExist(true)
	frame := make([]ObjectID, max(p.nSlots, 1))
	for _, lit := range p.initIR.kids {
		p.applyInit(s, lit, false, frame)
	}
	return s
}

// applyInit records one init literal, expanding the quantifiers that
// wildcard arguments introduce.
func (p *Program) applyInit(s *State, n *ir, neg bool, frame []ObjectID) {
	switch n.kind {
	case irNot:
		p.applyInit(s, n.kids[0], !neg, frame)
	case irAnd:
		for _, k := range n.kids {
			p.applyInit(s, k, neg, frame)
		}
	case irForall:
		for _, o := range p.domains[n.dom[0]] {
			frame[n.slot[0]] = o
			p.applyInit(s, n.kids[0], neg, frame)
		}
	case irAtom:
		resolve := func(op operand) ObjectID {
			if op.slot >= 0 {
				return frame[op.slot]
			}
			return op.obj
		}
		a, b := resolve(n.args[0]), resolve(n.args[1])
		switch n.pred {
		case predFuture:
			s.exists[a] = TruthOf(neg)
		case predReal:
			s.exists[a] = TruthOf(!neg)
		default:
			_ = s.SetFact(n.pred, a, b, TruthOf(!neg))
			// In strict mode a negated member of a pair states its partner:
			// (not (filled jar water)) says the jar is empty.
			if partner := registry[n.pred].partner; neg && partner != predInvalid && p.opts.Negation == StrictNegation {
				_ = s.SetFact(partner, a, b, True)
			}
		}
	}
}
