package episode

import (
	"math"
	"strconv"

	"github.com/openbddl/bddl/internal/pymarshal"
	"github.com/openbddl/bddl/predicates"
)

// Steps given as dicts that Python's marshal wrote (bddl serve's
// group.step, whose steps come as one marshalled list) are read here
// straight into the step's batch, without their JSON text: writing it
// and parsing it again cost the server a third of a group step's work.
// Only what a line is read into without a message is read so: the step
// number, t, facts, false, unset, and the instances' simple fields. For
// anything else (a field this reader leaves to the line's parser, an
// unknown field, which warns, or a value the parser refuses) the dict is
// given up before anything is applied and its JSON line parsed as Feed
// parses it, so that the step's meaning and errors never depend on the
// way it came (FuzzMarshalStep).

// MarshalStep is one step as a marshalled dict: item Item of Doc.
type MarshalStep struct {
	Doc  *pymarshal.Doc
	Item int
	// Number, when HasNumber, is a step number given beside the dict: the
	// step's line is then {"step": Number, ...the dict's items}, so a
	// "step" in the dict wins, as a later key does in a line.
	Number    int64
	HasNumber bool
}

// Line is the step's line, what Feed would be given: the item's JSON
// text (pymarshal.ToJSON's), with the number first when there is one.
func (m *MarshalStep) Line() []byte {
	body := m.Doc.AppendJSON(make([]byte, 0, m.length()), m.Item)
	if !m.HasNumber || len(body) < 2 {
		return body
	}
	line := strconv.AppendInt(append(make([]byte, 0, m.length()), `{"step":`...), m.Number, 10)
	if len(body) > 2 {
		line = append(append(line, ','), body[1:len(body)-1]...)
	}
	return append(line, '}')
}

// length is len(m.Line()).
func (m *MarshalStep) length() int {
	n := m.Doc.Items[m.Item].JSONLen
	if m.HasNumber {
		var buf [24]byte
		if n > 2 {
			n++ // the comma after the number
		}
		n += len(`"step":`) + len(strconv.AppendInt(buf[:0], m.Number, 10))
	}
	return n
}

// FeedMarshal is Feed for a step given as a marshalled dict.
func (st *Stepper) FeedMarshal(m *MarshalStep) (StepInfo, error) {
	if st.stopped != nil {
		return StepInfo{}, st.stopped
	}
	_, info, err := st.c.r.feed(nil, false, m)
	if err == nil {
		err = st.c.step(info)
	}
	if err != nil && !(st.c.opts.Lenient && isSkipped(err)) {
		st.stopped = err
	}
	return info, err
}

// FeedMarshal is Reader.Feed for a step given as a marshalled dict.
func (r *Reader) FeedMarshal(m *MarshalStep) (StepInfo, error) {
	_, info, err := r.feed(nil, false, m)
	return info, err
}

// parseStepMarshal is parseStep for a marshalled dict; false gives the
// step up (nothing applied, no message: the caller parses its line).
func (d *decoder) parseStepMarshal(m *MarshalStep) bool {
	d.b.reset()
	d.segs = d.segs[:0]
	if m.HasNumber {
		d.b.step, d.b.hasStep = m.Number, true
	}
	c := m.Doc.At(m.Item)
	ret, ok := c.Dict()
	if !ok {
		return false
	}
	for c.More() {
		k, ok := c.Str()
		if !ok {
			return false
		}
		switch string(k) {
		case "step":
			n, ok := c.Int()
			if !ok {
				return false
			}
			d.b.step, d.b.hasStep = n, true
		case "t":
			if c.None() {
				d.b.hasT = false
				break
			}
			f, ok := marshalNumber(&c)
			if !ok {
				return false
			}
			d.b.t, d.b.hasT = f, true
		case "objects":
			if !d.objectsMarshal(&c) {
				return false
			}
		case "facts":
			if !d.atomsMarshal(&c, predicates.True) {
				return false
			}
		case "false":
			if !d.atomsMarshal(&c, predicates.False) {
				return false
			}
		case "unset":
			if !d.atomsMarshal(&c, predicates.Unknown) {
				return false
			}
		default:
			return false // unknown: the line's parser warns
		}
	}
	c.End(ret)
	return d.b.hasStep
}

