package pymarshal

import (
	"encoding/binary"
	"fmt"
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
