package episode

import (
	"math"
	"strconv"
	"strings"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/predicates"
)

// decoder parses the lines of one recording into batches. Field names
// are matched by switching on string(key), which Go compiles without
// allocating; only the failure path builds strings.
type decoder struct {
	sc  scanner
	res *resolver
	b   batch

	// mentioned is read while parsing to list first mentions (bound
	// mode); the Reader updates it when it applies a batch.
	mentioned []bool

	// unknown records the unknown field names already warned about
	// (shared by the decoders of one Reader); warn reports a new one.
	unknown map[string]bool
	warn    func(field string)

	// segs is the path of the field a parse failed in, innermost first:
	// each level adds its own segment as the failure returns through it.
	segs []string
}

// up adds a path segment to a failure on its way out.
func (d *decoder) up(seg string) bool {
	d.segs = append(d.segs, seg)
	return false
}

// failAt records a failure with its message; the first message wins.
func (d *decoder) failAt(seg, msg string) bool {
	d.sc.fail(msg)
	return d.up(seg)
}

// errPath renders the failure's field path: objects.apple.n.01_1.aabb.
func (d *decoder) errPath() string {
	var out string
	for i := len(d.segs) - 1; i >= 0; i-- {
		seg := d.segs[i]
		if seg == "" {
			seg = `""`
		}
		if out != "" && seg[0] != '[' {
			out += "."
		}
		out += seg
	}
	return out
}

func (d *decoder) unknownField(prefix, key []byte) {
	if d.warn == nil || d.unknown[string(key)] {
		return
	}
	d.unknown[string(key)] = true
	d.warn(string(prefix) + string(key))
}

// mention notes an instance named in the line: the first mention of an
// instance makes it exist (unless its record says otherwise).
func (d *decoder) mention(id predicates.ObjectID) {
	if int(id) < len(d.mentioned) && !d.mentioned[id] {
		d.b.mentions = append(d.b.mentions, id)
	}
}

// parseStep parses a step line into d.b; with prefix, the step object
// may be followed by anything, and d.sc.i is where it ended.
func (d *decoder) parseStep(line []byte, prefix bool) bool {
	d.sc.reset(line)
	d.b.reset()
	d.segs = d.segs[:0]
	empty, ok := d.sc.open('{', '}', "'{' (a step object)")
	if !ok {
		return false
	}
	for !empty {
		k, ok := d.sc.key()
		if !ok {
			return false
		}
		switch string(k) {
		case "step":
			n, ok := d.sc.integer()
			if !ok {
				return d.up("step")
			}
			d.b.step, d.b.hasStep = n, true
		case "t":
			if d.sc.null() {
				d.b.hasT = false
				break
			}
			f, ok := d.sc.number()
			if !ok {
				return d.up("t")
			}
			d.b.t, d.b.hasT = f, true
		case "objects":
			if !d.parseObjects() {
				return d.up("objects")
			}
		case "facts":
			if !d.parseAtoms("facts", predicates.True) {
				return false
			}
		case "false":
			if !d.parseAtoms("false", predicates.False) {
				return false
			}
		case "unset":
			if !d.parseAtoms("unset", predicates.Unknown) {
				return false
			}
		default:
			d.unknownField(nil, k)
			if !d.sc.skip() {
				return d.up(string(k))
			}
		}
		more, ok := d.sc.next('}')
		if !ok {
			return false
		}
		empty = !more
	}
	if !prefix && !d.sc.end() {
		return false
	}
	if !d.b.hasStep {
		return d.failAt("step", "missing: every step line needs its step number")
	}
	return true
}

// parseObjects parses {"<instance>": {fields}, ...}.
func (d *decoder) parseObjects() bool {
	if d.sc.null() {
		return true
	}
	empty, ok := d.sc.open('{', '}', "an object of instances")
	if !ok {
		return false
	}
	for !empty {
		name, ok := d.sc.key()
		if !ok {
			return false
		}
		id, ok := d.instance(name)
		if !ok {
			return d.failAt(string(name), d.unknownInstance(name))
		}
		d.mention(id)
		if !d.parseRecord(id) {
			return d.up(string(name))
		}
		more, ok := d.sc.next('}')
		if !ok {
			return false
		}
		empty = !more
	}
	return true
}

