package pymarshal

import (
	"encoding/binary"
	"fmt"
	"math"
	"sync"
	"unicode/utf8"
)

// Scan and Cursor read a list marshalled by Python as its values, without
// writing its JSON text first (ToJSON): a group.step's steps are read
// straight into each session's step, the JSON text built only for a step
// its reader does not take as it is. Scan checks the input exactly as
// ToJSON does (it succeeds when ToJSON would, within the same Limits,
// and reports the length of the text ToJSON would write), so a caller may
// read the values knowing the JSON text of the same input would have been
// accepted whole.

// Doc is a marshalled list checked by Scan: the input and where each
// back-referenced value begins.
type Doc struct {
	src  []byte
	refs []int32 // the position of each reference target's type code
	// Items are the list's elements, in order.
	Items []Item
}

// Item is one element of a Doc's list.
type Item struct {
	Pos int // where the element begins (a back-reference's 'r', if it is one)
	// Kind is the element's type code, a back-reference followed and
	// the reference flag cleared ('{' for a dict).
	Kind byte
	// JSONLen is the length of the element's JSON text (ToJSON's).
	JSONLen int
	// Depth is how deeply containers nest in the element, back-references
	// followed (a scalar 0, a dict of lists 2).
	Depth int
}

// Scan checks src as ToJSONLimits does and, when it holds a list (or
// tuple) of at most maxItems values, returns it as a Doc; an input that
// is not a list, or a longer one, is ErrNotList (ToJSON may still read
// it). On an error the caller may call ToJSON for its message, which is
// the same but for wording.
func Scan(src []byte, lim Limits, maxItems int) (*Doc, error) {
	pooled := docRefsPool.Get().(*[]docRef)
	s := &docScanner{input: input{src: src}, maxOut: lim.MaxOut, maxObjects: lim.MaxObjects, maxItems: maxItems, refs: (*pooled)[:0]}
	doc, err := s.scan()
	if cap(s.refs) <= maxPooledRefs {
		*pooled = s.refs
		docRefsPool.Put(pooled)
	}
	return doc, err
}

func (s *docScanner) scan() (*Doc, error) {
	src := s.src
	if len(src) == 0 {
		return nil, s.errorf("truncated")
	}
	if c := src[0] &^ flagRef; c != typeList && c != typeTuple && c != typeSmallTuple {
		return nil, ErrNotList
	}
	s.top = true
	if _, err := s.value(0, false); err != nil {
		return nil, err
	}
	if s.pos != len(src) {
		return nil, s.errorf("%d bytes after the value", len(src)-s.pos)
	}
	refs := make([]int32, len(s.refs))
	for i, r := range s.refs {
		refs[i] = r.pos
	}
	return &Doc{src: src, refs: refs, Items: s.items}, nil
}

// ErrNotList is Scan's error for an input that is not a list or tuple
// (of at most the values asked for).
var ErrNotList = fmt.Errorf("marshal data: not a list")

// docRefsPool keeps the reference tables of past scans (see refsPool).
var docRefsPool = sync.Pool{New: func() any { return new([]docRef) }}

// docScanner is transcoder without the output: the same checks, the
// text's length counted.
type docScanner struct {
	input
	out        int // the JSON text's length so far
	maxOut     int
	maxObjects int
	objects    int
	refs       []docRef
	top        bool // the next container is the list whose items are kept
	maxItems   int
	items      []Item
}

// docRef is a back-reference target: where it begins, and once read
// (done) its text's length, values and depth.
type docRef struct {
	pos, length, objs int32 // (the limits keep length and objs within int32)
	deep              int16
	done, str         bool
}

func (s *docScanner) limit(format string, args ...any) error {
	return fmt.Errorf("marshal data at byte %d: %s (%w: back-references expand it past what its %d bytes may)", s.pos, fmt.Sprintf(format, args...), ErrLimit, len(s.src))
}

// grew checks the limits after a value (inlined: the error is built
// apart).
func (s *docScanner) grew() error {
	if s.out <= s.maxOut && s.objects <= s.maxObjects {
		return nil
	}
	return s.overLimit()
}

func (s *docScanner) overLimit() error {
	if s.out > s.maxOut {
		return s.limit("the JSON text exceeds %d bytes", s.maxOut)
	}
	return s.limit("more than %d values", s.maxObjects)
}

