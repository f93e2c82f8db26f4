package robolab

import (
	"encoding/binary"
	"fmt"
	"io"

	"github.com/scigolib/hdf5"
)

// checkLength compares the file's size with the end-of-file address its
// superblock declares: a file cut short (a crash while recording, a copy
// stopped early) is shorter.
func checkLength(path string, f io.ReaderAt, size int64) *Error {
	eof, ok := declaredEOF(f, size)
	if !ok || eof <= uint64(size) {
		return nil
	}
	return &Error{File: path, Truncated: true,
		Msg: fmt.Sprintf("truncated: the file has %d bytes, its superblock declares %d", size, eof)}
}

// declaredEOF reads the end-of-file address of an HDF5 superblock
// (versions 0–3; the library reading the rest does not expose it), at 0
// or after a userblock; size is the file's.
func declaredEOF(r io.ReaderAt, fileSize int64) (uint64, bool) {
	at, ok := hdf5.FindSuperblock(r, fileSize)
	if !ok {
		return 0, false
	}
	var b [96]byte
	n, _ := r.ReadAt(b[:], at)
	if n < 48 || string(b[:8]) != "\x89HDF\r\n\x1a\n" {
		return 0, false
	}
	var off, size int
	switch b[8] {
	case 0, 1:
		size = int(b[13])
		off = 24
		if b[8] == 1 {
			off = 28
		}
		// base, free-space, end-of-file addresses
		return addrs(b[:n], off, size, 2)
	case 2, 3:
		size = int(b[9])
		// base, superblock extension, end-of-file addresses
		return addrs(b[:n], 12, size, 2)
	}
	return 0, false
}

// addrs reads address k of a superblock's address list: the end of file
// is an absolute address (libhdf5 counts a userblock in it, though the
// other addresses are relative to the base address).
func addrs(b []byte, off, size, k int) (uint64, bool) {
	if size != 8 && size != 4 || off+(k+1)*size > len(b) {
		return 0, false
	}
	p := b[off+k*size:]
	if size == 4 {
		return uint64(binary.LittleEndian.Uint32(p)), true
	}
	return binary.LittleEndian.Uint64(p), true
}