// instance resolves an instance name (not a constant).
func (d *decoder) instance(name []byte) (predicates.ObjectID, bool) {
	id, ok := d.res.object(name)
	if !ok || !d.res.isInstance(id) {
		return predicates.NoObject, false
	}
	return id, true
}

// reference resolves an instance named as the value of a field (a contact,
// an attachment parent), failing on an unknown one, and records that the
// instance was mentioned, so it exists.
func (d *decoder) reference(name []byte) (predicates.ObjectID, bool) {
	id, ok := d.instance(name)
	if !ok {
		return predicates.NoObject, d.sc.fail(d.unknownInstance(name))
	}
	d.mention(id)
	return id, true
}

func (d *decoder) unknownInstance(name []byte) string {
	if id, ok := d.res.object(name); ok && !d.res.isInstance(id) {
		return strconv.Quote(string(name)) + " is a constant, not an instance of :objects"
	}
	if len(name) == 0 {
		return "empty instance name"
	}
	if bddl.IsWildcard(string(name)) {
		// The reference's own scope names it so, but a recording names the
		// scene objects it stands for.
		stem := strings.TrimSuffix(string(name), "*")
		return strconv.Quote(string(name)) + " is a wildcard, not an instance: name the instances it stands for (" +
			stem + "1, " + stem + "2, …) in the header's objects"
	}
	return "unknown instance " + strconv.Quote(string(name)) + " (not in the activity's :objects)"
}

// fieldOf maps an object field's JSON name to its bit.
func fieldOf(key []byte) predicates.Field {
	switch string(key) {
	case "exists":
		return predicates.FieldExists
	case "pos":
		return predicates.FieldPosition
	case "quat":
		return predicates.FieldOrientation
	case "aabb":
		return predicates.FieldAABB
	case "obb":
		return predicates.FieldOBB
	case "temperature":
		return predicates.FieldTemperature
	case "max_temperature":
		return predicates.FieldMaxTemperature
	case "joints":
		return predicates.FieldJoints
	case "open_fraction":
		return predicates.FieldOpenFraction
	case "toggled_on":
		return predicates.FieldToggledOn
	case "sliced":
		return predicates.FieldSliced
	case "broken":
		return predicates.FieldBroken
	case "contacts":
		return predicates.FieldContacts
	case "attached_to":
		return predicates.FieldAttachedTo
	case "grasped_by":
		return predicates.FieldGraspedBy
	case "room":
		return predicates.FieldRoom
	case "particles":
		return predicates.FieldParticles
	case "cloth":
		return predicates.FieldCloth
	case "box_error":
		return predicates.FieldBoxError
	}
	return 0
}

// parseRecord parses one instance's fields.
func (d *decoder) parseRecord(id predicates.ObjectID) bool {
	if d.sc.ws() != '{' {
		return d.sc.fail("expected an object of fields, found " + d.sc.describe())
	}
	empty, _ := d.sc.open('{', '}', "")
	for !empty {
		k, ok := d.sc.key()
		if !ok {
			return false
		}
		f := fieldOf(k)
		switch {
		case f == 0:
			d.unknownField([]byte("objects.<instance>."), k)
			if !d.sc.skip() {
				return d.up(string(k))
			}
		case d.sc.null():
			d.b.ops = append(d.b.ops, op{kind: opClear, obj: id, field: f})
		default:
			if !d.parseField(id, f) {
				return d.up(string(k))
			}
		}
		more, ok := d.sc.next('}')
		if !ok {
			return false
		}
		empty = !more
	}
	return true
}

