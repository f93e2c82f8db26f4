package pymarshal

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"math"
	"strconv"
	"testing"
)

// scanAgrees checks Scan against ToJSONLimits on one input: Scan takes a
// list exactly when ToJSON does, and then each item's JSON text
// (AppendJSON, JSONLen, and the text a Cursor reads) is its part of
// ToJSON's.
func scanAgrees(t *testing.T, src []byte, lim Limits) {
	t.Helper()
	want, errJ := ToJSONLimits(nil, src, lim)
	doc, errS := Scan(src, lim, math.MaxInt)
	if errors.Is(errS, ErrNotList) {
		if errJ == nil && len(want) > 0 && want[0] == '[' {
			t.Fatalf("Scan(%x): not a list; ToJSON reads %.200s", src, want)
		}
		return
	}
	if (errJ == nil) != (errS == nil) {
		t.Fatalf("Scan(%x): %v; ToJSON: %v", src, errS, errJ)
	}
	if errS != nil {
		if errors.Is(errS, ErrUnsupported) != errors.Is(errJ, ErrUnsupported) || errors.Is(errS, ErrLimit) != errors.Is(errJ, ErrLimit) {
			t.Fatalf("Scan(%x): %v; ToJSON: %v (another kind of error)", src, errS, errJ)
		}
		return
	}
	got := []byte{'['}
	for i, it := range doc.Items {
		if i > 0 {
			got = append(got, ',')
		}
		item := doc.AppendJSON(nil, i)
		if len(item) != it.JSONLen {
			t.Fatalf("Scan(%x): item %d: JSONLen %d, AppendJSON %d bytes", src, i, it.JSONLen, len(item))
		}
		if c := doc.At(i); c.Peek() != it.Kind {
			t.Fatalf("Scan(%x): item %d: Kind %q, Peek %q", src, i, it.Kind, c.Peek())
		}
		c := doc.At(i)
		if read, ok := cursorJSON(&c, nil); ok && !bytes.Equal(read, item) {
			t.Fatalf("Scan(%x): item %d: the cursor reads %s, AppendJSON writes %s", src, i, read, item)
		}
		got = append(got, item...)
	}
	got = append(got, ']')
	if !bytes.Equal(got, want) {
		t.Fatalf("Scan(%x): items\n%s\nToJSON\n%s", src, got, want)
	}
}

// cursorJSON writes the value at c as ToJSON would, with the Cursor's
// methods; ok is false for a value it has none for (a long integer).
func cursorJSON(c *Cursor, dst []byte) ([]byte, bool) {
	switch c.Peek() {
	case typeNone:
		c.None()
		return append(dst, "null"...), true
	case typeTrue, typeFalse:
		v, _ := c.Bool()
		return strconv.AppendBool(dst, v), true
	case typeInt:
		v, _ := c.Int()
		return strconv.AppendInt(dst, v, 10), true
	case typeBinaryFloat:
		f, _ := c.Float()
		return AppendFloat(dst, f), true
	case typeList, typeTuple, typeSmallTuple:
		n, ret, _ := c.List()
		dst = append(dst, '[')
		for k := range n {
			if k > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = cursorJSON(c, dst); !ok {
				return dst, false
			}
		}
		c.End(ret)
		return append(dst, ']'), true
	case typeDict:
		ret, _ := c.Dict()
		dst = append(dst, '{')
		for first := true; c.More(); first = false {
			if !first {
				dst = append(dst, ',')
			}
			var ok bool
			if dst, ok = cursorJSON(c, dst); !ok {
				return dst, false
			}
			dst = append(dst, ':')
			if dst, ok = cursorJSON(c, dst); !ok {
				return dst, false
			}
		}
		c.End(ret)
		return append(dst, '}'), true
	}
	s, ok := c.Str()
	if !ok {
		return dst, false
	}
	t := transcoder{input: input{src: s}, out: dst}
	_ = t.str(len(s), true)
	return t.out, true
}

