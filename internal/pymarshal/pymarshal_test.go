package pymarshal

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "regenerate testdata/cases.json with python3 (testdata/gen.py)")

type goldenCase struct {
	Name    string  `json:"name"`
	Marshal string  `json:"marshal"`
	JSON    *string `json:"json"`
}

// goldenCases reads testdata/cases.json.
func goldenCases(tb testing.TB) []goldenCase {
	tb.Helper()
	data, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		tb.Fatal(err)
	}
	var golden struct{ Cases []goldenCase }
	if err := json.Unmarshal(data, &golden); err != nil {
		tb.Fatal(err)
	}
	return golden.Cases
}

// TestPythonCases: every value Python's marshal wrote (testdata/gen.py)
// reads as the text json.dumps wrote for it, byte for byte; the values
// openbddl must not send marshalled are ErrUnsupported.
func TestPythonCases(t *testing.T) {
	if *update {
		cmd := exec.Command("python3", "testdata/gen.py", "testdata/cases.json")
		cmd.Stderr = os.Stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("python3 testdata/gen.py: %v", err)
		}
	}
	cases := goldenCases(t)
	if len(cases) < 20 {
		t.Fatalf("only %d cases in testdata/cases.json", len(cases))
	}
	for _, c := range cases {
		src, err := hex.DecodeString(c.Marshal)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		got, err := ToJSON([]byte("prefix:"), src, 1<<20)
		if c.JSON == nil {
			if !errors.Is(err, ErrUnsupported) {
				t.Errorf("%s: got %q, %v; want ErrUnsupported", c.Name, got, err)
			}
			continue
		}
		if err != nil || string(got) != "prefix:"+*c.JSON {
			t.Errorf("%s:\n got %s (%v)\nwant prefix:%s", c.Name, got, err, *c.JSON)
		}
	}
}

// TestMalformed: broken streams are errors with the offset, never a
// panic; back-references cannot grow the output past the cap.
func TestMalformed(t *testing.T) {
	for _, tc := range []struct {
		name, hex, want string
	}{
		{"empty", "", "truncated"},
		{"short int", "6901", "truncated"},
		{"list longer than the data", "5bffffff0f", "more than the data left"},
		{"negative length", "5bffffffff", "more than the data left"},
		{"string past the end", "7a05616263", "truncated"},
		{"dict without its end", "7b7a016169", "truncated"},
		{"trailing bytes", "4e4e", "1 bytes after the value"},
		{"reference to nothing", "7200000000", "a reference to value 0 of 0"},
		{"self-containing list", "db010000007200000000", "contains itself"},
		{"long digit out of range", "6c01000000ffff", "out of range"},
		{"long past the end", "6c10000000", "more than the data left"},
		{"ascii with a high byte", "7a01ff", "not valid UTF-8"},
		{"null as a value", "30", "type code"},
	} {
		src, _ := hex.DecodeString(tc.hex)
		_, err := ToJSON(nil, src, 1<<20)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "at byte") {
			t.Errorf("%s: %v; want an error with %q and its offset", tc.name, err, tc.want)
		}
	}
	// A list of 100 strings (reference 1, inside the outer list, 0),
	// then four lists (references 102-105) of 40 references each to the
	// one before: 40^4 copies of the first.
	bomb := []byte{0xdb, 5, 0, 0, 0, 0xdb, 100, 0, 0, 0}
	for range 100 {
		bomb = append(bomb, 0xfa, 3, 'a', 'b', 'c')
	}
	for level := range 4 {
		bomb = append(bomb, 0xdb, 40, 0, 0, 0)
		target := byte(1)
		if level > 0 {
			target = byte(101 + level)
		}
		for range 40 {
			bomb = append(bomb, 'r', target, 0, 0, 0)
		}
	}
	if _, err := ToJSON(nil, bomb, 1<<20); !errors.Is(err, ErrLimit) {
		t.Errorf("reference bomb: %v; want the expansion limit", err)
	}
}

// TestExpansionBudget: back-references may expand an input only so far
// past its own size, in bytes and in values, whatever the output cap;
// a list shared by many steps (as Python writes one object used twice)
// stays within it.
func TestExpansionBudget(t *testing.T) {
	t.Parallel()
	// A string of 200 bytes (reference 1), then lists of 2 references
	// each to the one before, 40 deep: 2^40 copies in under 600 bytes.
	bomb := []byte{0xdb, 41, 0, 0, 0, 0xfa, 200}
	bomb = append(bomb, bytes.Repeat([]byte{'x'}, 200)...)
	for level := range 40 {
		bomb = append(bomb, 0xdb, 2, 0, 0, 0)
		for range 2 {
			bomb = append(bomb, 'r', byte(1+level), 0, 0, 0)
		}
	}
	_, err := ToJSON(nil, bomb, 256<<20)
	if !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "exceeds 1048576 bytes") {
		t.Errorf("%d-byte bomb: %v; want the 1 MiB budget of a small input", len(bomb), err)
	}
	// Many values in few bytes: a list of 1,000 references to a list of
	// 100 Nones, 100,000 values from 5 KB.
	many := []byte{0x5b, 0xe9, 3, 0, 0, 0xdb, 100, 0, 0, 0}
	many = append(many, bytes.Repeat([]byte{'N'}, 100)...)
	for range 999 {
		many = append(many, 'r', 0, 0, 0, 0)
	}
	if _, err := ToJSON(nil, many, 256<<20); !errors.Is(err, ErrLimit) || !strings.Contains(err.Error(), "more than 81") {
		t.Errorf("values: %v; want the value budget", err)
	}
	// 300 steps sharing one pose list: within the budget.
	shared := []byte{0x5b, 44, 1, 0, 0}
	for i := range 300 {
		shared = append(shared, 0x7b, 0x5a, 4, 'p', 'o', 's', 'e')
		if i == 0 {
			shared = append(shared, 0xdb, 3, 0, 0, 0, 'N', 'N', 'N')
		} else {
			shared = append(shared, 'r', 0, 0, 0, 0)
		}
		shared = append(shared, '0')
	}
	if _, err := ToJSON(nil, shared, 256<<20); err != nil {
		t.Errorf("shared list: %v", err)
	}
}

