package utils

import (
	"fmt"
	"io"
	"os"
)

// bddl patch: bounds on what reading a dataset may allocate, checked
// before the allocation, so that a corrupt or hostile header ends in an
// error instead of the runtime's unrecoverable out-of-memory.

// MaxReadBytes bounds one buffer a read allocates (a whole dataset, a
// hyperslab's output, one chunk once decoded).
const MaxReadBytes = 256 << 20

// ReaderSize is the size of r when it can tell it (an *os.File, a
// *bytes.Reader); ok is false otherwise.
func ReaderSize(r io.ReaderAt) (size int64, ok bool) {
	switch v := r.(type) {
	case interface{ Size() int64 }:
		return v.Size(), true
	case interface{ Stat() (os.FileInfo, error) }:
		if st, err := v.Stat(); err == nil {
			return st.Size(), true
		}
	}
	return 0, false
}

// CheckStored checks that n bytes stored at addr lie inside r, before a
// buffer of n bytes is allocated for them.
func CheckStored(r io.ReaderAt, addr, n uint64, what string) error {
	if n > MaxReadBytes {
		return fmt.Errorf("%s: %d bytes declared, more than the %d allowed", what, n, MaxReadBytes)
	}
	size, ok := ReaderSize(r)
	if !ok {
		return nil
	}
	if addr > uint64(size) || n > uint64(size)-addr {
		return fmt.Errorf("%s: %d bytes declared at 0x%x, past the end of the %d-byte file", what, n, addr, size)
	}
	return nil
}

// ChunkBytes is the decoded size of one chunk: the product of the first
// ndims chunk dimensions (a layout may list the element size as one more)
// and the element size, refused past MaxReadBytes.
func ChunkBytes(chunkDims []uint64, ndims int, elemSize uint64) (uint64, error) {
	if ndims > len(chunkDims) {
		return 0, fmt.Errorf("chunk has %d dimensions, the dataset %d", len(chunkDims), ndims)
	}
	n := elemSize
	for _, d := range chunkDims[:ndims] {
		var err error
		if n, err = SafeMultiply(n, d); err != nil || n > MaxReadBytes {
			return 0, fmt.Errorf("chunk of %v × %d-byte elements exceeds the %d bytes allowed", chunkDims[:ndims], elemSize, MaxReadBytes)
		}
	}
	return n, nil
}
