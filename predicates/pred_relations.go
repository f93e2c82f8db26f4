package predicates

import "fmt"

// Existence, recorded pointers, rooms, and the legacy predicates that can
// only be recorded.

func registerRelations() {
	register(predFuture, predicate{name: "future", arity: 1, domains: inOmniGibson, ungated: true,
		rule: ruleFuture, detail: existsDetail,
		doc: "the object does not exist (yet) at this step"})
	register(predReal, predicate{name: "real", arity: 1, domains: inOmniGibson, ungated: true,
		rule: ruleReal, detail: existsDetail,
		doc: "the object exists at this step"})
	register(predAttached, predicate{name: "attached", arity: 2, domains: inOmniGibson,
		rule: ruleAttached, detail: pointerDetail("attached_to", FieldAttachedTo, func(o *objState) ObjectID { return o.attached }),
		doc: "A's recorded attachment parent is B"})
	register(predGrasped, predicate{name: "grasped", arity: 2, domains: inOmniGibson,
		rule: ruleGrasped, detail: pointerDetail("grasped_by", FieldGraspedBy, func(o *objState) ObjectID { return o.grasped }),
		doc: "A is recorded as grasped by B (the reference does not implement it)"})
	register(predInroom, predicate{name: "inroom", arity: 2, second: argRoomType, domains: inOmniGibson | inIGibson,
		rule: ruleInroom, detail: roomDetail,
		doc: "A's recorded room instance is of room type B (kitchen_0 is a kitchen)"})
	for _, legacy := range []struct {
		id   PredID
		name string
	}{
		{predDusty, "dusty"}, {predStained, "stained"}, {predSoaked, "soaked"},
		{predPerished, "perished"}, {predScrewed, "screwed"}, {predTimeset, "timeset"},
	} {
		name := legacy.name
		register(legacy.id, predicate{name: name, arity: 1, domains: inIGibson,
			rule:   func(*Program, *State, ObjectID, ObjectID) (Truth, Source) { return Unknown, SourceMissing },
			detail: func(*Program, *State, ObjectID, ObjectID) string { return name + " can only be recorded as a fact" },
			doc:    "recorded fact only (legacy; no quantity defines it)"})
	}
}

func ruleFuture(_ *Program, s *State, a, _ ObjectID) (Truth, Source) {
	if e := s.exists[a]; e != Unknown {
		return e.Not(), SourceExistence
	}
	return Unknown, SourceMissing
}

func ruleReal(_ *Program, s *State, a, _ ObjectID) (Truth, Source) {
	if e := s.exists[a]; e != Unknown {
		return e, SourceExistence
	}
	return Unknown, SourceMissing
}

func existsDetail(p *Program, s *State, a, _ ObjectID) string {
	switch s.exists[a] {
	case True:
		return p.Name(a) + " exists"
	case False:
		return p.Name(a) + " does not exist"
	}
	return "missing existence of " + p.Name(a)
}

func ruleAttached(_ *Program, s *State, a, b ObjectID) (Truth, Source) {
	o := &s.obj[a]
	if o.has&FieldAttachedTo == 0 {
		return Unknown, SourceMissing
	}
	return TruthOf(o.attached == b), SourceQuantity
}

func ruleGrasped(_ *Program, s *State, a, b ObjectID) (Truth, Source) {
	o := &s.obj[a]
	if o.has&FieldGraspedBy == 0 {
		return Unknown, SourceMissing
	}
	return TruthOf(o.grasped == b), SourceQuantity
}

func pointerDetail(field string, f Field, get func(*objState) ObjectID) detailFunc {
	return func(p *Program, s *State, a, _ ObjectID) string {
		o := &s.obj[a]
		if o.has&f == 0 {
			return "missing " + field + " of " + p.Name(a)
		}
		v := get(o)
		if v == NoObject {
			return fmt.Sprintf("%s of %s recorded as none", field, p.Name(a))
		}
		return fmt.Sprintf("%s of %s recorded as %s", field, p.Name(a), p.Name(v))
	}
}

func ruleInroom(_ *Program, s *State, a, b ObjectID) (Truth, Source) {
	o := &s.obj[a]
	if o.has&FieldRoom == 0 {
		return Unknown, SourceMissing
	}
	if o.room == NoRoom {
		return False, SourceQuantity
	}
	return TruthOf(s.roomType[o.room] == b), SourceQuantity
}

func roomDetail(p *Program, s *State, a, _ ObjectID) string {
	o := &s.obj[a]
	if o.has&FieldRoom == 0 {
		return "missing room of " + p.Name(a)
	}
	if o.room == NoRoom {
		return p.Name(a) + " recorded in no room"
	}
	return p.Name(a) + " recorded in " + s.RoomName(o.room)
}
