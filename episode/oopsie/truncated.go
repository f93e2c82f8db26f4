package oopsie

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"os"

	"github.com/scigolib/hdf5"
)

// truncated compares the file's size with the end-of-file address its
// superblock declares (versions 0–3): a file cut short is shorter. ""
// when it is whole or the superblock is not readable here.
func truncated(path string, size int64) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	// after a userblock, the superblock is at 512, 1024, …
	at, ok := hdf5.FindSuperblock(f, size)
	if !ok {
		return ""
	}
	var b [96]byte
	n, _ := f.ReadAt(b[:], at)
	if n < 48 || string(b[:8]) != "\x89HDF\r\n\x1a\n" {
		return ""
	}
	var off, width int
	switch b[8] {
	case 0, 1:
		width, off = int(b[13]), 24
		if b[8] == 1 {
			off = 28
		}
	case 2, 3:
		width, off = int(b[9]), 12
	default:
		return ""
	}
	if width != 8 && width != 4 || off+3*width > n {
		return ""
	}
	read := func(i int) uint64 {
		p := b[off+i*width:]
		if width == 4 {
			return uint64(binary.LittleEndian.Uint32(p))
		}
		return binary.LittleEndian.Uint64(p)
	}
	// base address, then (v0/1) free-space or (v2/3) extension, then the
	// end of file: an absolute address (libhdf5 counts a userblock in it)
	if eof := read(2); eof > uint64(size) {
		return fmt.Sprintf("truncated: the file has %d bytes, its superblock declares %d", size, eof)
	}
	return ""
}

// schemaInHead reports whether the first 64 KiB of a file hold the
// Oopsie schema's value, where HDF5 writers put the root's attributes.
func schemaInHead(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	b := make([]byte, 64<<10)
	n, _ := f.ReadAt(b, 0)
	return bytes.Contains(b[:n], []byte("oopsiedata"))
}