// marshalNumber reads a number as the line's parser does (NaN and the
// infinities are not numbers).
func marshalNumber(c *pymarshal.Cursor) (float64, bool) {
	f, ok := c.Float()
	if !ok || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// objectsMarshal is parseObjects.
func (d *decoder) objectsMarshal(c *pymarshal.Cursor) bool {
	if c.None() {
		return true
	}
	ret, ok := c.Dict()
	if !ok {
		return false
	}
	for c.More() {
		id, ok := d.instanceMarshal(c)
		if !ok {
			return false
		}
		if !d.recordMarshal(c, id) {
			return false
		}
	}
	c.End(ret)
	return true
}

// recordMarshal is parseRecord.
func (d *decoder) recordMarshal(c *pymarshal.Cursor, id predicates.ObjectID) bool {
	ret, ok := c.Dict()
	if !ok {
		return false
	}
	for c.More() {
		k, ok := c.Str()
		if !ok {
			return false
		}
		f := fieldOf(k)
		switch {
		case f == 0:
			return false // unknown: the line's parser warns
		case c.None():
			d.b.ops = append(d.b.ops, op{kind: opClear, obj: id, field: f})
		default:
			if !d.fieldMarshal(c, id, f) {
				return false
			}
		}
	}
	c.End(ret)
	return true
}

// fieldMarshal is parseField for the fields read here; the others
// (obb, joints, particles, cloth) give the step up.
func (d *decoder) fieldMarshal(c *pymarshal.Cursor, id predicates.ObjectID, f predicates.Field) bool {
	b := &d.b
	switch f {
	case predicates.FieldExists, predicates.FieldToggledOn, predicates.FieldSliced, predicates.FieldBroken:
		v, ok := c.Bool()
		if !ok {
			return false
		}
		kind := opBroken
		switch f {
		case predicates.FieldExists:
			kind = opExists
		case predicates.FieldToggledOn:
			kind = opToggledOn
		case predicates.FieldSliced:
			kind = opSliced
		}
		b.ops = append(b.ops, op{kind: kind, obj: id, flag: v})
	case predicates.FieldPosition:
		return d.vectorMarshal(c, id, opPos, 3)
	case predicates.FieldOrientation:
		return d.vectorMarshal(c, id, opQuat, 4)
	case predicates.FieldAABB:
		if !d.vectorMarshal(c, id, opAABB, 6) {
			return false
		}
		v := b.nums[len(b.nums)-6:]
		return v[0] <= v[3] && v[1] <= v[4] && v[2] <= v[5]
	case predicates.FieldBoxError:
		if !d.vectorMarshal(c, id, opBoxError, 2) {
			return false
		}
		v := b.nums[len(b.nums)-2:]
		return v[0] >= 0 && v[1] >= 0
	case predicates.FieldTemperature, predicates.FieldMaxTemperature, predicates.FieldOpenFraction:
		v, ok := marshalNumber(c)
		if !ok {
			return false
		}
		if !b.scalar(f, id, v) {
			return false
		}
	case predicates.FieldContacts:
		n, ret, ok := c.List()
		if !ok {
			return false
		}
		off := len(b.ids)
		for range n {
			ref, ok := d.instanceMarshal(c)
			if !ok {
				return false
			}
			b.ids = append(b.ids, ref)
		}
		c.End(ret)
		b.ops = append(b.ops, op{kind: opContacts, obj: id, off: int32(off), n: int32(len(b.ids) - off)})
	case predicates.FieldAttachedTo, predicates.FieldGraspedBy:
		name, ok := c.Str()
		if !ok {
			return false
		}
		ref := predicates.NoObject
		if len(name) > 0 {
			if ref, ok = d.instance(name); !ok {
				return false
			}
			d.mention(ref)
		}
		kind := opAttachedTo
		if f == predicates.FieldGraspedBy {
			kind = opGraspedBy
		}
		b.ops = append(b.ops, op{kind: kind, obj: id, ref: ref})
	case predicates.FieldRoom:
		name, ok := c.Str()
		if !ok {
			return false
		}
		b.ops = append(b.ops, d.roomOp(id, name))
	default:
		return false
	}
	return true
}

// vectorMarshal is vector: exactly n finite numbers.
func (d *decoder) vectorMarshal(c *pymarshal.Cursor, id predicates.ObjectID, kind opKind, n int) bool {
	k, ret, ok := c.List()
	if !ok || k != n {
		return false
	}
	b := &d.b
	off := len(b.nums)
	for range n {
		v, ok := marshalNumber(c)
		if !ok {
			return false
		}
		b.nums = append(b.nums, v)
	}
	c.End(ret)
	b.ops = append(b.ops, op{kind: kind, obj: id, off: int32(off), n: int32(n)})
	return true
}

// atomsMarshal is parseAtoms.
func (d *decoder) atomsMarshal(c *pymarshal.Cursor, t predicates.Truth) bool {
	if c.None() {
		return true
	}
	n, ret, ok := c.List()
	if !ok {
		return false
	}
	for range n {
		if !d.atomMarshal(c, t) {
			return false
		}
	}
	c.End(ret)
	return true
}

// atomMarshal is atom: ["pred", "a"] or ["pred", "a", "b"].
func (d *decoder) atomMarshal(c *pymarshal.Cursor, t predicates.Truth) bool {
	m, ret, ok := c.List()
	if !ok || m < 2 || m > 3 {
		return false
	}
	name, ok := c.Str()
	if !ok {
		return false
	}
	pred, ok := d.res.pred(name)
	if !ok || pred.Arity() != m-1 {
		return false
	}
	var args [2]predicates.ObjectID
	roomless := false
	for k := range m - 1 {
		arg, ok := c.Str()
		if !ok {
			return false
		}
		id, ok := d.res.object(arg)
		if !ok {
			// As atom: a room type the definition never names.
			if pred == predInroom && k == 1 && d.res.prog != nil {
				roomless = true
				continue
			}
			return false
		}
		args[k] = id
	}
	c.End(ret)
	if !roomless {
		d.addFact(pred, args, m-1, t)
	}
	return true
}

// instanceMarshal reads an instance's name and resolves it, as mentioned.
func (d *decoder) instanceMarshal(c *pymarshal.Cursor) (predicates.ObjectID, bool) {
	name, ok := c.Str()
	if !ok {
		return predicates.NoObject, false
	}
	id, ok := d.instance(name)
	if ok {
		d.mention(id)
	}
	return id, ok
}