// TestScan: Scan agrees with ToJSON on Python's own output (testdata),
// on broken streams and on expansion bombs; a Cursor reads what the
// items hold, back-references followed.
func TestScan(t *testing.T) {
	lim := LimitsFor(0, 1<<20)
	for _, c := range goldenCases(t) {
		src, err := hex.DecodeString(c.Marshal)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(c.Name, func(t *testing.T) {
			scanAgrees(t, src, LimitsFor(len(src), 1<<20))
			// The case as the one item of a list.
			scanAgrees(t, append([]byte{')', 1}, src...), LimitsFor(len(src)+2, 1<<20))
		})
	}
	for _, h := range []string{"", "5b", "5bffffff0f", "db010000007200000000", "5b010000007200000000", "5b02000000db00000000720000000000",
		"5b0100000069", "29024e", "5b010000007a01ff", "5b01000000fa01e9", "5b01000000750100000080", "5b0100000030", "4e",
		// A reference that is itself a reference's target, used as a key.
		"5b03000000fa016bf2000000007b72010000004e30"} {
		src, _ := hex.DecodeString(h)
		scanAgrees(t, src, lim)
	}
	// The bomb of TestExpansionBudget, inside a list.
	bomb := []byte{0xdb, 41, 0, 0, 0, 0xfa, 200}
	bomb = append(bomb, bytes.Repeat([]byte{'x'}, 200)...)
	for level := range 40 {
		bomb = append(bomb, 0xdb, 2, 0, 0, 0)
		for range 2 {
			bomb = append(bomb, 'r', byte(1+level), 0, 0, 0)
		}
	}
	if _, err := Scan(bomb, LimitsFor(len(bomb), 256<<20), 41); !errors.Is(err, ErrLimit) {
		t.Errorf("bomb: %v; want the expansion limit", err)
	}
	scanAgrees(t, bomb, LimitsFor(len(bomb), 256<<20))

	// Steps as Python writes them: keys interned, the second step's
	// dict a reference to the first's list.
	var src []byte
	src = append(src, '[', 3, 0, 0, 0)
	src = append(src, 0xfb, 0xda, 4, 's', 't', 'e', 'p', 'i', 7, 0, 0, 0, 0xda, 5, 'f', 'a', 'c', 't', 's')
	src = append(src, 0xdb, 1, 0, 0, 0, '[', 2, 0, 0, 0, 0xfa, 6, 'c', 'o', 'o', 'k', 'e', 'd', 0xfa, 1, 'a', '0')
	src = append(src, '{', 'r', 1, 0, 0, 0, 'g')
	src = binary.LittleEndian.AppendUint64(src, math.Float64bits(2.5))
	src = append(src, 'r', 2, 0, 0, 0, 'r', 3, 0, 0, 0, '0')
	src = append(src, 'r', 0, 0, 0, 0)
	if _, err := Scan(src, LimitsFor(len(src), 1<<20), 2); !errors.Is(err, ErrNotList) {
		t.Errorf("3 items, at most 2: %v; want ErrNotList", err)
	}
	doc, err := Scan(src, LimitsFor(len(src), 1<<20), 3)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`{"step":7,"facts":[["cooked","a"]]}`, `{"step":2.5,"facts":[["cooked","a"]]}`, `{"step":7,"facts":[["cooked","a"]]}`}
	if len(doc.Items) != 3 {
		t.Fatalf("%d items", len(doc.Items))
	}
	for i, w := range want {
		if got := string(doc.AppendJSON(nil, i)); got != w || doc.Items[i].Kind != '{' || doc.Items[i].Depth != 3 {
			t.Errorf("item %d: %s, kind %q, depth %d; want %s, '{', 3", i, got, doc.Items[i].Kind, doc.Items[i].Depth, w)
		}
	}
	scanAgrees(t, src, LimitsFor(len(src), 1<<20))
	// A cursor asked for another type stays where it was.
	c := doc.At(0)
	if _, _, ok := c.List(); ok {
		t.Error("List read a dict")
	}
	if ret, ok := c.Dict(); !ok || ret != -1 {
		t.Errorf("Dict: %d, %v", ret, ok)
	}
	if k, ok := c.Str(); !ok || string(k) != "step" {
		t.Errorf("first key %q, %v", k, ok)
	}
	if _, ok := c.Str(); ok {
		t.Error("Str read an int")
	}
	if n, ok := c.Int(); !ok || n != 7 {
		t.Errorf("step %d, %v", n, ok)
	}
}

// FuzzScan: Scan agrees with ToJSON on any input, and neither it nor a
// Cursor reading what it took panics.
func FuzzScan(f *testing.F) {
	for _, c := range goldenCases(f) {
		if src, err := hex.DecodeString(c.Marshal); err == nil {
			f.Add(src)
			f.Add(append([]byte{')', 1}, src...))
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		scanAgrees(t, src, LimitsFor(len(src), 1<<16))
	})
}

// BenchmarkScan: the golden file's 300 step dicts, checked and read with
// a Cursor (what a group.step's server does instead of ToJSON).
func BenchmarkScan(b *testing.B) {
	src := goldenSteps(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Scan(src, LimitsFor(len(src), 1<<30), 300); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*300)/b.Elapsed().Seconds(), "steps/s")
}
