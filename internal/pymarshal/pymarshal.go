// Package pymarshal reads the values Python's marshal module writes
// (format version 4, the one marshal.dumps(v, 4) writes on every Python
// from 3.4) and writes them out as the JSON text json.dumps writes for
// the same value (separators "," and ":", ensure_ascii off, allow_nan
// on).
//
// It exists for one reason: marshal.dumps encodes a list of step dicts
// about ten times faster than json.dumps, and the encoding was the
// larger half of openbddl's Session.run per step. Only what JSON can
// hold is read: None, booleans, integers, floats, str, tuples and lists
// (as arrays), dicts with str keys, and back-references to any of these.
// Anything else (bytes, which is how marshal writes a numpy array or
// scalar through the buffer protocol, sets, code, complex numbers, dict
// keys that are not str) is ErrUnsupported: the caller encodes the value
// with json instead, so the meaning of a request never depends on the
// encoding the client chose.
package pymarshal

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"unicode/utf8"
)

// ErrUnsupported is wrapped by the error for a value JSON cannot hold
// (or that json.dumps would write differently); the input may be a valid
// marshal stream.
var ErrUnsupported = errors.New("a value JSON cannot hold")

// MaxDepth bounds the nesting of containers (json.dumps' own recursion
// limit is about this deep).
const MaxDepth = 512

// The type codes of marshal.c, version 4.
const (
	flagRef = 0x80

	typeNull              = '0'
	typeNone              = 'N'
	typeFalse             = 'F'
	typeTrue              = 'T'
	typeInt               = 'i'
	typeLong              = 'l'
	typeBinaryFloat       = 'g'
	typeString            = 's' // bytes
	typeInterned          = 't'
	typeRef               = 'r'
	typeTuple             = '('
	typeList              = '['
	typeDict              = '{'
	typeUnicode           = 'u'
	typeASCII             = 'a'
	typeASCIIInterned     = 'A'
	typeSmallTuple        = ')'
	typeShortASCII        = 'z'
	typeShortASCIIInterne = 'Z'
)

// MaxIntDigits is the most decimal digits of an integer: Python's own
// limit for converting an int to text (sys.int_info.default_max_str_digits),
// so json.dumps refuses the same integer. Past it the conversion would
// also be quadratic in the digits.
const MaxIntDigits = 4300

// Limits bound what one input may expand to: a few hundred bytes of
// nested back-references can repeat a container into gigabytes.
type Limits struct {
	MaxOut     int // bytes of JSON text
	MaxObjects int // JSON values written, those repeated by back-references included
}

// LimitsFor are the limits for an input of n bytes: the JSON text at
// most 64 times the input (1 MiB at least) and maxOut, and 16 values per
// input byte (65,536 at least). Python writes a repeated object (an
// interned key, a list shared by every step) as a reference, so a real
// request expands a few times; a bomb of references expands without end.
func LimitsFor(n, maxOut int) Limits {
	return Limits{MaxOut: min(max(64*n, 1<<20), maxOut), MaxObjects: max(16*n, 1<<16)}
}

// ToJSON appends the JSON text of the one marshal value in src to dst,
// within LimitsFor(len(src), maxOut). Errors name the byte offset where
// reading stopped.
func ToJSON(dst, src []byte, maxOut int) ([]byte, error) {
	return ToJSONLimits(dst, src, LimitsFor(len(src), maxOut))
}

// ErrLimit is wrapped by the error for an input expanding past its Limits.
var ErrLimit = errors.New("limit")

// ToJSONLimits is ToJSON within lim.
func ToJSONLimits(dst, src []byte, lim Limits) ([]byte, error) {
	refs := refsPool.Get().(*[]span)
	t := transcoder{input: input{src: src}, out: dst, base: len(dst), maxOut: lim.MaxOut, maxObjects: lim.MaxObjects, refs: (*refs)[:0]}
	err := t.value(0, false)
	if cap(t.refs) <= maxPooledRefs {
		*refs = t.refs
		refsPool.Put(refs)
	}
	if err != nil {
		return dst, err
	}
	if t.pos != len(src) {
		return dst, t.errorf("%d bytes after the value", len(src)-t.pos)
	}
	return t.out, nil
}

// refsPool keeps the back-reference tables of past calls: a table grows
// to a few hundred entries for a tick of a vectorised loop (every
// interned key and name is one), a third of the call's allocation.
var refsPool = sync.Pool{New: func() any { return new([]span) }}

// maxPooledRefs bounds a table kept for reuse (24 bytes an entry).
const maxPooledRefs = 1 << 14

// span is a back-reference target in out (end < 0 while it is being
// written) and the values it holds.
type span struct{ start, end, objs int }