// parseField parses the value of one non-null field.
func (d *decoder) parseField(id predicates.ObjectID, f predicates.Field) bool {
	b := &d.b
	switch f {
	case predicates.FieldExists, predicates.FieldToggledOn, predicates.FieldSliced, predicates.FieldBroken:
		v, ok := d.sc.boolean()
		if !ok {
			return false
		}
		var kind opKind
		switch f {
		case predicates.FieldExists:
			kind = opExists
		case predicates.FieldToggledOn:
			kind = opToggledOn
		case predicates.FieldSliced:
			kind = opSliced
		default:
			kind = opBroken
		}
		b.ops = append(b.ops, op{kind: kind, obj: id, flag: v})
	case predicates.FieldPosition:
		return d.vector(id, opPos, 3)
	case predicates.FieldOrientation:
		return d.vector(id, opQuat, 4)
	case predicates.FieldAABB:
		if !d.vector(id, opAABB, 6) {
			return false
		}
		v := b.nums[len(b.nums)-6:]
		for k := 0; k < 3; k++ {
			if v[k] > v[k+3] {
				return d.sc.fail("min " + axisNames[k] + " " + fmtNum(v[k]) + " > max " + axisNames[k] + " " + fmtNum(v[k+3]))
			}
		}
	case predicates.FieldOBB:
		return d.obb(id)
	case predicates.FieldTemperature, predicates.FieldMaxTemperature, predicates.FieldOpenFraction:
		v, ok := d.sc.number()
		if !ok {
			return false
		}
		if !b.scalar(f, id, v) {
			return d.sc.fail(fmtNum(v) + " is outside [0, 1]")
		}
	case predicates.FieldJoints:
		return d.joints(id)
	case predicates.FieldContacts:
		return d.contacts(id)
	case predicates.FieldAttachedTo, predicates.FieldGraspedBy:
		name, ok := d.sc.str()
		if !ok {
			return false
		}
		ref := predicates.NoObject
		if len(name) > 0 {
			r, ok := d.reference(name)
			if !ok {
				return false
			}
			ref = r
		}
		kind := opAttachedTo
		if f == predicates.FieldGraspedBy {
			kind = opGraspedBy
		}
		b.ops = append(b.ops, op{kind: kind, obj: id, ref: ref})
	case predicates.FieldRoom:
		name, ok := d.sc.str()
		if !ok {
			return false
		}
		b.ops = append(b.ops, d.roomOp(id, name))
	case predicates.FieldParticles:
		return d.particles(id)
	case predicates.FieldCloth:
		return d.cloth(id)
	case predicates.FieldBoxError:
		if !d.vector(id, opBoxError, 2) {
			return false
		}
		v := b.nums[len(b.nums)-2:]
		for k, name := range [2]string{"horizontal", "vertical"} {
			if !(v[k] >= 0) {
				return d.sc.fail(name + " box error " + fmtNum(v[k]) + " is negative")
			}
		}
	}
	return true
}

var axisNames = [3]string{"x", "y", "z"}

