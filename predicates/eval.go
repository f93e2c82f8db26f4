package predicates

// Evaluation walks the flat node array recursively over a frame of
// variable slots kept in the State, so Eval allocates nothing and looks
// nothing up by name. Connectives return as soon as a child decides them
// (cel-go's evalAnd/evalOr): False for and, True for or; unknowns merge;
// otherwise the neutral value. Exhaustive mode visits every child and
// gives the same value.

// scratch is the per-State working memory of evaluation.
type scratch struct {
	frame  []ObjectID
	truths []Truth
	ints   []int32
}

// fit grows the scratch for p; it allocates only when p needs more than
// any program evaluated on this state before.
func (sc *scratch) fit(p *Program) {
	if len(sc.frame) < p.nSlots {
		sc.frame = make([]ObjectID, p.nSlots)
	}
	if len(sc.truths) < p.truthBuf {
		sc.truths = make([]Truth, p.truthBuf)
	}
	if len(sc.ints) < p.intBuf {
		sc.ints = make([]int32, p.intBuf)
	}
}

// machine is one evaluation in progress.
type machine struct {
	p          *Program
	s          *State
	nodes      []node
	frame      []ObjectID
	exhaustive bool
	stats      *EvalStats // nil on the fast path
	tr         *tracer    // nil unless explaining
}

// compatible reports whether s was sized for a program over the same ids.
func (p *Program) compatible(s *State) bool {
	return s != nil && s.n == p.numIDs && s.nObj == p.numObjects && s.prog.numSubstances == p.numSubstances
}

func (p *Program) machine(s *State) machine {
	s.scratch.fit(p)
	return machine{p: p, s: s, nodes: p.nodes, frame: s.scratch.frame, exhaustive: p.opts.Exhaustive}
}

// Eval evaluates :goal on the state. Success is True only; False means
// not satisfied and Unknown undetermined (the state lacks what some
// deciding atom needs). A state made for a program over different objects
// gives Unknown.
func (p *Program) Eval(s *State) Truth {
	if !p.compatible(s) {
		return Unknown
	}
	m := p.machine(s)
	return m.eval(p.goalRoot)
}

// EvalInit evaluates the conjunction of the :init literals on the state,
// for checking that a sampled or recorded first step matches the
// definition. inroom literals are evaluated against recorded rooms.
func (p *Program) EvalInit(s *State) Truth {
	if !p.compatible(s) {
		return Unknown
	}
	m := p.machine(s)
	return m.eval(p.initRoot)
}

// EvalConjuncts evaluates each top-level conjunct of :goal (the whole goal
// when it is not a conjunction), as the reference's satisfied/unsatisfied
// lists do, appending the values to out.
func (p *Program) EvalConjuncts(s *State, out []Truth) []Truth {
	if !p.compatible(s) {
		for range p.conjuncts {
			out = append(out, Unknown)
		}
		return out
	}
	m := p.machine(s)
	for _, r := range p.conjuncts {
		out = append(out, m.eval(r))
	}
	return out
}

// NumConjuncts is the number of top-level goal conjuncts.
func (p *Program) NumConjuncts() int { return len(p.conjuncts) }

func (m *machine) arg(x int32) ObjectID {
	if x >= -1 {
		return ObjectID(x)
	}
	return m.frame[-x-2]
}

func (m *machine) eval(i int32) Truth {
	if m.tr != nil {
		m.tr.enter(m, i)
	}
	n := &m.nodes[i]
	var v Truth
	switch n.op {
	case irConst:
		v = n.val
	case irAtom:
		var src Source
		a, b := m.arg(n.a), m.arg(n.b)
		v, src = m.p.atom(m.s, n.pred, a, b)
		if m.stats != nil {
			m.stats.count(src)
		}
		if m.tr != nil {
			m.tr.atom(m, i, a, b, src)
		}
	case irNot:
		v = m.eval(i + 1).Not()
	case irAnd:
		v = m.junction(i, n, False, True)
	case irOr:
		v = m.junction(i, n, True, False)
	case irImply:
		cond := m.eval(i + 1).Not()
		if cond == True && !m.exhaustive {
			v = True
			break
		}
		v = cond.Or(m.eval(m.nodes[i+1].end))
	case irForall, irExists:
		v = m.quantify(i, n)
	case irForN:
		v = m.forN(i, n)
	case irForPairs, irForNPairs:
		v = m.pairs(i, n)
	}
	if m.tr != nil {
		m.tr.exit(i, v)
	}
	return v
}

