package episode

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

func checkNumber(t *testing.T, s string) {
	t.Helper()
	checkNumberIn(t, s, "")
	// What follows a number in a line must not change how it is read.
	checkNumberIn(t, s, ",1234567890]")
	checkNumberIn(t, s, "]}")
}

func checkNumberIn(t *testing.T, s, tail string) {
	t.Helper()
	want, werr := strconv.ParseFloat(s, 64)
	got, end, nerr := parseNumber([]byte(s+tail), 0)
	if werr != nil || math.IsInf(want, 0) {
		if nerr == numOK && end == len(s) {
			t.Errorf("parseNumber(%q) = %v, want an error", s, got)
		}
		return
	}
	if nerr != numOK || end != len(s) {
		t.Errorf("parseNumber(%q): error %d at %d, want %v", s, nerr, end, want)
		return
	}
	if math.Float64bits(got) != math.Float64bits(want) {
		t.Errorf("parseNumber(%q) = %v (%#x), want %v (%#x)", s, got, math.Float64bits(got), want, math.Float64bits(want))
	}
}

func TestParseNumberCases(t *testing.T) {
	ensureTables()
	for _, s := range []string{"0", "-0", "1", "-1", "0.5", "1e10", "1E+10", "1e-10", "123456789012345678",
		"1234567890123456789", "12345678901234567890", "0.30000000000000004", "0.1", "0.2", "2.5e-324",
		"4.9e-324", "5e-324", "1.7976931348623157e308", "1.7976931348623159e308", "1e309", "-1e309",
		"2.2250738585072014e-308", "2.2250738585072011e-308", "9007199254740993", "9007199254740992",
		"0.000001", "100000000000000000000000", "1e23", "8.41e21", "4.35e-8", "0.12345678910111213",
		"179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497791.9999999999999999999999999999999999999999999999999999999999999999999999",
	} {
		checkNumber(t, s)
	}
	for _, s := range []string{"", "-", "01", "1.", ".5", "1e", "1e+", "+1", "--1", "NaN", "Infinity"} {
		if _, end, err := parseNumber([]byte(s), 0); err == numOK && end == len(s) {
			t.Errorf("parseNumber(%q) accepted", s)
		}
	}
}

// TestParseNumberMatchesStrconv compares with strconv on random decimals
// of every length and exponent, the float64s' own shortest forms, and
// float32 values printed as float64 (what Python writes for a float32
// simulator state).
func TestParseNumberMatchesStrconv(t *testing.T) {
	ensureTables()
	rng := rand.New(rand.NewPCG(1, 2))
	n := 200000
	if testing.Short() {
		n = 20000
	}
	for range n {
		f := math.Float64frombits(rng.Uint64())
		if math.IsNaN(f) || math.IsInf(f, 0) {
			continue
		}
		checkNumber(t, strconv.FormatFloat(f, 'g', -1, 64))
		checkNumber(t, strconv.FormatFloat(float64(float32(rng.NormFloat64()*3)), 'g', -1, 64))
		digits := 1 + rng.IntN(22)
		var b []byte
		if rng.IntN(2) == 0 {
			b = append(b, '-')
		}
		b = append(b, byte('1'+rng.IntN(9)))
		for range digits - 1 {
			b = append(b, byte('0'+rng.IntN(10)))
		}
		if rng.IntN(2) == 0 && len(b) > 2 {
			k := 1 + rng.IntN(len(b)-1)
			if b[0] == '-' && k == 1 {
				k = 2
			}
			b = append(b[:k], append([]byte{'.'}, b[k:]...)...)
		}
		if rng.IntN(2) == 0 {
			b = append(b, 'e')
			b = strconv.AppendInt(b, int64(rng.IntN(700)-350), 10)
		}
		checkNumber(t, string(b))
		if t.Failed() {
			return
		}
	}
}

func FuzzParseNumber(f *testing.F) {
	ensureTables()
	for _, s := range []string{"0", "1.5", "-2e-5", "0.30000000000000004", "1e400"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, end, err := parseNumber([]byte(s), 0)
		if err != numOK || end != len(s) {
			return
		}
		want, werr := strconv.ParseFloat(s, 64)
		if werr != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("parseNumber(%q) = %v, strconv %v %v", s, got, want, werr)
		}
	})
}

func BenchmarkParseNumber(b *testing.B) {
	ensureTables()
	for _, s := range []string{"0.125", "1.2345", "0.30000000000000004", "-0.12345679104328156"} {
		buf := []byte(s)
		b.Run(s, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				parseNumber(buf, 0)
			}
		})
	}
}