type transcoder struct {
	input
	out        []byte
	base       int
	maxOut     int
	maxObjects int
	objects    int
	refs       []span
}

func (t *transcoder) grew() error {
	if len(t.out)-t.base > t.maxOut {
		return t.limit("the JSON text exceeds %d bytes", t.maxOut)
	}
	if t.objects > t.maxObjects {
		return t.limit("more than %d values", t.maxObjects)
	}
	return nil
}

func (t *transcoder) limit(format string, args ...any) error {
	return fmt.Errorf("marshal data at byte %d: %s (%w: back-references expand it past what its %d bytes may)", t.pos, fmt.Sprintf(format, args...), ErrLimit, len(t.src))
}

// value writes one value; key is set for a dict key (a str only).
func (t *transcoder) value(depth int, key bool) error {
	if err := t.need(1); err != nil {
		return err
	}
	code := t.src[t.pos]
	t.pos++
	ref := -1
	if code&flagRef != 0 {
		code &^= flagRef
		ref = len(t.refs) // marshal numbers references in the order values begin
		t.refs = append(t.refs, span{len(t.out), -1, 0})
	}
	start, objStart := len(t.out), t.objects
	t.objects++
	if key && !isStr(code) && code != typeRef {
		return t.unsupported(fmt.Sprintf("a dict key of type code %q (json.dumps writes only str keys as they are)", code))
	}
	var err error
	switch code {
	case typeNone:
		t.out = append(t.out, "null"...)
	case typeTrue:
		t.out = append(t.out, "true"...)
	case typeFalse:
		t.out = append(t.out, "false"...)
	case typeInt:
		var v int32
		if v, err = t.int32(); err == nil {
			t.out = strconv.AppendInt(t.out, int64(v), 10)
		}
	case typeLong:
		err = t.long()
	case typeBinaryFloat:
		if err = t.need(8); err == nil {
			f := math.Float64frombits(binary.LittleEndian.Uint64(t.src[t.pos:]))
			t.pos += 8
			t.out = AppendFloat(t.out, f)
		}
	case typeUnicode, typeInterned:
		var n int
		if n, err = t.count(1); err == nil {
			err = t.str(n, true)
		}
	case typeASCII, typeASCIIInterned:
		var n int
		if n, err = t.count(1); err == nil {
			err = t.str(n, false)
		}
	case typeShortASCII, typeShortASCIIInterne:
		if err = t.need(1); err == nil {
			n := int(t.src[t.pos])
			t.pos++
			if err = t.need(n); err == nil {
				err = t.str(n, false)
			}
		}
	case typeTuple, typeList:
		var n int
		if n, err = t.count(1); err == nil {
			err = t.array(n, depth)
		}
	case typeSmallTuple:
		if err = t.need(1); err == nil {
			n := int(t.src[t.pos])
			t.pos++
			err = t.array(n, depth)
		}
	case typeDict:
		err = t.dict(depth)
	case typeRef:
		err = t.backRef(key)
	case typeString:
		return t.unsupported("bytes (a numpy array or scalar is written so)")
	default:
		return t.unsupported(fmt.Sprintf("type code %q", code))
	}
	if err != nil {
		return err
	}
	if ref >= 0 {
		t.refs[ref] = span{start, len(t.out), t.objects - objStart}
	}
	return t.grew()
}

func isStr(code byte) bool {
	switch code {
	case typeUnicode, typeInterned, typeASCII, typeASCIIInterned, typeShortASCII, typeShortASCIIInterne:
		return true
	}
	return false
}

func (t *transcoder) backRef(key bool) error {
	i, err := t.int32()
	if err != nil {
		return err
	}
	if i < 0 || int(i) >= len(t.refs) {
		return t.errorf("a reference to value %d of %d", i, len(t.refs))
	}
	r := t.refs[i]
	if r.end < 0 {
		return t.unsupported("a value that contains itself")
	}
	if key && (r.end-r.start < 2 || t.out[r.start] != '"') {
		return t.unsupported("a dict key that is not a str")
	}
	if len(t.out)-t.base+r.end-r.start > t.maxOut {
		return t.limit("the JSON text exceeds %d bytes", t.maxOut)
	}
	// The reference itself was counted as a value by value().
	if t.objects += r.objs - 1; t.objects > t.maxObjects {
		return t.limit("more than %d values", t.maxObjects)
	}
	t.out = append(t.out, t.out[r.start:r.end]...)
	return nil
}