// value reads one value as transcoder.value writes it; deep is how
// deeply containers nest in it.
func (s *docScanner) value(depth int, key bool) (deep int, err error) {
	if err := s.need(1); err != nil {
		return 0, err
	}
	code := s.src[s.pos]
	s.pos++
	ref := -1
	if code&flagRef != 0 {
		code &^= flagRef
		ref = len(s.refs)
		s.refs = append(s.refs, docRef{pos: int32(s.pos - 1)})
	}
	start, objStart := s.out, s.objects
	s.objects++
	if key && !isStr(code) && code != typeRef {
		return 0, s.unsupported(fmt.Sprintf("a dict key of type code %q (json.dumps writes only str keys as they are)", code))
	}
	str := isStr(code)
	switch code {
	case typeNone, typeTrue:
		s.out += 4
	case typeFalse:
		s.out += 5
	case typeInt:
		var v int32
		if v, err = s.int32(); err == nil {
			s.out += intLen(v)
		}
	case typeLong:
		err = s.long()
	case typeBinaryFloat:
		if err = s.need(8); err == nil {
			f := math.Float64frombits(binary.LittleEndian.Uint64(s.src[s.pos:]))
			s.pos += 8
			var buf [32]byte
			s.out += len(AppendFloat(buf[:0], f))
		}
	case typeUnicode, typeInterned:
		var n int
		if n, err = s.count(1); err == nil {
			err = s.str(n, true)
		}
	case typeASCII, typeASCIIInterned:
		var n int
		if n, err = s.count(1); err == nil {
			err = s.str(n, false)
		}
	case typeShortASCII, typeShortASCIIInterne:
		if err = s.need(1); err == nil {
			n := int(s.src[s.pos])
			s.pos++
			if err = s.need(n); err == nil {
				err = s.str(n, false)
			}
		}
	case typeTuple, typeList:
		var n int
		if n, err = s.count(1); err == nil {
			deep, err = s.array(n, depth)
		}
	case typeSmallTuple:
		if err = s.need(1); err == nil {
			n := int(s.src[s.pos])
			s.pos++
			deep, err = s.array(n, depth)
		}
	case typeDict:
		deep, err = s.dict(depth)
	case typeRef:
		deep, str, err = s.backRef(key)
	case typeString:
		return 0, s.unsupported("bytes (a numpy array or scalar is written so)")
	default:
		return 0, s.unsupported(fmt.Sprintf("type code %q", code))
	}
	if err != nil {
		return 0, err
	}
	if ref >= 0 {
		if err := s.grew(); err != nil {
			return 0, err // (past the limits: length and objs might not fit)
		}
		r := &s.refs[ref]
		r.done, r.str = true, str
		r.length, r.objs, r.deep = int32(s.out-start), int32(s.objects-objStart), int16(min(deep, math.MaxInt16))
	}
	return deep, s.grew()
}

// backRef reads a back-reference: the depth of its target and whether
// it is a str (a reference may itself be the target of another).
func (s *docScanner) backRef(key bool) (int, bool, error) {
	i, err := s.int32()
	if err != nil {
		return 0, false, err
	}
	if i < 0 || int(i) >= len(s.refs) {
		return 0, false, s.errorf("a reference to value %d of %d", i, len(s.refs))
	}
	r := s.refs[i]
	if !r.done {
		return 0, false, s.unsupported("a value that contains itself")
	}
	if key && (r.length < 2 || !r.str) {
		return 0, false, s.unsupported("a dict key that is not a str")
	}
	if s.out+int(r.length) > s.maxOut {
		return 0, false, s.limit("the JSON text exceeds %d bytes", s.maxOut)
	}
	if s.objects += int(r.objs) - 1; s.objects > s.maxObjects {
		return 0, false, s.limit("more than %d values", s.maxObjects)
	}
	s.out += int(r.length)
	return int(r.deep), r.str, nil
}

func (s *docScanner) array(n, depth int) (int, error) {
	if depth >= MaxDepth {
		return 0, s.unsupported(fmt.Sprintf("containers nested more than %d deep", MaxDepth))
	}
	top := s.top
	s.top = false
	if top {
		if n > s.maxItems {
			return 0, ErrNotList
		}
		s.items = make([]Item, 0, n)
	}
	s.out += 2 + max(n-1, 0)
	deep := 0
	for range n {
		at, out := s.pos, s.out
		d, err := s.value(depth+1, false)
		if err != nil {
			return 0, err
		}
		deep = max(deep, d)
		if top {
			s.items = append(s.items, Item{Pos: at, Kind: s.kindAt(at), JSONLen: s.out - out, Depth: d})
		}
	}
	return deep + 1, nil
}

// kindAt is the type code of the value at pos, a back-reference followed.
func (s *docScanner) kindAt(pos int) byte {
	c := s.src[pos] &^ flagRef
	if c == typeRef {
		i := binary.LittleEndian.Uint32(s.src[pos+1:])
		c = s.src[s.refs[i].pos] &^ flagRef
	}
	return c
}

