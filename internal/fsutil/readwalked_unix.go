//go:build unix

package fsutil

import (
	"errors"
	"io/fs"
	"syscall"
)

// ReadWalked reads a file a directory walk found, given the type its
// directory entry reported, with as few system calls as the I/O floor: one
// open, one read (more only for a file larger than buf), one close, no
// stat. The walk's entry type already says the file is regular; the open
// neither follows a symbolic link nor blocks, so an entry swapped for a
// link or a FIFO since the walk is refused or reads empty, never hangs.
// A symbolic link takes the checked path of ReadFile. buf is a scratch
// buffer reused across calls (one per worker); the result is a copy of
// the file's exact size. More than limit bytes is a *TooLargeError.
func ReadWalked(path string, typ fs.FileMode, limit int64, buf *[]byte) ([]byte, error) {
	b, err := ReadWalkedInto(path, typ, limit, buf)
	if err != nil || !aliases(b, *buf) {
		return b, err
	}
	return append([]byte(nil), b...), nil
}

// ReadWalkedInto is ReadWalked without the copy: the result is in *buf
// when it fits (a link's is a new slice), valid until the next read into
// the same buffer. A caller that keeps nothing of a file once it is done
// with it (parse printing each file's output) saves a copy and the memory.
func ReadWalkedInto(path string, typ fs.FileMode, limit int64, buf *[]byte) ([]byte, error) {
	if typ&fs.ModeSymlink != 0 {
		return ReadFile(path, limit)
	}
	if !typ.IsRegular() {
		return nil, NotRegular(path, typ)
	}
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	for errors.Is(err, syscall.EINTR) {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
	}
	if errors.Is(err, syscall.ELOOP) { // became a link since the walk
		return ReadFile(path, limit)
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	if cap(*buf) < 64<<10 {
		*buf = make([]byte, 64<<10)
	}
	b := (*buf)[:cap(*buf)]
	n := 0
	for {
		m, err := syscall.Read(fd, b[n:])
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if m == 0 {
			break
		}
		n += m
		if int64(n) > limit {
			return nil, &TooLargeError{Path: path, Limit: limit}
		}
		if n < len(b) {
			// A short read of a regular file is its end; a file growing
			// meanwhile is read as it was.
			break
		}
		b = append(b, make([]byte, len(b))...)
		*buf = b
	}
	return b[:n], nil
}

// aliases reports whether b is a slice of buf's array.
func aliases(b, buf []byte) bool {
	return cap(b) > 0 && cap(buf) > 0 && &b[:cap(b)][cap(b)-1] == &buf[:cap(buf)][cap(buf)-1]
}
