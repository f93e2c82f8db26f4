package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The rules for a program that rewrites a user's file through a copy
// renamed over it (bddl annotate on HDF5 run files): the whole
// read-modify-replace holds the file's advisory lock, the copy lives
// beside the file under a name the next run can find and sweep, and the
// file's identity (owner, mode bits, hard links) is kept or the write
// refused with the reason.

// LockForReplace takes an exclusive advisory lock (flock, as libhdf5
// takes on the files it opens) on the regular file path, waiting up to
// wait for another holder. Since a replaced file is a new inode, the
// lock is taken again when path no longer names the file locked. The
// returned function releases it. Where locks are not supported, it
// locks nothing.
func LockForReplace(path string, wait time.Duration) (unlock func(), err error) {
	deadline := time.Now().Add(wait)
	for {
		f, err := OpenRegularFile(path, os.O_RDONLY, 0)
		if err != nil {
			return nil, err
		}
		err = Lock(f)
		if errors.Is(err, ErrLockUnsupported) {
			return func() { f.Close() }, nil
		}
		if err == nil {
			// Still the file path names? Else it was replaced while we
			// waited: lock the new one.
			a, aerr := f.Stat()
			b, berr := os.Stat(path)
			if aerr == nil && berr == nil && os.SameFile(a, b) {
				return func() { f.Close() }, nil
			}
			f.Close()
			continue
		}
		f.Close()
		if !errors.Is(err, ErrLocked) {
			return nil, err
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("%s: %w (another bddl annotate, or a program such as h5py with the file open for writing); not written", path, ErrLocked)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TempPattern is the name pattern of the copies of path: hidden, beside
// it, ending .tmp.
func TempPattern(path string) string { return "." + filepath.Base(path) + ".*.tmp" }

// SweepTemps removes the copies of path that a run killed before it
// could remove them left; call it holding path's lock, so that no
// copy in use is removed. It returns how many it removed.
func SweepTemps(path string) int {
	dir := filepath.Dir(path)
	ents, err := os.ReadDir(dir)
	if err != nil {
		return 0
	}
	prefix := "." + filepath.Base(path) + "."
	n := 0
	for _, e := range ents {
		name := e.Name()
		if !e.Type().IsRegular() || !strings.HasPrefix(name, prefix) || !strings.HasSuffix(name, ".tmp") {
			continue
		}
		if os.Remove(filepath.Join(dir, name)) == nil {
			n++
		}
	}
	return n
}

// CheckReplaceable refuses a file a rename would not keep: one with
// several hard links (the others would keep the old contents).
func CheckReplaceable(path string, info os.FileInfo) error {
	if n := links(info); n > 1 {
		return &fs.PathError{Op: "replace", Path: path, Err: fmt.Errorf("the file has %d hard links, which replacing it would break (the other names would keep the old contents); not written: annotate a copy", n)}
	}
	return nil
}

// KeepIdentity gives the copy f the owner, group and mode bits
// (setuid, setgid and sticky included) of the file info describes, or
// reports why it cannot: only root may give a file to another user, and
// a rename would then make the user's file this process's own.
func KeepIdentity(path string, f *os.File, info os.FileInfo) error {
	if err := chown(f, info); err != nil {
		return &fs.PathError{Op: "replace", Path: path, Err: fmt.Errorf("the file belongs to another user or group, which a rewritten copy cannot keep (%v); not written", err)}
	}
	// The mode after the owner: a chown clears the setuid and setgid bits.
	return f.Chmod(info.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky))
}
