package episode

import (
	"fmt"

	"github.com/openbddl/bddl/predicates"
)

// apply writes a validated batch into the state: first the existence of
// instances mentioned for the first time, then every op in line order.
// The parser has checked everything the setters check, so an error here
// is a bug, reported rather than ignored.
func apply(s *predicates.State, b *batch, mentioned []bool) error {
	for _, id := range b.mentions {
		if !mentioned[id] {
			mentioned[id] = true
			if err := s.SetExists(id, true); err != nil {
				return err
			}
		}
	}
	for i := range b.ops {
		if err := applyOp(s, b, &b.ops[i]); err != nil {
			return fmt.Errorf("episode: applying a validated step: %w", err)
		}
	}
	return nil
}

func applyOp(s *predicates.State, b *batch, o *op) error {
	switch o.kind {
	case opExists:
		return s.SetExists(o.obj, o.flag)
	case opPos:
		return s.SetPosition(o.obj, [3]float64(b.numsOf(o)))
	case opQuat:
		return s.SetOrientation(o.obj, [4]float64(b.numsOf(o)))
	case opAABB:
		v := b.numsOf(o)
		return s.SetAABB(o.obj, predicates.Box{Min: [3]float64(v[0:3]), Max: [3]float64(v[3:6])})
	case opOBB:
		var c predicates.OBB
		v := b.numsOf(o)
		for k := range c {
			c[k] = [3]float64(v[3*k : 3*k+3])
		}
		return s.SetOBB(o.obj, c)
	case opTemp:
		return s.SetTemperature(o.obj, b.nums[o.off])
	case opMaxTemp:
		return s.SetMaxTemperature(o.obj, b.nums[o.off])
	case opOpenFraction:
		return s.SetOpenFraction(o.obj, b.nums[o.off])
	case opJoints:
		return s.SetJoints(o.obj, b.joints[o.off:o.off+o.n])
	case opToggledOn:
		return s.SetToggledOn(o.obj, o.flag)
	case opSliced:
		return s.SetSliced(o.obj, o.flag)
	case opBroken:
		return s.SetBroken(o.obj, o.flag)
	case opContacts:
		return s.SetContacts(o.obj, b.ids[o.off:o.off+o.n])
	case opAttachedTo:
		return s.SetAttachedTo(o.obj, o.ref)
	case opGraspedBy:
		return s.SetGraspedBy(o.obj, o.ref)
	case opRoom:
		return s.SetRoom(o.obj, predicates.RoomID(o.ref))
	case opParticles:
		v := b.numsOf(o)
		return s.SetParticles(o.obj, o.ref, predicates.Particles{Inside: v[0], FillFraction: v[1], Covering: v[2], Absorbed: v[3], AbsorbLimit: v[4]})
	case opCloth:
		v := b.numsOf(o)
		return s.SetCloth(o.obj, predicates.Cloth{AreaRatio: v[0], DiagonalRatio: v[1], Smoothness: v[2]})
	case opBoxError:
		v := b.numsOf(o)
		return s.SetBoxError(o.obj, v[0], v[1])
	case opClear:
		return s.Clear(o.obj, o.field)
	case opFact:
		return s.SetFact(o.pred, o.obj, o.ref, o.truth)
	}
	return fmt.Errorf("unknown op %d", o.kind)
}
