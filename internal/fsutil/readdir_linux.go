//go:build linux

package fsutil

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"os"
	"slices"
	"strings"
	"syscall"
)

// dir is a directory being walked, open so that its subdirectories are
// opened relative to it: the kernel then resolves one name instead of the
// whole path, for each directory of a large tree.
type dir struct {
	fd   int // -1 once closed
	path string
	dev  uint64 // the device of its entries' inode numbers
}

// openDir opens path, relative to parent (name being path's last element)
// when parent is open. It refuses anything but a directory without
// blocking on a FIFO put in its place since it was listed.
func openDir(parent *dir, name, path string) (*dir, error) {
	const flags = syscall.O_RDONLY | syscall.O_DIRECTORY | syscall.O_CLOEXEC | syscall.O_NONBLOCK
	var fd int
	var err error
	for {
		if parent != nil && parent.fd >= 0 {
			fd, err = syscall.Openat(parent.fd, name, flags, 0)
		} else {
			fd, err = syscall.Open(path, flags, 0)
		}
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return &dir{fd: fd, path: path, dev: uint64(st.Dev)}, nil
}

// id is the identity of the directory itself.
func (d *dir) id() (fileID, bool) {
	var st syscall.Stat_t
	if d.fd < 0 || syscall.Fstat(d.fd, &st) != nil {
		return fileID{}, false
	}
	return fileID{dev: uint64(st.Dev), ino: st.Ino}, true
}

// entryID is the identity of an entry that is no link: the inode number
// listed with its name, on the directory's device.
func (d *dir) entryID(e dirEntry) (fileID, bool) {
	return fileID{dev: d.dev, ino: e.ino}, e.ino != 0
}

// entries lists the directory sorted by name, as os.ReadDir does: types
// from the directory entries, an lstat only where the file system does
// not report them.
func (d *dir) entries(depth int) ([]dirEntry, error) {
	buf := make([]byte, 8<<10)
	var out []dirEntry
	for {
		n, err := syscall.ReadDirent(d.fd, buf)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: d.path, Err: err}
		}
		if n <= 0 {
			break
		}
		for b := buf[:n]; len(b) >= 19; {
			// struct linux_dirent64: ino u64, off s64, reclen u16, type u8, name.
			reclen := int(binary.NativeEndian.Uint16(b[16:18]))
			if reclen < 19 || reclen > len(b) {
				return nil, &fs.PathError{Op: "readdirent", Path: d.path, Err: syscall.EIO}
			}
			ino, typ, name := binary.NativeEndian.Uint64(b[0:8]), b[18], b[19:reclen]
			b = b[reclen:]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if ino == 0 || string(name) == "." || string(name) == ".." {
				continue
			}
			e := dirEntry{name: string(name), ino: ino}
			switch typ {
			case syscall.DT_REG:
			case syscall.DT_DIR:
				e.typ = fs.ModeDir
			case syscall.DT_LNK:
				e.typ = fs.ModeSymlink
			case syscall.DT_FIFO:
				e.typ = fs.ModeNamedPipe
			case syscall.DT_SOCK:
				e.typ = fs.ModeSocket
			case syscall.DT_CHR:
				e.typ = fs.ModeDevice | fs.ModeCharDevice
			case syscall.DT_BLK:
				e.typ = fs.ModeDevice
			default:
				info, err := os.Lstat(d.path + string(os.PathSeparator) + e.name)
				if err != nil {
					continue // gone since it was listed, as os.ReadDir does
				}
				e.typ = info.Mode().Type()
			}
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b dirEntry) int { return strings.Compare(a.name, b.name) })
	if depth >= maxOpenDirs {
		d.close() // its subdirectories are opened by path
	}
	return out, nil
}

func (d *dir) close() {
	if d.fd >= 0 {
		syscall.Close(d.fd)
		d.fd = -1
	}
}
