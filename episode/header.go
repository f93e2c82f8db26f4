package episode

import (
	"strconv"
)

// headerLine is what parseHeader finds on line 1: the header's scalar
// fields, and where its objects and meta values lie in the line so that
// they can be parsed against a program later (Reader.Bind) or kept raw.
type headerLine struct {
	h          Header
	version    int64
	objects    [2]int // span of the objects value; zero when absent
	meta       [2]int
	hasVersion bool
}

// parseHeader parses line 1. Objects are skipped here (they need the
// activity, which the header names) but checked for JSON syntax.
func (d *decoder) parseHeader(line []byte, out *headerLine) bool {
	d.sc.reset(line)
	d.segs = d.segs[:0]
	empty, ok := d.sc.open('{', '}', "'{' (the header object)")
	if !ok {
		return false
	}
	for !empty {
		k, ok := d.sc.key()
		if !ok {
			return false
		}
		switch string(k) {
		case "bddl_episode":
			v, ok := d.sc.integer()
			if !ok {
				return d.up("bddl_episode")
			}
			if v != Version {
				return d.failAt("bddl_episode", "unsupported format version "+strconv.FormatInt(v, 10)+" (this reader reads version 1)")
			}
			out.version, out.hasVersion = v, true
		case "activity":
			s, ok := d.sc.str()
			if !ok {
				return d.up("activity")
			}
			if len(s) == 0 {
				return d.failAt("activity", "empty: name the activity or its problem file")
			}
			out.h.Activity = string(s)
		case "dt":
			if d.sc.null() {
				out.h.DT = 0
				break
			}
			v, ok := d.sc.number()
			if !ok {
				return d.up("dt")
			}
			if v <= 0 {
				return d.failAt("dt", fmtNum(v)+" is not a positive number of seconds")
			}
			out.h.DT = v
		case "closed_world":
			if d.sc.null() {
				out.h.ClosedWorld = false
				break
			}
			v, ok := d.sc.boolean()
			if !ok {
				return d.up("closed_world")
			}
			out.h.ClosedWorld = v
		case "steps":
			if d.sc.null() {
				out.h.Steps = 0
				break
			}
			v, ok := d.sc.integer()
			if !ok {
				return d.up("steps")
			}
			if v < 0 || v > 1<<40 {
				return d.failAt("steps", strconv.FormatInt(v, 10)+" is not a number of steps")
			}
			out.h.Steps = int(v)
		case "objects":
			d.sc.ws()
			start := d.sc.i
			if d.sc.null() {
				out.objects = [2]int{}
				break
			}
			if d.sc.ws() != '{' {
				return d.failAt("objects", "expected an object of instances, found "+d.sc.describe())
			}
			if !d.sc.skip() {
				return d.up("objects")
			}
			out.objects = [2]int{start, d.sc.i}
		case "meta":
			d.sc.ws()
			start := d.sc.i
			if !d.sc.skip() {
				return d.up("meta")
			}
			out.meta = [2]int{start, d.sc.i}
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
	if !d.sc.end() {
		return false
	}
	switch {
	case !out.hasVersion:
		return d.failAt("bddl_episode", "missing: line 1 is not a bddl episode header")
	case out.h.Activity == "":
		return d.failAt("activity", "missing: the header must name the activity")
	}
	return true
}
