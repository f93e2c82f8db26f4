package episode

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"sync"
)

// Numbers are most of a pose recording's bytes, and strconv.ParseFloat
// on a string made from the line costs ~40 ns for the 17-digit numbers a
// float32 simulator state prints as in Python. parseNumber reads the
// JSON number grammar itself and converts with, in order: the exact
// small-number path (≤ 2^53 mantissa, |exponent| ≤ 22: one multiply or
// divide), the Eisel-Lemire algorithm for any mantissa of ≤ 19 digits
// (the algorithm strconv itself uses, with the same 128-bit powers of
// five), and strconv.ParseFloat for the rest (more than 19 significant
// digits, or the rare inputs Eisel-Lemire declines). Every path rounds
// exactly as strconv does (TestParseNumberMatchesStrconv).

var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

const (
	minExp10 = -348
	maxExp10 = 347
)

// powersOfFive holds, for q in [minExp10, maxExp10], the 128-bit
// normalised mantissa of 5^q (equal to that of 10^q) as {low, high}
// words, built as the fast_float/strconv tables are: truncated for q ≥ 0
// and q < -27, rounded up for -27 ≤ q < 0.
var (
	powersOfFive     [maxExp10 - minExp10 + 1][2]uint64
	powersOfFiveOnce sync.Once
)

// ensureTables builds powersOfFive on first use (about a millisecond),
// so commands that never read a recording do not pay for it. Every
// Reader calls it before parsing.
func ensureTables() {
	powersOfFiveOnce.Do(func() {
		two128 := new(big.Int).Lsh(big.NewInt(1), 128)
		two127 := new(big.Int).Lsh(big.NewInt(1), 127)
		set := func(q int, c *big.Int) {
			lo := new(big.Int).And(c, new(big.Int).SetUint64(math.MaxUint64)).Uint64()
			hi := new(big.Int).Rsh(c, 64).Uint64()
			powersOfFive[q-minExp10] = [2]uint64{lo, hi}
		}
		p := big.NewInt(1)
		five := big.NewInt(5)
		for q := 0; q <= maxExp10; q++ {
			c := new(big.Int).Set(p)
			for c.Cmp(two127) < 0 {
				c.Lsh(c, 1)
			}
			for c.Cmp(two128) >= 0 {
				c.Rsh(c, 1)
			}
			set(q, c)
			p.Mul(p, five)
		}
		p.SetInt64(5)
		for q := -1; q >= minExp10; q-- {
			z := p.BitLen() // smallest z with 2^z ≥ 5^-q, as 5^-q is never a power of two
			var b int
			if q >= -27 {
				b = z + 127
			} else {
				b = 2*z + 128
			}
			c := new(big.Int).Lsh(big.NewInt(1), uint(b))
			c.Div(c, p)
			c.Add(c, big.NewInt(1))
			for c.Cmp(two128) >= 0 {
				c.Rsh(c, 1)
			}
			set(q, c)
			p.Mul(p, five)
		}
	})
}

// numberError says why a number was rejected.
type numberError uint8

const (
	numOK numberError = iota
	numMalformed
	numNotFinite
)

// parseNumber reads a JSON number starting at b[i] and returns its value
// and the index just past it.
func parseNumber(b []byte, i int) (float64, int, numberError) {
	start := i
	neg := false
	if i < len(b) && b[i] == '-' {
		neg = true
		i++
	}
	// The common case in one tight pass: at most 19 digits in all, so the
	// mantissa cannot overflow; anything longer is re-read carefully.
	var man uint64
	j := i
	for j < len(b) && b[j]-'0' <= 9 {
		man = man*10 + uint64(b[j]-'0')
		j++
	}
	intDigits := j - i
	if intDigits == 0 || intDigits > 1 && b[i] == '0' {
		return 0, j, numMalformed
	}
	exp10 := 0
	if j < len(b) && b[j] == '.' {
		j++
		k := j
		// Eight digits at a time while they last (SWAR, as fast_float).
		for j+8 <= len(b) {
			v := binary.LittleEndian.Uint64(b[j:])
			if ((v+0x4646464646464646)|(v-0x3030303030303030))&0x8080808080808080 != 0 {
				break
			}
			man = man*100000000 + eightDigits(v)
			j += 8
		}
		for j < len(b) && b[j]-'0' <= 9 {
			man = man*10 + uint64(b[j]-'0')
			j++
		}
		if j == k {
			return 0, j, numMalformed
		}
		exp10 = k - j
	}
	digits := intDigits - exp10
	if j < len(b) && (b[j] == 'e' || b[j] == 'E') {
		j++
		eneg := false
		if j < len(b) && (b[j] == '+' || b[j] == '-') {
			eneg = b[j] == '-'
			j++
		}
		k := j
		e := 0
		for j < len(b) && b[j]-'0' <= 9 {
			if e < 100000 {
				e = e*10 + int(b[j]-'0')
			}
			j++
		}
		if j == k {
			return 0, j, numMalformed
		}
		if eneg {
			e = -e
		}
		exp10 += e
	}
	if digits > 19 {
		return parseLong(b, start, i, j, neg)
	}
	return convert(b, start, j, man, exp10, neg)
}