func (s *docScanner) dict(depth int) (int, error) {
	if depth >= MaxDepth {
		return 0, s.unsupported(fmt.Sprintf("containers nested more than %d deep", MaxDepth))
	}
	s.top = false
	s.out += 2
	deep := 0
	for first := true; ; first = false {
		if err := s.need(1); err != nil {
			return 0, err
		}
		if s.src[s.pos] == typeNull {
			s.pos++
			break
		}
		if !first {
			s.out++
		}
		if _, err := s.value(depth+1, true); err != nil {
			return 0, err
		}
		s.out++
		d, err := s.value(depth+1, false)
		if err != nil {
			return 0, err
		}
		deep = max(deep, d)
	}
	return deep + 1, nil
}

// long is transcoder.long, counting the digits it writes.
func (s *docScanner) long() error {
	v, err := s.bigInt()
	if err != nil {
		return err
	}
	d := len(v.Append(nil, 10))
	s.out += d
	return s.checkDigits(d, v.Sign() < 0)
}

// intLen is len(strconv.AppendInt(nil, int64(v), 10)).
func intLen(v int32) int {
	n := 1
	u := int64(v)
	if u < 0 {
		n, u = 2, -u
	}
	for ; u >= 10; u /= 10 {
		n++
	}
	return n
}

// plainByte marks the bytes a JSON string holds as they are.
var plainByte = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// str is transcoder.str, counting the bytes it writes.
func (s *docScanner) str(n int, utf bool) error {
	b := s.src[s.pos : s.pos+n]
	i := 0
	for i < len(b) && plainByte[b[i]] { // the common case: plain ASCII
		i++
	}
	length := 2 + i
	for i < len(b) {
		c := b[i]
		switch {
		case c >= 0x20 && c < 0x80 && c != '"' && c != '\\':
			length++
			i++
		case c >= 0x80:
			r, size := utf8.DecodeRune(b[i:])
			if !utf || r == utf8.RuneError && size <= 1 {
				s.pos += i
				return s.unsupported("text that is not valid UTF-8 (a lone surrogate)")
			}
			length += size
			i += size
		case shortEscape[c] != 0:
			length += 2
			i++
		default:
			length += 6
			i++
		}
	}
	s.out += length
	s.pos += n
	return nil
}

// Cursor reads the values of a Doc, one after another, back-references
// followed. Scan checked the Doc, so reading it cannot fail but for a
// value of another type than the one asked for (ok false, the cursor
// then where it was).
type Cursor struct {
	d   *Doc
	pos int
}

// At returns a cursor at the Doc's item i.
func (d *Doc) At(i int) Cursor { return Cursor{d: d, pos: d.Items[i].Pos} }

// head reads a value's type code, a back-reference followed: the code
// (flag cleared), the position after it, and ret, where the cursor goes
// once the value is read (-1: right after it).
func (c *Cursor) head() (code byte, at, ret int, ok bool) {
	src := c.d.src
	p := c.pos
	if p >= len(src) {
		return 0, 0, 0, false
	}
	code = src[p] &^ flagRef
	ret = -1
	if code == typeRef {
		if p+5 > len(src) {
			return 0, 0, 0, false
		}
		i := binary.LittleEndian.Uint32(src[p+1:])
		if int(i) >= len(c.d.refs) {
			return 0, 0, 0, false
		}
		ret = p + 5
		p = int(c.d.refs[i])
		code = src[p] &^ flagRef
	}
	return code, p + 1, ret, true
}

// Peek is the type code of the next value, a back-reference followed.
func (c *Cursor) Peek() byte {
	code, _, _, _ := c.head()
	return code
}

// None reads a None.
func (c *Cursor) None() bool {
	code, at, ret, ok := c.head()
	if !ok || code != typeNone {
		return false
	}
	c.done(at, ret)
	return true
}

func (c *Cursor) done(at, ret int) {
	if ret >= 0 {
		c.pos = ret
	} else {
		c.pos = at
	}
}

// Bool reads True or False.
func (c *Cursor) Bool() (v, ok bool) {
	code, at, ret, ok := c.head()
	if !ok || code != typeTrue && code != typeFalse {
		return false, false
	}
	c.done(at, ret)
	return code == typeTrue, true
}

// Int reads an int that fits in 32 bits (marshal's small int).
func (c *Cursor) Int() (int64, bool) {
	code, at, ret, ok := c.head()
	if !ok || code != typeInt || at+4 > len(c.d.src) {
		return 0, false
	}
	v := int32(binary.LittleEndian.Uint32(c.d.src[at:]))
	c.done(at+4, ret)
	return int64(v), true
}

// Float reads a float or a small int as a float64.
func (c *Cursor) Float() (float64, bool) {
	code, at, ret, ok := c.head()
	if !ok {
		return 0, false
	}
	switch code {
	case typeBinaryFloat:
		if at+8 > len(c.d.src) {
			return 0, false
		}
		f := math.Float64frombits(binary.LittleEndian.Uint64(c.d.src[at:]))
		c.done(at+8, ret)
		return f, true
	case typeInt:
		if at+4 > len(c.d.src) {
			return 0, false
		}
		v := int32(binary.LittleEndian.Uint32(c.d.src[at:]))
		c.done(at+4, ret)
		return float64(v), true
	}
	return 0, false
}

