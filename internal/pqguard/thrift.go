package pqguard

import (
	"errors"
	"fmt"
)

// A reader of Thrift's compact protocol that allocates nothing: it walks
// a message, checks every declared length against the bytes left (each
// element of a list takes at least one byte) and counts the objects
// parquet-go would allocate, so a footer declaring 2³¹−1 schema elements
// in 21 bytes is refused here, before parquet-go pre-sizes a slice from it.

// Compact protocol types.
const (
	tStop   = 0
	tTrue   = 1
	tFalse  = 2
	tByte   = 3
	tI16    = 4
	tI32    = 5
	tI64    = 6
	tDouble = 7
	tBinary = 8
	tList   = 9
	tSet    = 10
	tMap    = 11
	tStruct = 12
)

// maxDepth bounds nesting (a Parquet footer nests about 6 deep).
const maxDepth = 32

// errShort is a message running past its bytes; the page walker retries
// with a larger window before reporting it.
var errShort = errors.New("cut short")

type walker struct {
	b       []byte
	off     int
	objects int // list, set and map elements seen
	maxObj  int
}

func (w *walker) left() int { return len(w.b) - w.off }

func (w *walker) byte1() (byte, error) {
	if w.off >= len(w.b) {
		return 0, errShort
	}
	c := w.b[w.off]
	w.off++
	return c, nil
}

func (w *walker) uvarint() (uint64, error) {
	var x uint64
	for s := uint(0); s < 70; s += 7 {
		c, err := w.byte1()
		if err != nil {
			return 0, err
		}
		x |= uint64(c&0x7f) << s
		if c < 0x80 {
			return x, nil
		}
	}
	return 0, errors.New("varint longer than 10 bytes")
}

func (w *walker) varint() (int64, error) {
	u, err := w.uvarint()
	return int64(u>>1) ^ -int64(u&1), err
}

// count adds n elements of at least min bytes each.
func (w *walker) count(n uint64, min int, what string) error {
	if n > uint64(w.left()/min) {
		return errorf("%s declares %d elements in %d bytes", what, n, w.left())
	}
	w.objects += int(n)
	if w.objects > w.maxObj {
		return errorf("more than %d metadata objects (limit)", w.maxObj)
	}
	return nil
}

func minSize(t byte) int {
	if t == tDouble {
		return 8
	}
	return 1
}

// listHeader reads a list or set header: element type and count, checked.
func (w *walker) listHeader(what string) (byte, int, error) {
	c, err := w.byte1()
	if err != nil {
		return 0, 0, err
	}
	et := c & 0x0f
	n := uint64(c >> 4)
	if n == 15 {
		if n, err = w.uvarint(); err != nil {
			return 0, 0, err
		}
	}
	if et == tStop || et > tStruct {
		return 0, 0, fmt.Errorf("%s: bad element type %d", what, et)
	}
	if err := w.count(n, minSize(et), what); err != nil {
		return 0, 0, err
	}
	return et, int(n), nil
}

// binary skips a length-prefixed string, checked against the bytes left.
func (w *walker) binary() ([]byte, error) {
	n, err := w.uvarint()
	if err != nil {
		return nil, err
	}
	if n > uint64(w.left()) {
		if n > 1<<40 {
			return nil, fmt.Errorf("a string declares %d bytes in %d", n, w.left())
		}
		return nil, errShort
	}
	s := w.b[w.off : w.off+int(n)]
	w.off += int(n)
	return s, nil
}

// field reads a field header; id is absolute.
func (w *walker) field(last int16) (typ byte, id int16, err error) {
	c, err := w.byte1()
	if err != nil {
		return 0, 0, err
	}
	typ = c & 0x0f
	if typ == tStop {
		return tStop, 0, nil
	}
	if d := c >> 4; d != 0 {
		return typ, last + int16(d), nil
	}
	v, err := w.varint()
	if err != nil {
		return 0, 0, err
	}
	if v < -1<<15 || v >= 1<<15 {
		return 0, 0, fmt.Errorf("field id %d out of range", v)
	}
	return typ, int16(v), nil
}

// skip walks a value of type t.
func (w *walker) skip(t byte, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("nested more than %d deep", maxDepth)
	}
	switch t {
	case tTrue, tFalse:
		return nil // the value is in the field header
	case tByte:
		_, err := w.byte1()
		return err
	case tI16, tI32, tI64:
		_, err := w.uvarint()
		return err
	case tDouble:
		if w.left() < 8 {
			return errShort
		}
		w.off += 8
		return nil
	case tBinary:
		_, err := w.binary()
		return err
	case tList, tSet:
		et, n, err := w.listHeader("a list")
		if err != nil {
			return err
		}
		for range n {
			if err := w.elem(et, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tMap:
		n, err := w.uvarint()
		if err != nil {
			return err
		}
		if n == 0 {
			return nil
		}
		kv, err := w.byte1()
		if err != nil {
			return err
		}
		if err := w.count(n, 2, "a map"); err != nil {
			return err
		}
		for range n {
			if err := w.elem(kv>>4, depth+1); err != nil {
				return err
			}
			if err := w.elem(kv&0x0f, depth+1); err != nil {
				return err
			}
		}
		return nil
	case tStruct:
		return w.structFields(depth, nil)
	}
	return fmt.Errorf("bad type %d", t)
}

// elem walks a list element: booleans there take a byte each.
func (w *walker) elem(t byte, depth int) error {
	if t == tTrue || t == tFalse {
		_, err := w.byte1()
		return err
	}
	return w.skip(t, depth)
}

// structFields walks a struct's fields to its stop, calling visit (when
// not nil) for each; visit returns handled=false to have the field
// skipped.
func (w *walker) structFields(depth int, visit func(t byte, id int16) (bool, error)) error {
	if depth > maxDepth {
		return fmt.Errorf("nested more than %d deep", maxDepth)
	}
	var last int16
	for {
		t, id, err := w.field(last)
		if err != nil {
			return err
		}
		if t == tStop {
			return nil
		}
		last = id
		if visit != nil {
			ok, err := visit(t, id)
			if err != nil {
				return err
			}
			if ok {
				continue
			}
		}
		if err := w.skip(t, depth+1); err != nil {
			return err
		}
	}
}

// int reads an integer field of type t (i16, i32, i64).
func (w *walker) int(t byte) (int64, bool, error) {
	switch t {
	case tByte:
		c, err := w.byte1()
		return int64(int8(c)), true, err
	case tI16, tI32, tI64:
		v, err := w.varint()
		return v, true, err
	}
	return 0, false, nil
}