func (t *transcoder) array(n, depth int) error {
	if depth >= MaxDepth {
		return t.unsupported(fmt.Sprintf("containers nested more than %d deep", MaxDepth))
	}
	t.out = append(t.out, '[')
	for i := range n {
		if i > 0 {
			t.out = append(t.out, ',')
		}
		if err := t.value(depth+1, false); err != nil {
			return err
		}
	}
	t.out = append(t.out, ']')
	return nil
}

func (t *transcoder) dict(depth int) error {
	if depth >= MaxDepth {
		return t.unsupported(fmt.Sprintf("containers nested more than %d deep", MaxDepth))
	}
	t.out = append(t.out, '{')
	for first := true; ; first = false {
		if err := t.need(1); err != nil {
			return err
		}
		if t.src[t.pos] == typeNull {
			t.pos++
			break
		}
		if !first {
			t.out = append(t.out, ',')
		}
		if err := t.value(depth+1, true); err != nil {
			return err
		}
		t.out = append(t.out, ':')
		if err := t.value(depth+1, false); err != nil {
			return err
		}
	}
	t.out = append(t.out, '}')
	return nil
}

// long writes marshal's arbitrary-size integer.
func (t *transcoder) long() error {
	v, err := t.bigInt()
	if err != nil {
		return err
	}
	at := len(t.out)
	t.out = v.Append(t.out, 10)
	return t.checkDigits(len(t.out)-at, v.Sign() < 0)
}

// str writes n bytes of text as a JSON string escaped as json.dumps
// escapes with ensure_ascii off; utf8 says whether bytes past ASCII may
// come (they must then be valid UTF-8: marshal writes a lone surrogate
// as its surrogatepass bytes, which no JSON text holds).
func (t *transcoder) str(n int, utf bool) error {
	s := t.src[t.pos : t.pos+n]
	t.out = append(t.out, '"')
	for i := 0; i < len(s); {
		// A run of bytes that need no escape is copied at once.
		j := i
		for j < len(s) && s[j] >= 0x20 && s[j] < 0x80 && s[j] != '"' && s[j] != '\\' {
			j++
		}
		t.out = append(t.out, s[i:j]...)
		if i = j; i == len(s) {
			break
		}
		c := s[i]
		if c >= 0x80 {
			r, size := utf8.DecodeRune(s[i:])
			if !utf || r == utf8.RuneError && size <= 1 {
				t.pos += i
				return t.unsupported("text that is not valid UTF-8 (a lone surrogate)")
			}
			t.out = append(t.out, s[i:i+size]...)
			i += size
			continue
		}
		switch e := shortEscape[c]; {
		case e != 0:
			t.out = append(t.out, '\\', e)
		case c < 0x20:
			t.out = append(t.out, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		default:
			t.out = append(t.out, c)
		}
		i++
	}
	t.out = append(t.out, '"')
	t.pos += n
	return nil
}

const hexDigits = "0123456789abcdef"

// shortEscape is the letter json.dumps escapes an ASCII byte with after a
// backslash, 0 for none (other control bytes are \u00XX).
var shortEscape = [0x80]byte{'"': '"', '\\': '\\', '\n': 'n', '\r': 'r', '\t': 't', '\b': 'b', '\f': 'f'}

// AppendFloat appends f as Python's repr writes it, which is what
// json.dumps writes (NaN and the infinities as json.dumps writes them
// with allow_nan on): the shortest digits that read back to f, in
// positional notation when the decimal exponent is in [-4, 16), with
// ".0" for an integral value, else as d.ddde±XX.
func AppendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	var buf [32]byte
	e := strconv.AppendFloat(buf[:0], f, 'e', -1, 64) // [-]d[.ddd]e±XX
	if e[0] == '-' {
		dst = append(dst, '-')
		e = e[1:]
	}
	var digits [24]byte
	nd := 0
	k := 0
	for ; e[k] != 'e'; k++ {
		if e[k] != '.' {
			digits[nd] = e[k]
			nd++
		}
	}
	exp, _ := strconv.Atoi(string(e[k+1:]))
	d := digits[:nd]
	if exp < -4 || exp >= 16 {
		dst = append(dst, d[0])
		if nd > 1 {
			dst = append(append(dst, '.'), d[1:]...)
		}
		dst = append(dst, 'e')
		if exp < 0 {
			dst = append(dst, '-')
			exp = -exp
		} else {
			dst = append(dst, '+')
		}
		if exp < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(exp), 10)
	}
	if exp < 0 {
		dst = append(dst, '0', '.')
		for range -exp - 1 {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	if nd <= exp+1 {
		dst = append(dst, d...)
		for range exp + 1 - nd {
			dst = append(dst, '0')
		}
		return append(dst, '.', '0')
	}
	dst = append(dst, d[:exp+1]...)
	return append(append(dst, '.'), d[exp+1:]...)
}
