package episode

import (
	"testing"
	"unicode/utf8"
)

// strReference is the byte-by-byte loop str replaced: the oracle of
// FuzzScannerFastPaths.
func (s *scanner) strReference() ([]byte, bool) {
	if s.ws() != '"' {
		return nil, s.fail("expected a string, found " + s.describe())
	}
	s.i++
	start := s.i
	escaped := false
	for s.i < len(s.b) {
		c := s.b[s.i]
		switch {
		case c == '"':
			out := s.b[start:s.i]
			s.i++
			if escaped {
				return s.unescape(out)
			}
			if !utf8.Valid(out) {
				return nil, s.fail("invalid UTF-8 in a string")
			}
			return out, true
		case c == '\\':
			escaped = true
			s.i += 2
			continue
		case c < 0x20:
			return nil, s.fail("control character in a string")
		}
		s.i++
	}
	return nil, s.fail("unterminated string")
}

var scannerSeeds = []string{`0`, `7,`, `12345}`, `01`, `-3`, `1e3`, `2.0`, `123456789012345678`, `1234567890123456789]`,
	`99999999999999999999`, `"abc"`, `"a\"b"`, `"\u00e9"`, "\"caf\xc3\xa9\"", "\"\xff\"", "\"a\x01\"", `"abc`, `"ab\`, ` "x" `, `0 `, ``,
	`"abcdefghijklmnop"`, `"abcdefgh\"ijk"`, "\"abcdefghi\x01jk\"", "\"abcdefgh\xc3\xa9xyz\"", "\"abcdefghijk\xffmnop\"",
	`"abcdefghijklmno\`, `"sink.n.01_1","floor.n.01_1"]`, "\"abcdefg\x7f\x1f\"", `"abcdefghijklmnopqrstuvwxyz`}

// TestScannerFastPaths runs the fuzz target's seeds.
func TestScannerFastPaths(t *testing.T) {
	for _, s := range scannerSeeds {
		compareScanner(t, []byte(s))
	}
}

// FuzzScannerFastPaths: integer and str read every input exactly as the
// general paths do (integerSlow, the byte loop str replaced): the same
// value, success, message and cursor.
func FuzzScannerFastPaths(f *testing.F) {
	for _, s := range scannerSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { compareScanner(t, in) })
}

func compareScanner(t *testing.T, in []byte) {
	t.Helper()
	var a, b scanner
	a.reset(in)
	b.reset(in)
	va, oka := a.integer()
	b.ws()
	vb, okb := b.integerSlow()
	if va != vb || oka != okb || a.msg != b.msg || (oka && a.i != b.i) {
		t.Fatalf("integer(%q) = %d, %v, %q at %d; integerSlow %d, %v, %q at %d", in, va, oka, a.msg, a.i, vb, okb, b.msg, b.i)
	}
	a.reset(in)
	b.reset(in)
	sa, oka := a.str()
	sb, okb := b.strReference()
	if string(sa) != string(sb) || oka != okb || a.msg != b.msg || (oka && a.i != b.i) {
		t.Fatalf("str(%q) = %q, %v, %q at %d; reference %q, %v, %q at %d", in, sa, oka, a.msg, a.i, sb, okb, b.msg, b.i)
	}
}

// BenchmarkScannerStr reads the strings of a typical atom with str and
// with the byte loop it replaced.
func BenchmarkScannerStr(b *testing.B) {
	line := []byte(`"ontop" "sink.n.01_1" "floor.n.01_1" "step" "facts" "electric_refrigerator.n.01_1"`)
	for _, impl := range []struct {
		name string
		str  func(*scanner) ([]byte, bool)
	}{{"str", (*scanner).str}, {"reference", (*scanner).strReference}} {
		b.Run(impl.name, func(b *testing.B) {
			var s scanner
			b.SetBytes(int64(len(line)))
			b.ReportAllocs()
			for b.Loop() {
				s.reset(line)
				for k := 0; k < 6; k++ {
					if _, ok := impl.str(&s); !ok {
						b.Fatal(s.msg)
					}
				}
			}
		})
	}
}