// eightDigits converts eight ASCII digits read little-endian.
func eightDigits(v uint64) uint64 {
	const mask = 0x000000FF000000FF
	const mul1 = 0x000F424000000064 // 100 + (1000000 << 32)
	const mul2 = 0x0000271000000001 // 1 + (10000 << 32)
	v -= 0x3030303030303030
	v = v*10 + v>>8
	return (v&mask*mul1 + (v>>16)&mask*mul2) >> 32
}

// parseLong re-reads a number of more than 19 digits, keeping the first
// 19 significant ones; b[start:end] has been checked for syntax.
func parseLong(b []byte, start, i, end int, neg bool) (float64, int, numberError) {
	var man uint64
	nd, exp10 := 0, 0
	trunc, frac := false, false
	for ; i < end && b[i] != 'e' && b[i] != 'E'; i++ {
		if b[i] == '.' {
			frac = true
			continue
		}
		d := uint64(b[i] - '0')
		switch {
		case man == 0 && d == 0:
			if frac {
				exp10--
			}
		case nd < 19:
			man = man*10 + d
			nd++
			if frac {
				exp10--
			}
		default:
			if !frac {
				exp10++
			}
			if d != 0 {
				trunc = true
			}
		}
	}
	if i < end {
		e, _ := strconv.Atoi(string(b[i+1 : end]))
		exp10 += e
	}
	if trunc {
		return slowNumber(b, start, end)
	}
	return convert(b, start, end, man, exp10, neg)
}

// convert turns man × 10^exp10 into a float64 by the fastest exact path.
func convert(b []byte, start, end int, man uint64, exp10 int, neg bool) (float64, int, numberError) {
	if man == 0 {
		if neg {
			return math.Copysign(0, -1), end, numOK
		}
		return 0, end, numOK
	}
	if man <= 1<<53 && -22 <= exp10 && exp10 <= 22 {
		f := float64(man)
		if exp10 >= 0 {
			f *= pow10[exp10]
		} else {
			f /= pow10[-exp10]
		}
		if neg {
			f = -f
		}
		return f, end, numOK
	}
	if f, ok := eiselLemire64(man, exp10, neg); ok {
		return f, end, numOK
	}
	return slowNumber(b, start, end)
}

// slowNumber converts with strconv. The conversion to a string does not
// allocate for numbers of up to 32 bytes, as strconv copies its input
// into errors rather than keeping it.
func slowNumber(b []byte, start, end int) (float64, int, numberError) {
	f, err := strconv.ParseFloat(string(b[start:end]), 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, end, numNotFinite
	}
	return f, end, numOK
}

// eiselLemire64 converts man × 10^exp10 exactly, or reports that it
// cannot decide (a halfway case or an exponent out of range). It is the
// algorithm of Lemire, "Number Parsing at a Gigabyte per Second" (2021),
// as in Go's strconv.
func eiselLemire64(man uint64, exp10 int, neg bool) (float64, bool) {
	if exp10 < minExp10 || maxExp10 < exp10 {
		return 0, false
	}
	clz := bits.LeadingZeros64(man)
	man <<= uint(clz)
	const bias = 1023
	retExp2 := uint64(217706*exp10>>16+64+bias) - uint64(clz)
	pow := &powersOfFive[exp10-minExp10]
	xHi, xLo := bits.Mul64(man, pow[1])
	if xHi&0x1FF == 0x1FF && xLo+man < man {
		yHi, yLo := bits.Mul64(man, pow[0])
		mergedHi, mergedLo := xHi, xLo+yHi
		if mergedLo < xLo {
			mergedHi++
		}
		if mergedHi&0x1FF == 0x1FF && mergedLo+1 == 0 && yLo+man < man {
			return 0, false
		}
		xHi, xLo = mergedHi, mergedLo
	}
	msb := xHi >> 63
	retMantissa := xHi >> (msb + 9)
	retExp2 -= 1 ^ msb
	if xLo == 0 && xHi&0x1FF == 0 && retMantissa&3 == 1 {
		return 0, false
	}
	retMantissa += retMantissa & 1
	retMantissa >>= 1
	if retMantissa>>53 > 0 {
		retMantissa >>= 1
		retExp2++
	}
	if retExp2-1 >= 0x7FF-1 {
		return 0, false
	}
	retBits := retExp2<<52 | retMantissa&(1<<52-1)
	if neg {
		retBits |= 1 << 63
	}
	return math.Float64frombits(retBits), true
}
