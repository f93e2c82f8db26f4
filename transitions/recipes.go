package transitions

// The recipe machinery the recipe families share (SEMANTICS.md B §4.3).

import (
	"math"

	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// matches reports whether object o is of input in's synset.
func (e *Engine) matches(o ObjectID, in *input) bool {
	syn := e.synOf(o)
	return syn >= 0 && e.c.base.IsA(syn, in.syn)
}

// synOf is the synset of an object or substance, declared or anonymous.
func (e *Engine) synOf(o ObjectID) kb.SynsetID {
	if int(o) >= e.c.n {
		return e.anon[int(o)-e.c.n].syn
	}
	return e.c.syn[o]
}

// sysFound reports whether the container holds a substance of input in:
// a declared instance or an anonymous substance of its synset or below.
func (e *Engine) sysFound(in *sysInput) bool {
	for _, sub := range e.systems {
		if e.isSys(sub, in) {
			return true
		}
	}
	return false
}

func (e *Engine) isSys(sub ObjectID, in *sysInput) bool {
	if int(sub) >= e.c.n {
		return e.c.base.IsA(e.anon[int(sub)-e.c.n].syn, in.syn)
	}
	for _, s := range in.insts {
		if s == sub {
			return true
		}
	}
	return false
}

// stateValid reports whether o has the input's unary states and binary
// states with substances exactly (SEMANTICS.md B §4.3 step 3).
func (e *Engine) stateValid(o ObjectID, in *input) bool {
	for _, l := range in.unary {
		if e.at(l.pred, o, NoObject) != l.val {
			return false
		}
	}
	for _, l := range in.sysLits {
		hit := false
		for _, sub := range l.subs {
			if e.at(l.pred, o, sub) == predicates.True {
				hit = true
				break
			}
		}
		if hit != l.val {
			return false
		}
	}
	return true
}

func (e *Engine) validInput(o ObjectID, in *input) bool {
	return !e.taken[o] && e.matches(o, in) && e.stateValid(o, in)
}

func (e *Engine) systemIn(sub ObjectID) bool {
	for _, s := range e.systems {
		if s == sub {
			return true
		}
	}
	return false
}

// tryRecipe checks that rc is executable in p's container, whose contents
// e.gather found, and fills p with what it consumes and makes.
func (e *Engine) tryRecipe(rc *recipe, p *plan) bool {
	if !rc.relaxSys {
		for k := range rc.sysIn {
			if !e.sysFound(&rc.sysIn[k]) {
				return false
			}
		}
	}
	if !rc.ignoreSys {
		for _, sub := range e.systems {
			if !rc.isInputSystem(e, sub) {
				return false
			}
		}
	}
	if !rc.ignoreObj {
		for _, o := range e.contents {
			ok := false
			for k := range rc.objIn {
				if e.validInput(o, &rc.objIn[k]) {
					ok = true
					break
				}
			}
			if !ok {
				return false
			}
		}
	}
	switch {
	case rc.multi && len(rc.objIn) == 0:
		// Only substances in, objects out (batter to pancakes): the
		// substances cannot be relaxed, they are what is cooked.
		for k := range rc.sysIn {
			found := false
			for _, sub := range e.systems {
				if e.isSys(sub, &rc.sysIn[k]) {
					if !e.consumedSys(p, sub) {
						e.consumeSys(p, sub)
					}
					found = true
				}
			}
			if !found {
				return false
			}
		}
	case rc.multi:
		if !e.multiInstances(rc, p) {
			return false
		}
	default:
		for k := range rc.objIn {
			in := &rc.objIn[k]
			n := 0
			for _, o := range e.contents {
				if e.validInput(o, in) && e.hasParent(rc, k, o) {
					n++
				}
			}
			if n < in.count {
				return false
			}
		}
		for _, o := range e.contents {
			if rc.ignoreObj && !rc.isInputObject(e, o) {
				continue
			}
			e.consume(p, o)
		}
		for _, sub := range e.systems {
			if rc.ignoreSys && !rc.isInputSystem(e, sub) {
				continue
			}
			e.consumeSys(p, sub)
		}
	}
	p.objOut, p.sysOut = rc.outObj, rc.outSys
	p.filled = e.filledBy(p)
	return true
}

func (rc *recipe) isInputSystem(e *Engine, sub ObjectID) bool {
	for k := range rc.sysIn {
		if e.isSys(sub, &rc.sysIn[k]) {
			return true
		}
	}
	return false
}

// consumedSys reports whether plan p already takes substance sub.
func (e *Engine) consumedSys(p *plan, sub ObjectID) bool {
	for _, s := range e.objBuf[p.sys[0]:p.sys[1]] {
		if s == sub {
			return true
		}
	}
	return false
}

func (rc *recipe) isInputObject(e *Engine, o ObjectID) bool {
	for k := range rc.objIn {
		if e.matches(o, &rc.objIn[k]) {
			return true
		}
	}
	return false
}

// hasParent checks the binary object states of input k for o: some valid
// object of the parent input in the container satisfies each.
func (e *Engine) hasParent(rc *recipe, k int, o ObjectID) bool {
	for _, b := range rc.binObj {
		if b.child != k {
			continue
		}
		ok := false
		for _, q := range e.contents {
			if q != o && e.validInput(q, &rc.objIn[b.parent]) && e.at(b.pred, o, q) == b.val {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

// filledBy is whether the substances a plan consumes filled its
// container: True if any did, False if all are known not to.
func (e *Engine) filledBy(p *plan) predicates.Truth {
	if p.sys[1] == p.sys[0] {
		return predicates.Unknown
	}
	v := predicates.False
	for _, sub := range e.objBuf[p.sys[0]:p.sys[1]] {
		v = v.Or(e.at(pFilled, p.container, sub))
	}
	return v
}

// multiInstances is CookingObjectRule's count of input sets (SEMANTICS.md
// B §4.4.5): without binary object states, the minimum over inputs of the
// valid objects in the container over the count; with a tree of them, the
// valid roots in the container whose subtrees are complete. Unlike the
// reference, which consumes every valid object of the input categories in
// the scene, only the objects in the container (and the trees' children)
// are consumed.
func (e *Engine) multiInstances(rc *recipe, p *plan) bool {
	if rc.root < 0 {
		n := math.MaxInt
		for k := range rc.objIn {
			in := &rc.objIn[k]
			cnt := 0
			for _, o := range e.contents {
				if e.validInput(o, in) {
					cnt++
				}
			}
			n = min(n, cnt/in.count)
		}
		if n < 1 || len(rc.objIn) == 0 {
			return false
		}
		for _, o := range e.contents {
			for k := range rc.objIn {
				if e.validInput(o, &rc.objIn[k]) {
					e.consume(p, o)
					break
				}
			}
		}
		p.instances = n
		return true
	}
	n := 0
	root := &rc.objIn[rc.root]
	for _, o := range e.contents {
		if !e.validInput(o, root) {
			continue
		}
		mark := p.cons[1]
		e.consume(p, o)
		if e.subtree(rc, rc.root, o, p) {
			n++
			continue
		}
		for _, x := range e.objBuf[mark:p.cons[1]] {
			e.taken[x] = false
		}
		e.objBuf = e.objBuf[:mark]
		p.cons[1], p.sys = mark, [3]int{mark, mark}
	}
	if n == 0 {
		return false
	}
	p.instances = n
	return true
}

// subtree consumes, for each child input of input k, count valid objects
// anywhere that stand in the binary states to parent, recursively.
func (e *Engine) subtree(rc *recipe, k int, parent ObjectID, p *plan) bool {
	for ck := range rc.objIn {
		if rc.objIn[ck].parent != k {
			continue
		}
		in := &rc.objIn[ck]
		got := 0
		for _, x := range in.cands {
			if got == in.count {
				break
			}
			if !e.exists(x) || !e.validInput(x, in) || !e.binOK(rc, ck, k, x, parent) {
				continue
			}
			e.consume(p, x)
			if !e.subtree(rc, ck, x, p) {
				return false
			}
			got++
		}
		if got < in.count {
			return false
		}
	}
	return true
}

func (e *Engine) binOK(rc *recipe, child, parent int, x, px ObjectID) bool {
	for _, b := range rc.binObj {
		if b.child == child && b.parent == parent && e.at(b.pred, x, px) != b.val {
			return false
		}
	}
	return true
}