// TestLongIntegers: Python's limit of 4300 digits, refused before the
// quadratic conversion (a 2 MB integer took 42 s on the reader).
func TestLongIntegers(t *testing.T) {
	t.Parallel()
	long := func(digits int, d uint16) []byte {
		b := []byte{'l'}
		b = binary.LittleEndian.AppendUint32(b, uint32(digits))
		for range digits {
			b = binary.LittleEndian.AppendUint16(b, d)
		}
		return b
	}
	// 950 digits of 2^15-1: 2^14250-1, 4290 decimal digits.
	if out, err := ToJSON(nil, long(950, 1<<15-1), 1<<20); err != nil || len(out) != 4290 {
		t.Errorf("4290 digits: %d, %v", len(out), err)
	}
	for _, n := range []int{955, 1 << 20} {
		if _, err := ToJSON(nil, long(n, 1<<15-1), 1<<30); err == nil || !strings.Contains(err.Error(), "more than 4300 digits") {
			t.Errorf("%d digits: %v", n, err)
		}
	}
}

// TestAppendFloat: Python's repr, checked on values whose text is known
// and on the round trip of many bit patterns.
func TestAppendFloat(t *testing.T) {
	for _, tc := range []struct {
		f    float64
		want string
	}{
		{0, "0.0"}, {math.Copysign(0, -1), "-0.0"}, {1, "1.0"}, {-1.5, "-1.5"}, {0.1, "0.1"},
		{1e16, "1e+16"}, {1e15, "1000000000000000.0"}, {9999999999999998, "9999999999999998.0"},
		{1e-4, "0.0001"}, {1e-5, "1e-05"}, {1.5e-7, "1.5e-07"}, {1e300, "1e+300"}, {5e-324, "5e-324"},
		{123.456, "123.456"}, {math.NaN(), "NaN"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
	} {
		if got := string(AppendFloat(nil, tc.f)); got != tc.want {
			t.Errorf("AppendFloat(%v) = %s, want %s", tc.f, got, tc.want)
		}
	}
	for i := uint64(0); i < 200000; i++ {
		bits := i*0x9E3779B97F4A7C15 + 12345
		f := math.Float64frombits(bits)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		s := string(AppendFloat(nil, f))
		back, err := strconv.ParseFloat(s, 64)
		if err != nil || math.Float64bits(back) != bits || !strings.ContainsAny(s, ".e") {
			t.Fatalf("AppendFloat(%b) = %s does not read back (or reads as an integer)", bits, s)
		}
	}
}

// FuzzToJSON: any input gives JSON text encoding/json accepts (the
// non-finite floats aside, which json.dumps writes too) or an error;
// never a panic or output past the cap.
func FuzzToJSON(f *testing.F) {
	for _, c := range goldenCases(f) {
		if src, err := hex.DecodeString(c.Marshal); err == nil {
			f.Add(src)
		}
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		const maxOut = 1 << 16
		out, err := ToJSON(nil, src, maxOut)
		if err != nil {
			return
		}
		if lim := LimitsFor(len(src), maxOut).MaxOut; len(out) > lim {
			t.Fatalf("%d bytes out, cap %d", len(out), lim)
		}
		if !json.Valid(out) && !strings.Contains(string(out), "NaN") && !strings.Contains(string(out), "Infinity") {
			t.Fatalf("ToJSON(%x) = %s: not JSON", src, out)
		}
	})
}

// BenchmarkToJSON: the golden file's 300 step dicts, as Python's marshal
// wrote them (interned strings as back-references).
func BenchmarkToJSON(b *testing.B) {
	src := goldenSteps(b)
	out := make([]byte, 0, 4*len(src))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ToJSON(out[:0], src, 1<<30); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*300)/b.Elapsed().Seconds(), "steps/s")
}

// goldenSteps is the golden file's "steps" case: 300 step dicts as
// Python's marshal wrote them, what the benchmarks read.
func goldenSteps(b *testing.B) []byte {
	b.Helper()
	for _, c := range goldenCases(b) {
		if c.Name == "steps" {
			if src, err := hex.DecodeString(c.Marshal); err == nil {
				return src
			}
		}
	}
	b.Fatal("no steps case in testdata/cases.json")
	return nil
}