func fmtNum(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// vector parses an array of exactly n numbers into an op.
func (d *decoder) vector(id predicates.ObjectID, kind opKind, n int) bool {
	b := &d.b
	off := len(b.nums)
	if !d.numbers(n) {
		return false
	}
	b.ops = append(b.ops, op{kind: kind, obj: id, off: int32(off), n: int32(n)})
	return true
}

// numbers appends exactly n numbers read from an array to b.nums.
func (d *decoder) numbers(n int) bool {
	if d.sc.ws() != '[' {
		return d.sc.fail("expected an array of " + strconv.Itoa(n) + " numbers, found " + d.sc.describe())
	}
	d.sc.i++
	for k := 0; k < n; k++ {
		if k > 0 {
			if d.sc.ws() == ']' {
				return d.sc.fail("expected " + strconv.Itoa(n) + " numbers, found " + strconv.Itoa(k))
			}
			if !d.sc.expect(',', "','") {
				return false
			}
		}
		v, ok := d.sc.number()
		if !ok {
			return false
		}
		d.b.nums = append(d.b.nums, v)
	}
	switch d.sc.ws() {
	case ']':
		d.sc.i++
		return true
	case ',':
		return d.sc.fail("expected " + strconv.Itoa(n) + " numbers, found more")
	}
	return d.sc.fail("expected ']', found " + d.sc.describe())
}

// obb parses eight corners and rejects a degenerate box with the rule of
// predicates.SetOBB, before any state changes.
func (d *decoder) obb(id predicates.ObjectID) bool {
	b := &d.b
	off := len(b.nums)
	if !d.sc.expect('[', "an array of 8 corners") {
		return false
	}
	for k := 0; k < 8; k++ {
		if k > 0 {
			if d.sc.ws() == ']' {
				return d.sc.fail("expected 8 corners, found " + strconv.Itoa(k))
			}
			if !d.sc.expect(',', "','") {
				return false
			}
		}
		if !d.numbers(3) {
			return false
		}
	}
	if d.sc.ws() != ']' {
		return d.sc.fail("expected 8 corners, found more")
	}
	d.sc.i++
	var corners predicates.OBB
	for k := range corners {
		copy(corners[k][:], b.nums[off+3*k:off+3*k+3])
	}
	if err := predicates.CheckOBB(&corners); err != nil {
		return d.sc.fail("box is " + err.Error())
	}
	b.ops = append(b.ops, op{kind: opOBB, obj: id, off: int32(off), n: 24})
	return true
}

// joints parses {"<name>": {"q": …, "lo": …, "hi": …, "dir": ±1}, ...}.
// The record replaces the object's joints, so limits are required.
func (d *decoder) joints(id predicates.ObjectID) bool {
	b := &d.b
	off := len(b.joints)
	empty, ok := d.sc.open('{', '}', "an object of joints")
	if !ok {
		return false
	}
	for !empty {
		name, ok := d.sc.key()
		if !ok {
			return false
		}
		start := len(b.names)
		b.names = append(b.names, name...)
		b.jnames = append(b.jnames, [2]int32{int32(start), int32(len(b.names))})
		j := predicates.Joint{Q: math.NaN(), Lo: math.NaN(), Hi: math.NaN()}
		jEmpty, ok := d.sc.open('{', '}', "a joint object")
		if !ok {
			return d.up(string(name))
		}
		for !jEmpty {
			k, ok := d.sc.key()
			if !ok {
				return d.subFail(name)
			}
			switch string(k) {
			case "q", "lo", "hi":
				v, ok := d.sc.number()
				if !ok {
					return d.subFail(name, string(k))
				}
				switch k[0] {
				case 'q':
					j.Q = v
				case 'l':
					j.Lo = v
				default:
					j.Hi = v
				}
			case "dir":
				v, ok := d.sc.integer()
				if !ok || v != 1 && v != -1 {
					d.sc.msg = ""
					d.sc.fail("must be 1 or -1")
					return d.subFail(name, "dir")
				}
				j.Dir = int8(v)
			default:
				d.unknownField([]byte("objects.<instance>.joints.<joint>."), k)
				if !d.sc.skip() {
					return d.subFail(name, string(k))
				}
			}
			more, ok := d.sc.next('}')
			if !ok {
				return d.subFail(name)
			}
			jEmpty = !more
		}
		switch {
		case math.IsNaN(j.Q):
			d.sc.fail("missing")
			return d.subFail(name, "q")
		case math.IsNaN(j.Lo):
			d.sc.fail("missing: a joint record needs its limits")
			return d.subFail(name, "lo")
		case math.IsNaN(j.Hi):
			d.sc.fail("missing: a joint record needs its limits")
			return d.subFail(name, "hi")
		case j.Lo > j.Hi:
			d.sc.fail("lo " + fmtNum(j.Lo) + " > hi " + fmtNum(j.Hi))
			return d.subFail(name)
		}
		b.joints = append(b.joints, j)
		more, ok := d.sc.next('}')
		if !ok {
			return false
		}
		empty = !more
	}
	b.ops = append(b.ops, op{kind: opJoints, obj: id, off: int32(off), n: int32(len(b.joints) - off)})
	return true
}

// subFail adds the path of a failure inside a named record (a joint, a
// substance): name, then the field when there is one.
func (d *decoder) subFail(name []byte, sub ...string) bool {
	for i := len(sub) - 1; i >= 0; i-- {
		d.up(sub[i])
	}
	return d.up(string(name))
}

// contacts parses an array of instance names.
func (d *decoder) contacts(id predicates.ObjectID) bool {
	b := &d.b
	off := len(b.ids)
	empty, ok := d.sc.open('[', ']', "an array of instances")
	if !ok {
		return false
	}
	for !empty {
		name, ok := d.sc.str()
		if !ok {
			return false
		}
		c, ok := d.reference(name)
		if !ok {
			return false
		}
		b.ids = append(b.ids, c)
		more, ok := d.sc.next(']')
		if !ok {
			return false
		}
		empty = !more
	}
	b.ops = append(b.ops, op{kind: opContacts, obj: id, off: int32(off), n: int32(len(b.ids) - off)})
	return true
}

// particles parses {"<substance>": {counts} | null, ...}.
func (d *decoder) particles(id predicates.ObjectID) bool {
	b := &d.b
	empty, ok := d.sc.open('{', '}', "an object of substances")
	if !ok {
		return false
	}
	for !empty {
		name, ok := d.sc.key()
		if !ok {
			return false
		}
		sub, ok := d.instance(name)
		if !ok {
			d.sc.fail(d.unknownInstance(name))
			return d.subFail(name)
		}
		if d.res.prog != nil && !d.res.prog.IsSubstance(sub) {
			d.sc.fail(strconv.Quote(string(name)) + " is not a substance (a particle system) of this activity")
			return d.subFail(name)
		}
		d.mention(sub)
		off := len(b.nums)
		if d.sc.null() {
			b.ops = append(b.ops, op{kind: opParticles, obj: id, ref: sub, flag: true, off: int32(off), n: 5})
			b.nums = append(b.nums, math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN())
		} else {
			b.nums = append(b.nums, math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN())
			v := b.nums[off:]
			empty, ok := d.sc.open('{', '}', "an object of particle counts")
			if !ok {
				return d.subFail(name)
			}
			for !empty {
				k, ok := d.sc.key()
				if !ok {
					return d.subFail(name)
				}
				slot := -1
				switch string(k) {
				case "inside":
					slot = 0
				case "fill_fraction":
					slot = 1
				case "covering":
					slot = 2
				case "absorbed":
					slot = 3
				case "absorb_limit":
					slot = 4
				default:
					d.unknownField([]byte("objects.<instance>.particles.<substance>."), k)
					if !d.sc.skip() {
						return d.subFail(name, string(k))
					}
				}
				if slot >= 0 && !d.sc.null() {
					x, ok := d.sc.number()
					if !ok {
						return d.subFail(name, string(k))
					}
					if x < 0 {
						d.sc.fail(fmtNum(x) + " is negative")
						return d.subFail(name, string(k))
					}
					v[slot] = x
				}
				more, ok := d.sc.next('}')
				if !ok {
					return d.subFail(name)
				}
				empty = !more
			}
			b.ops = append(b.ops, op{kind: opParticles, obj: id, ref: sub, off: int32(off), n: 5})
		}
		more, ok := d.sc.next('}')
		if !ok {
			return false
		}
		empty = !more
	}
	return true
}

// cloth parses {"area_ratio": a, "diagonal_ratio": d, "smoothness": s}.
func (d *decoder) cloth(id predicates.ObjectID) bool {
	b := &d.b
	off := len(b.nums)
	b.nums = append(b.nums, math.NaN(), math.NaN(), math.NaN())
	v := b.nums[off:]
	empty, ok := d.sc.open('{', '}', "an object of cloth ratios")
	if !ok {
		return false
	}
	for !empty {
		k, ok := d.sc.key()
		if !ok {
			return false
		}
		slot := -1
		switch string(k) {
		case "area_ratio":
			slot = 0
		case "diagonal_ratio":
			slot = 1
		case "smoothness":
			slot = 2
		default:
			d.unknownField([]byte("objects.<instance>.cloth."), k)
			if !d.sc.skip() {
				return d.up(string(k))
			}
		}
		if slot >= 0 && !d.sc.null() {
			x, ok := d.sc.number()
			if !ok {
				return d.up(string(k))
			}
			v[slot] = x
		}
		more, ok := d.sc.next('}')
		if !ok {
			return false
		}
		empty = !more
	}
	b.ops = append(b.ops, op{kind: opCloth, obj: id, off: int32(off), n: 3})
	return true
}

// parseAtoms parses an array of atoms, each recorded with value t.
func (d *decoder) parseAtoms(field string, t predicates.Truth) bool {
	if d.sc.null() {
		return true
	}
	empty, ok := d.sc.open('[', ']', "an array of atoms")
	if !ok {
		return d.up(field)
	}
	for k := 0; !empty; k++ {
		if !d.atom(t) {
			return d.up(field + "[" + strconv.Itoa(k) + "]")
		}
		more, ok := d.sc.next(']')
		if !ok {
			return d.up(field)
		}
		empty = !more
	}
	return true
}

// atom parses ["pred", "a"] or ["pred", "a", "b"].
func (d *decoder) atom(t predicates.Truth) bool {
	if !d.sc.expect('[', `an atom ["pred", "arg", ...]`) {
		return false
	}
	name, ok := d.sc.str()
	if !ok {
		return false
	}
	pred, ok := d.res.pred(name)
	if !ok {
		return d.sc.fail("unknown predicate " + strconv.Quote(string(name)))
	}
	arity := pred.Arity()
	var args [2]predicates.ObjectID
	n := 0
	roomless := false
	for {
		c := d.sc.ws()
		if c == ']' {
			d.sc.i++
			break
		}
		if !d.sc.expect(',', "',' or ']'") {
			return false
		}
		arg, ok := d.sc.str()
		if !ok {
			return false
		}
		if n >= 2 {
			n++
			continue // counted for the message below
		}
		id, ok := d.res.object(arg)
		if !ok {
			// A room type the definition never names cannot matter to it:
			// recordings list every object's room.
			if pred == predInroom && n == 1 && d.res.prog != nil {
				n, roomless = n+1, true
				continue
			}
			return d.sc.fail(d.unknownInstance(arg))
		}
		args[n] = id
		n++
	}
	if n != arity {
		return d.sc.fail(pred.String() + " takes " + plural(arity, "argument") + ", found " + strconv.Itoa(n))
	}
	if !roomless {
		d.addFact(pred, args, arity, t)
	}
	return true
}

// addFact records a parsed atom's fact (both readers: atom, atomMarshal)
// and mentions its instances, so they exist; an atom about existence
// does not make its argument exist.
func (d *decoder) addFact(pred predicates.PredID, args [2]predicates.ObjectID, arity int, t predicates.Truth) {
	if name := pred.String(); name != "future" && name != "real" {
		for _, a := range args[:arity] {
			if d.res.isInstance(a) {
				d.mention(a)
			}
		}
	}
	if arity == 1 {
		args[1] = predicates.NoObject
	}
	d.b.ops = append(d.b.ops, op{kind: opFact, pred: pred, obj: args[0], ref: args[1], truth: t})
}

var predInroom, _ = predicates.PredByName("inroom")

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// roomOp sets an object's room from its record's "room" (both readers);
// an empty name is none.
func (d *decoder) roomOp(id predicates.ObjectID, name []byte) op {
	room := predicates.NoRoom
	if len(name) > 0 {
		room = d.res.room(name)
	}
	return op{kind: opRoom, obj: id, ref: predicates.ObjectID(room)}
}