// atom decides a ground atom in the order of SEMANTICS.md A2/A3:
// existence, then a recorded fact, then the predicate's rule (recorded
// quantities, then geometry), then the closed world. An argument whose
// existence is unknown makes a True answer Unknown, never a False one.
// future and real read existence first; the kinematic relations are
// False of an object and itself.
func (p *Program) atom(s *State, pred PredID, a, b ObjectID) (Truth, Source) {
	info := &registry[pred]
	if info.static != Unknown {
		return info.static, SourceStatic
	}
	if info.ungated {
		// future and real are about existence itself: a known existence
		// decides, a recorded fact only stands in for an unknown one.
		if v, src := info.rule(p, s, a, b); v != Unknown {
			return v, src
		}
		if t := s.Fact(pred, a, b); t != Unknown {
			return t, SourceFact
		}
		return p.unrecorded(s)
	}
	if info.irreflexive && a == b {
		return False, SourceStatic
	}
	ex := s.exists[a]
	if info.arity == 2 {
		ex = ex.And(s.exists[b])
	}
	if ex == False {
		return False, SourceExistence
	}
	if f := s.facts[pred]; f != nil {
		idx := int(a)
		if info.arity == 2 {
			idx = int(a)*s.n + int(b)
		}
		if t := f[idx]; t != Unknown {
			return ex.And(t), SourceFact
		}
	}
	v, src := info.rule(p, s, a, b)
	if v == Unknown {
		if src == SourceUncertain {
			return Unknown, SourceUncertain // measured, but not beyond its error
		}
		return p.unrecorded(s)
	}
	if ex == Unknown && v == True {
		return Unknown, SourceMissing
	}
	return v, src
}

// unrecorded is the value of an atom nothing decides: False in a closed
// world, else Unknown.
func (p *Program) unrecorded(s *State) (Truth, Source) {
	if s.closed {
		return False, SourceClosedWorld
	}
	return Unknown, SourceMissing
}

// junction folds and (decide False, neutral True) or or (decide True,
// neutral False) over the children.
func (m *machine) junction(i int32, n *node, decide, neutral Truth) Truth {
	v := neutral
	for c := i + 1; c < n.end; c = m.nodes[c].end {
		switch m.eval(c) {
		case decide:
			if !m.exhaustive {
				return decide
			}
			v = decide
		case Unknown:
			if v == neutral {
				v = Unknown
			}
		}
	}
	return v
}

func (m *machine) quantify(i int32, n *node) Truth {
	forall := n.op == irForall
	decide, v := False, True // forall: False decides
	if !forall {
		decide, v = True, False
	}
	slot := n.slot[0]
	for _, o := range m.p.domains[n.dom[0]] {
		m.frame[slot] = o
		switch m.eval(i + 1) {
		case decide:
			v = decide
			if !m.exhaustive {
				return v
			}
		case Unknown:
			if v != decide {
				v = Unknown
			}
		}
	}
	return v
}

func (m *machine) forN(i int32, n *node) Truth {
	dom := m.p.domains[n.dom[0]]
	slot := n.slot[0]
	need := int(n.n)
	nTrue, nUnknown := 0, 0
	for k, o := range dom {
		m.frame[slot] = o
		switch m.eval(i + 1) {
		case True:
			nTrue++
		case Unknown:
			nUnknown++
		}
		if !m.exhaustive {
			left := len(dom) - k - 1
			if nTrue > need || nTrue+nUnknown+left < need {
				return False
			}
		}
	}
	return exactlyN(nTrue, nUnknown, need)
}

// EvalStats counts how the atoms of one evaluation were decided.
type EvalStats struct {
	Atoms       int // atoms evaluated
	Facts       int // decided by a recorded fact
	Quantities  int // decided by recorded quantities
	Approximate int // decided by box geometry (SEMANTICS.md B §5.2)
	Existence   int // False because an argument does not exist
	ClosedWorld int // False by the closed world
	Static      int // fixed at compile time
	Unknown     int // undetermined: nothing recorded to decide on
	Uncertain   int // undetermined: box geometry within the boxes' uncertainty
}

func (st *EvalStats) count(src Source) {
	st.Atoms++
	switch src {
	case SourceFact:
		st.Facts++
	case SourceQuantity:
		st.Quantities++
	case SourceGeometry:
		st.Approximate++
	case SourceExistence:
		st.Existence++
	case SourceClosedWorld:
		st.ClosedWorld++
	case SourceStatic:
		st.Static++
	case SourceMissing:
		st.Unknown++
	case SourceUncertain:
		st.Uncertain++
	}
}

// EvalStats evaluates :goal like Eval and counts how its atoms were
// decided: how many by recorded facts, quantities, approximate geometry,
// and how many stayed unknown. With the Exhaustive option every atom is
// counted; otherwise only those evaluated before the goal was decided.
func (p *Program) EvalStats(s *State) (Truth, EvalStats) {
	var st EvalStats
	if !p.compatible(s) {
		return Unknown, st
	}
	m := p.machine(s)
	m.stats = &st
	return m.eval(p.goalRoot), st
}
