package kb

import (
	"strconv"
)

// gval is a decoded JSON or YAML value: the common input of the parameter
// and rule decoders, so both loaders validate data the same way.
type gval struct {
	kind gkind
	num  float64
	str  string
	list []gval
	keys []string // object keys in data order
	vals []gval
	// where locates the value: a byte offset in a JSON file, or a line
	// number in a YAML file (see source.locate).
	where int32
}

type gkind uint8

const (
	gNull gkind = iota
	gBool
	gNumber
	gString
	gList
	gObject
)

func (k gkind) String() string {
	switch k {
	case gNull:
		return "null"
	case gBool:
		return "boolean"
	case gNumber:
		return "number"
	case gString:
		return "string"
	case gList:
		return "list"
	case gObject:
		return "object"
	}
	return "value"
}

func (g gval) boolean() bool { return g.num != 0 }

// field returns the value of key in an object.
func (g gval) field(key string) (gval, bool) {
	for i, k := range g.keys {
		if k == key {
			return g.vals[i], true
		}
	}
	return gval{}, false
}

// toAny converts to plain Go values for parameters the schema does not
// know, so they can still be shown and encoded as JSON.
func (g gval) toAny() any {
	switch g.kind {
	case gBool:
		return g.boolean()
	case gNumber:
		return g.num
	case gString:
		return g.str
	case gList:
		out := make([]any, len(g.list))
		for i, v := range g.list {
			out[i] = v.toAny()
		}
		return out
	case gObject:
		out := make(map[string]any, len(g.keys))
		for i, k := range g.keys {
			out[k] = g.vals[i].toAny()
		}
		return out
	}
	return nil
}

// text renders a scalar for messages.
func (g gval) text() string {
	switch g.kind {
	case gNull:
		return "null"
	case gBool:
		return strconv.FormatBool(g.boolean())
	case gNumber:
		return strconv.FormatFloat(g.num, 'g', -1, 64)
	case gString:
		return strconv.Quote(g.str)
	}
	return "a " + g.kind.String()
}

// source is the file a gval came from, used to turn its where into a
// Location.
type source struct {
	file string
	data []byte // JSON: where is an offset into data; nil for YAML (where is a line)
	yaml bool
}

func (s source) locate(g gval, keys ...string) Location {
	loc := Location{File: s.file, Key: keyPath(keys...)}
	if s.yaml {
		loc.Line = int(g.where)
	} else if s.data != nil {
		loc.Line = lineAt(s.data, int(g.where))
	}
	return loc
}

// at locates by key path, and by line only where that is free (YAML):
// cheap enough to store with every record.
func (s source) at(g gval, keys ...string) Location {
	loc := Location{File: s.file, Key: keyPath(keys...)}
	if s.yaml {
		loc.Line = int(g.where)
	}
	return loc
}

// lineAt counts the line of a byte offset; it is only called for errors.
func lineAt(data []byte, off int) int {
	if off > len(data) {
		off = len(data)
	}
	line := 1
	for _, c := range data[:off] {
		if c == '\n' {
			line++
		}
	}
	return line
}
