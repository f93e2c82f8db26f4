package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrReadOnly is wrapped by WriteFileAtomic's error for a file without
// write permission.
var ErrReadOnly = errors.New("the file is read-only")

// WriteFileAtomic replaces the contents of path with data so that a
// reader, or a crash, sees the old file or the new one, never a mix: a
// temporary file in the same directory is renamed over the original. The
// file keeps its mode, owner and group; a symbolic link stays a link (its
// target is replaced). When a rename cannot keep the file's identity (a
// file with several hard links, or an owner this process cannot give
// away) the file is rewritten in place instead. A file without write
// permission is refused, as gofmt -w refuses it.
//
// A file that does not exist yet is created, with mode 0644 less the
// umask, the same way.
func WriteFileAtomic(path string, data []byte) error {
	real, err := filepath.EvalSymlinks(path)
	if errors.Is(err, fs.ErrNotExist) {
		if _, lerr := os.Lstat(path); errors.Is(lerr, fs.ErrNotExist) {
			return createAtomic(path, data)
		}
	}
	if err != nil {
		return err
	}
	info, err := os.Stat(real)
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return NotRegular(path, info.Mode())
	}
	if info.Mode().Perm()&0o222 == 0 || !writable(real) {
		return &fs.PathError{Op: "write", Path: path, Err: ErrReadOnly}
	}
	if links(info) > 1 {
		return writeInPlace(real, data)
	}
	tmp, err := CreateTempBeside(real)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	err = write(tmp, data)
	if err == nil {
		if err = chown(tmp, info); err != nil {
			tmp.Close()
			// Renaming would change the owner: keep the file instead.
			return writeInPlace(real, data)
		}
		// The mode after the owner: a chown clears the setuid and setgid
		// bits, which the file keeps too.
		err = tmp.Chmod(info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
	}
	if err = errors.Join(err, tmp.Sync(), tmp.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), real)
}

func write(f *os.File, data []byte) error {
	_, err := f.Write(data)
	return err
}

// writeInPlace overwrites a file's contents, keeping its inode.
func writeInPlace(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteAt(data, 0)
	if err == nil {
		err = f.Truncate(int64(len(data)))
	}
	return errors.Join(err, f.Sync(), f.Close())
}

// createAtomic writes a new file through a temporary file and a rename.
func createAtomic(path string, data []byte) error {
	tmp, err := CreateTempBeside(path)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	// CreateTemp makes 0600; a results file is shared as os.Create's are.
	if err := errors.Join(write(tmp, data), tmp.Chmod(0o644), tmp.Sync(), tmp.Close()); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return os.Rename(tmp.Name(), path)
}
