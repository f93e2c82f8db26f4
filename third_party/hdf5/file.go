// Package hdf5 provides a pure Go implementation for reading HDF5 files.
// It supports HDF5 format versions 0, 2, and 3, with capabilities for
// reading datasets, groups, attributes, and various data layouts.
package hdf5

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/scigolib/hdf5/internal/core"
	"github.com/scigolib/hdf5/internal/utils"
)

// File represents an open HDF5 file with its metadata and root group.
type File struct {
	osFile        fileReader
	sb            *core.Superblock
	root          *Group
	visitedBTrees map[uint64]bool // Track visited B-tree addresses to prevent cycles
}

// Open opens an HDF5 file for reading and returns a File handle.
// The file must be a valid HDF5 file with a supported format version.
func Open(filename string) (*File, error) {
	//nolint:gosec // G304: User-provided filename is intentional for HDF5 file library
	f, err := os.Open(filename)
	if err != nil {
		return nil, utils.WrapError("file open failed", err)
	}
	// Get file size for address validation.
	fi, err := f.Stat()
	if err != nil {
		_ = f.Close()
		return nil, utils.WrapError("file stat failed", err)
	}
	return openReader(f, fi.Size())
}

// fileReader is what File reads from: an *os.File, or (bddl patch) any
// io.ReaderAt given to OpenReaderAt.
type fileReader interface {
	io.ReaderAt
	io.Closer
}

type nopCloser struct{ io.ReaderAt }

func (nopCloser) Close() error { return nil }

// Size lets utils.ReaderSize bound allocations by the data's size.
func (n nopCloser) Size() int64 {
	if s, ok := utils.ReaderSize(n.ReaderAt); ok {
		return s
	}
	return 1<<63 - 1
}

// OpenReaderAt reads an HDF5 file held by r, size bytes long (bddl patch:
// the caller opens the file as it sees fit, or holds it in memory).
// Close does not close r.
func OpenReaderAt(r io.ReaderAt, size int64) (*File, error) {
	return openReader(nopCloser{r}, size)
}

func openReader(f fileReader, fileSize int64) (*File, error) {
	// Verify HDF5 signature before reading superblock (bddl patch: at 0
	// or, after a userblock, at 512, 1024, 2048, …).
	base, ok := FindSuperblock(f, fileSize)
	if !ok {
		_ = f.Close()
		return nil, errors.New("not an HDF5 file")
	}
	if base > 0 {
		// Every address is relative to the superblock (its base address):
		// the file is read from there on.
		f = &baseReader{f: f, base: base, size: fileSize - base}
		fileSize -= base
	}

	sb, err := core.ReadSuperblock(f)
	if err != nil {
		_ = f.Close()
		return nil, utils.WrapError("superblock read failed", err)
	}

	file := &File{
		osFile:        f,
		sb:            sb,
		visitedBTrees: make(map[uint64]bool),
	}

	// Validate root group address.
	//nolint:gosec // G115: File size is always positive, safe to convert int64 to uint64
	if sb.RootGroup >= uint64(fileSize) {
		_ = f.Close()
		return nil, fmt.Errorf("root group address %d beyond file size %d",
			sb.RootGroup, fileSize)
	}

	// For all versions, sb.RootGroup now contains the correct object header address.
	file.root, err = loadGroup(file, sb.RootGroup)
	if err != nil {
		_ = f.Close()
		return nil, utils.WrapError("root group load failed", err)
	}

	// Ensure root group always has name "/" (may be empty from object header)
	file.root.name = "/"

	return file, nil
}

// FindSuperblock is the offset of the file's superblock (bddl patch): 0,
// or past a userblock (h5py's userblock_size) 512, 1024, 2048, … as the
// format specification places it; false when no signature is found in
// the first 1 GiB.
func FindSuperblock(r io.ReaderAt, size int64) (int64, bool) {
	buf := make([]byte, 8)
	for off := int64(0); off+48 <= size && off <= 1<<30; {
		if n, _ := r.ReadAt(buf, off); n == 8 && string(buf) == core.Signature {
			return off, true
		}
		if off == 0 {
			off = 512
		} else {
			off *= 2
		}
	}
	return 0, false
}

// baseReader reads a file whose HDF5 data starts at base, after a
// userblock (bddl patch): address 0 is the superblock.
type baseReader struct {
	f    fileReader
	base int64
	size int64
}

func (b *baseReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("negative offset")
	}
	if off > b.size {
		return 0, io.EOF
	}
	return b.f.ReadAt(p, b.base+off)
}

func (b *baseReader) Close() error { return b.f.Close() }

// Size lets utils.ReaderSize bound allocations by the data's size.
func (b *baseReader) Size() int64 { return b.size }

// UserblockSize is the size of the userblock before the superblock (bddl
// patch): 0 for most files.
func (f *File) UserblockSize() int64 {
	if b, ok := f.osFile.(*baseReader); ok {
		return b.base
	}
	return 0
}

// Close closes the HDF5 file and releases associated resources.
// It is safe to call Close multiple times.
func (f *File) Close() error {
	if f.osFile == nil {
		return nil // Already closed.
	}
	err := f.osFile.Close()
	f.osFile = nil // Prevent double close.
	return err
}

// Root returns the root group of the HDF5 file.
func (f *File) Root() *Group {
	return f.root
}

// Walk traverses the entire file structure, calling fn for each object.
// Objects are visited in depth-first order starting from the root group.
func (f *File) Walk(fn func(path string, obj Object)) {
	walkGroup(f.root, "/", fn)
}

func walkGroup(g *Group, currentPath string, fn func(string, Object)) {
	fn(currentPath, g)

	for _, child := range g.Children() {
		childPath := currentPath + child.Name()

		if childGroup, ok := child.(*Group); ok {
			walkGroup(childGroup, childPath+"/", fn)
		} else {
			fn(childPath, child)
		}
	}
}

// SuperblockVersion returns the HDF5 superblock format version (0, 2, or 3).
func (f *File) SuperblockVersion() uint8 {
	return f.sb.Version
}

// Superblock returns the file's superblock metadata structure.
func (f *File) Superblock() *core.Superblock {
	return f.sb
}

// Reader returns the underlying file reader for low-level access.
func (f *File) Reader() io.ReaderAt {
	return f.osFile
}

// readSignature reads 4 bytes at address and returns string.
func readSignature(r io.ReaderAt, address uint64) string {
	buf := make([]byte, 4)
	//nolint:gosec // G115: HDF5 addresses fit in int64 for io.ReaderAt interface
	if _, err := r.ReadAt(buf, int64(address)); err != nil {
		return ""
	}
	return string(buf)
}
