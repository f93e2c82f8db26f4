package pymarshal

import (
	"encoding/binary"
	"fmt"
	"math/big"
)

// input is marshal data being read, for the transcoder and the scanner:
// the bytes and the position of the next one.
type input struct {
	src []byte
	pos int
}

func (in *input) errorf(format string, args ...any) error {
	return fmt.Errorf("marshal data at byte %d: %s", in.pos, fmt.Sprintf(format, args...))
}

func (in *input) unsupported(what string) error {
	return fmt.Errorf("marshal data at byte %d: %s: %w", in.pos, what, ErrUnsupported)
}

func (in *input) need(n int) error {
	if n < 0 || len(in.src)-in.pos < n {
		return in.errorf("truncated")
	}
	return nil
}

func (in *input) int32() (int32, error) {
	if err := in.need(4); err != nil {
		return 0, err
	}
	v := int32(binary.LittleEndian.Uint32(in.src[in.pos:]))
	in.pos += 4
	return v, nil
}

// count reads a container's or string's length, each of whose items
// takes at least min bytes of the rest of the input.
func (in *input) count(min int) (int, error) {
	n, err := in.int32()
	if err != nil {
		return 0, err
	}
	if n < 0 || int64(n)*int64(min) > int64(len(in.src)-in.pos) {
		return 0, in.errorf("a length of %d, more than the data left", n)
	}
	return int(n), nil
}

// bigInt reads marshal's arbitrary-size integer: a signed count of 15-bit
// digits, least significant first.
func (in *input) bigInt() (*big.Int, error) {
	n, err := in.int32()
	if err != nil {
		return nil, err
	}
	neg := n < 0
	digits := int64(n)
	if neg {
		digits = -digits
	}
	if digits*2 > int64(len(in.src)-in.pos) {
		return nil, in.errorf("a length of %d, more than the data left", digits)
	}
	// 15 bits a digit: 953 digits hold every integer of 4300 decimal
	// digits, and building one is then quick.
	if digits > MaxIntDigits*10/3/15+2 {
		return nil, in.errorf("an integer of more than %d digits (Python's limit for int to text; json.dumps refuses it too)", MaxIntDigits)
	}
	v := new(big.Int)
	for i := int(digits) - 1; i >= 0; i-- {
		d := binary.LittleEndian.Uint16(in.src[in.pos+2*i:])
		if d >= 1<<15 {
			return nil, in.errorf("an integer digit out of range")
		}
		v.Lsh(v, 15).Or(v, big.NewInt(int64(d)))
	}
	in.pos += int(digits) * 2
	if neg {
		v.Neg(v)
	}
	return v, nil
}

// checkDigits refuses an integer whose decimal text, d bytes with its
// sign, has more than MaxIntDigits digits.
func (in *input) checkDigits(d int, neg bool) error {
	if d > MaxIntDigits+1 || d == MaxIntDigits+1 && !neg {
		return in.errorf("an integer of more than %d digits (Python's limit for int to text; json.dumps refuses it too)", MaxIntDigits)
	}
	return nil
}