// Str reads a str: its UTF-8 bytes, a part of the Doc's input (Scan
// checked them).
func (c *Cursor) Str() ([]byte, bool) {
	code, at, ret, ok := c.head()
	if !ok {
		return nil, false
	}
	src := c.d.src
	n := 0
	switch code {
	case typeShortASCII, typeShortASCIIInterne:
		if at >= len(src) {
			return nil, false
		}
		n = int(src[at])
		at++
	case typeUnicode, typeInterned, typeASCII, typeASCIIInterned:
		if at+4 > len(src) {
			return nil, false
		}
		n = int(binary.LittleEndian.Uint32(src[at:]))
		at += 4
	default:
		return nil, false
	}
	if n < 0 || n > len(src)-at {
		return nil, false
	}
	c.done(at+n, ret)
	return src[at : at+n], true
}

// List begins a list or tuple: its length; the caller reads that many
// values, then calls End with ret.
func (c *Cursor) List() (n, ret int, ok bool) {
	code, at, ret, ok := c.head()
	if !ok {
		return 0, 0, false
	}
	src := c.d.src
	switch code {
	case typeList, typeTuple:
		if at+4 > len(src) {
			return 0, 0, false
		}
		n = int(int32(binary.LittleEndian.Uint32(src[at:])))
		at += 4
	case typeSmallTuple:
		if at >= len(src) {
			return 0, 0, false
		}
		n = int(src[at])
		at++
	default:
		return 0, 0, false
	}
	if n < 0 {
		return 0, 0, false
	}
	c.pos = at
	return n, ret, true
}

// Dict begins a dict: the caller reads keys and values while More, then
// calls End with ret.
func (c *Cursor) Dict() (ret int, ok bool) {
	code, at, ret, ok := c.head()
	if !ok || code != typeDict {
		return 0, false
	}
	c.pos = at
	return ret, true
}

// More reports whether another key follows in a dict (and if not, reads
// the dict's end).
func (c *Cursor) More() bool {
	if c.pos < len(c.d.src) && c.d.src[c.pos] == typeNull {
		c.pos++
		return false
	}
	return true
}

// End ends a list or dict begun with List or Dict.
func (c *Cursor) End(ret int) {
	if ret >= 0 {
		c.pos = ret
	}
}

// AppendJSON appends the JSON text of the Doc's item i, as ToJSON writes
// it (within its Item.JSONLen, which Scan bounded).
func (d *Doc) AppendJSON(dst []byte, i int) []byte {
	t := transcoder{input: input{src: d.src, pos: d.Items[i].Pos}, out: dst, base: len(dst), maxOut: math.MaxInt, maxObjects: math.MaxInt}
	d.appendValue(&t, 0)
	return t.out
}

// appendValue writes the value at t.pos, back-references followed by
// writing their target again (Scan checked the input: no errors).
func (d *Doc) appendValue(t *transcoder, depth int) {
	if t.pos >= len(t.src) || depth > 2*MaxDepth {
		return
	}
	code := t.src[t.pos] &^ flagRef
	if code == typeRef && t.pos+5 <= len(t.src) {
		i := binary.LittleEndian.Uint32(t.src[t.pos+1:])
		ret := t.pos + 5
		if int(i) < len(d.refs) {
			t.pos = int(d.refs[i])
			d.appendValue(t, depth+1)
		}
		t.pos = ret
		return
	}
	switch code {
	case typeTuple, typeList, typeSmallTuple:
		n := 0
		if code == typeSmallTuple {
			n = int(t.src[t.pos+1])
			t.pos += 2
		} else {
			n = int(int32(binary.LittleEndian.Uint32(t.src[t.pos+1:])))
			t.pos += 5
		}
		t.out = append(t.out, '[')
		for k := range n {
			if k > 0 {
				t.out = append(t.out, ',')
			}
			d.appendValue(t, depth+1)
		}
		t.out = append(t.out, ']')
	case typeDict:
		t.pos++
		t.out = append(t.out, '{')
		for first := true; t.pos < len(t.src) && t.src[t.pos] != typeNull; first = false {
			if !first {
				t.out = append(t.out, ',')
			}
			d.appendValue(t, depth+1)
			t.out = append(t.out, ':')
			d.appendValue(t, depth+1)
		}
		t.pos++
		t.out = append(t.out, '}')
	default:
		// A scalar: the transcoder writes it (a reference flag only adds
		// an entry to its table, unused here).
		_ = t.value(depth, false)
	}
}
