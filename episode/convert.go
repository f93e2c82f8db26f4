package episode

import (
	"github.com/openbddl/bddl/predicates"
)

// objectsOf turns a batch's object ops into values, keyed by name.
func objectsOf(b *batch, res *resolver) map[string]*Object {
	var out map[string]*Object
	get := func(id predicates.ObjectID) *Object {
		name := res.name(id)
		if out == nil {
			out = map[string]*Object{}
		}
		o := out[name]
		if o == nil {
			o = &Object{}
			out[name] = o
		}
		return o
	}
	for i := range b.ops {
		op := &b.ops[i]
		if op.kind == opFact {
			continue
		}
		o := get(op.obj)
		var v []float64
		switch op.kind {
		case opPos, opQuat, opAABB, opOBB, opTemp, opMaxTemp, opOpenFraction, opParticles, opCloth, opBoxError:
			v = b.numsOf(op)
		}
		field := fieldOfOp(op.kind)
		switch op.kind {
		case opClear:
			o.Null |= op.field
			o.Set &^= op.field
			o.forget(op.field)
			continue
		case opExists:
			o.Exists = op.flag
		case opPos:
			o.Pos = [3]float64(v)
		case opQuat:
			o.Quat = [4]float64(v)
		case opAABB:
			o.AABB = predicates.Box{Min: [3]float64(v[0:3]), Max: [3]float64(v[3:6])}
		case opOBB:
			for k := range o.OBB {
				o.OBB[k] = [3]float64(v[3*k : 3*k+3])
			}
		case opTemp:
			o.Temperature = v[0]
		case opMaxTemp:
			o.MaxTemperature = v[0]
		case opOpenFraction:
			o.OpenFraction = v[0]
		case opJoints:
			o.Joints = make([]Joint, 0, op.n)
			for k := op.off; k < op.off+op.n; k++ {
				j, span := b.joints[k], b.jnames[k]
				o.Joints = append(o.Joints, Joint{Name: string(b.names[span[0]:span[1]]), Q: j.Q, Lo: j.Lo, Hi: j.Hi, Dir: j.Dir})
			}
		case opToggledOn:
			o.ToggledOn = op.flag
		case opSliced:
			o.Sliced = op.flag
		case opBroken:
			o.Broken = op.flag
		case opContacts:
			o.Contacts = make([]string, 0, op.n)
			for _, c := range b.ids[op.off : op.off+op.n] {
				o.Contacts = append(o.Contacts, res.name(c))
			}
		case opAttachedTo:
			o.AttachedTo = res.name(op.ref)
		case opGraspedBy:
			o.GraspedBy = res.name(op.ref)
		case opRoom:
			o.Room = res.roomName(predicates.RoomID(op.ref))
		case opParticles:
			p := Particles{Substance: res.name(op.ref), Null: op.flag,
				Particles: predicates.Particles{Inside: v[0], FillFraction: v[1], Covering: v[2], Absorbed: v[3], AbsorbLimit: v[4]}}
			// A later record of the same substance on the line wins.
			replaced := false
			for k := range o.Particles {
				if o.Particles[k].Substance == p.Substance {
					o.Particles[k], replaced = p, true
				}
			}
			if !replaced {
				o.Particles = append(o.Particles, p)
			}
		case opCloth:
			o.Cloth = predicates.Cloth{AreaRatio: v[0], DiagonalRatio: v[1], Smoothness: v[2]}
		case opBoxError:
			o.BoxError = [2]float64(v)
		}
		o.Set |= field
		o.Null &^= field
	}
	return out
}

// fieldOfOp is the field an op sets.
func fieldOfOp(k opKind) predicates.Field {
	switch k {
	case opExists:
		return predicates.FieldExists
	case opPos:
		return predicates.FieldPosition
	case opQuat:
		return predicates.FieldOrientation
	case opAABB:
		return predicates.FieldAABB
	case opOBB:
		return predicates.FieldOBB
	case opTemp:
		return predicates.FieldTemperature
	case opMaxTemp:
		return predicates.FieldMaxTemperature
	case opJoints:
		return predicates.FieldJoints
	case opOpenFraction:
		return predicates.FieldOpenFraction
	case opToggledOn:
		return predicates.FieldToggledOn
	case opSliced:
		return predicates.FieldSliced
	case opBroken:
		return predicates.FieldBroken
	case opContacts:
		return predicates.FieldContacts
	case opAttachedTo:
		return predicates.FieldAttachedTo
	case opGraspedBy:
		return predicates.FieldGraspedBy
	case opRoom:
		return predicates.FieldRoom
	case opParticles:
		return predicates.FieldParticles
	case opCloth:
		return predicates.FieldCloth
	case opBoxError:
		return predicates.FieldBoxError
	}
	return 0
}

// atomsOf collects a batch's facts by value.
func atomsOf(b *batch, res *resolver, st *Step) {
	for i := range b.ops {
		op := &b.ops[i]
		if op.kind != opFact {
			continue
		}
		a := Atom{Pred: op.pred.String(), A: res.name(op.obj)}
		if op.pred.Arity() == 2 {
			a.B = res.name(op.ref)
		}
		switch op.truth {
		case predicates.True:
			st.Facts = append(st.Facts, a)
		case predicates.False:
			st.False = append(st.False, a)
		default:
			st.Unset = append(st.Unset, a)
		}
	}
}

// forget drops the values of fields that a line clears, so a field set and
// then cleared on one line reads the same as one only cleared.
func (o *Object) forget(f predicates.Field) {
	var zero Object
	for _, n := range fieldNames {
		if f&n.f != 0 {
			CopyField(o, &zero, n.f)
		}
	}
}
