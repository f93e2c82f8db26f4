package predicates

import "github.com/openbddl/bddl/kb"

// Read access for engines that change states by rules (package
// transitions): one ground atom evaluated exactly as a goal check would,
// and the recorded quantities a rule reads. None of these allocate.

// Atom evaluates one ground atom on the state as Eval would inside a
// goal: existence first, then a recorded fact, then recorded quantities,
// then geometry, then the closed world. Ids out of range give Unknown.
func (p *Program) Atom(s *State, pred PredID, a, b ObjectID) Truth {
	if !p.compatible(s) || int(pred) <= 0 || int(pred) >= numPreds || registry[pred].name == "" {
		return Unknown
	}
	if uint(a) >= uint(p.numIDs) {
		return Unknown
	}
	if registry[pred].arity == 2 {
		if uint(b) >= uint(p.numIDs) {
			return Unknown
		}
	} else {
		b = NoObject
	}
	v, _ := p.atom(s, pred, a, b)
	return v
}

// Box returns the object's recorded axis-aligned box (the box around its
// oriented box when only that is recorded).
func (s *State) Box(id ObjectID) (Box, bool) { return s.box(id) }

// Center returns where the object is: its box centre, else its recorded
// position.
func (s *State) Center(id ObjectID) ([3]float64, bool) { return s.center(id) }

// MaxTemperature returns the recorded highest temperature of the object.
func (s *State) MaxTemperature(id ObjectID) (float64, bool) {
	if uint(id) >= uint(s.nObj) || s.obj[id].has&FieldMaxTemperature == 0 {
		return 0, false
	}
	return s.obj[id].maxTemp, true
}

// Temperature returns the recorded temperature of the object.
func (s *State) Temperature(id ObjectID) (float64, bool) {
	if uint(id) >= uint(s.nObj) || s.obj[id].has&FieldTemperature == 0 {
		return 0, false
	}
	return s.obj[id].temp, true
}

// Has reports which of the given fields the object has recorded.
func (s *State) Has(id ObjectID, fields Field) Field {
	if uint(id) >= uint(s.nObj) {
		return 0
	}
	return s.obj[id].has & fields
}

// KB returns the knowledge base the program was compiled against (nil
// when none).
func (p *Program) KB() *kb.Base { return p.base }

// MayTouch is a cheap necessary condition for (touching a b) to be True:
// false when nothing recorded can make it so (no fact True for the atom,
// no contact list for either object, not both boxes). Rule engines test
// many pairs with it before evaluating the atom.
func (p *Program) MayTouch(s *State, a, b ObjectID) bool {
	if !p.compatible(s) || uint(a) >= uint(s.nObj) || uint(b) >= uint(s.nObj) || a == b {
		return false
	}
	switch s.Fact(predTouching, a, b) {
	case True:
		return true
	case False:
		return false
	}
	oa, ob := &s.obj[a], &s.obj[b]
	if (oa.has|ob.has)&FieldContacts != 0 {
		return true
	}
	const boxes = FieldAABB | FieldOBB
	return oa.has&boxes != 0 && ob.has&boxes != 0
}
