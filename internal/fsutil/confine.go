package fsutil

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// The confinement rule for every path that comes from data (an episode
// header's activity, a RoboLab map's activity:, a template's category
// under --og-dataset): the path, with its links resolved, lies inside one
// of the allowed roots, and is a regular file (or, where the caller
// allows, a directory). The type is checked before anything is opened, so
// a FIFO is never opened; ReadConfined then reads through ReadFile, which
// checks the open file again and bounds the read.

// ErrOutsideRoots is wrapped by the errors for paths outside the roots.
var ErrOutsideRoots = fmt.Errorf("outside the allowed directories")

// Confine checks path against the rule; dirOK accepts a directory too.
func Confine(path string, dirOK bool, roots ...string) error {
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	m := info.Mode()
	if !m.IsRegular() && !(dirOK && m.IsDir()) {
		return NotRegular(path, m)
	}
	for _, r := range roots {
		if Within(r, path) {
			return nil
		}
	}
	return &fs.PathError{Op: "open", Path: path, Err: fmt.Errorf("%w (%s)", ErrOutsideRoots, strings.Join(roots, ", "))}
}

// ReadConfined reads a regular file of at most limit bytes that the
// confinement rule accepts.
func ReadConfined(path string, limit int64, roots ...string) ([]byte, error) {
	if err := Confine(path, false, roots...); err != nil {
		return nil, err
	}
	return ReadFile(path, limit)
}

// PathComponent reports whether s can name one entry of a directory: not
// empty, not . or .., without a separator or NUL. A name from data joined
// to a directory must be one, or it could climb out of it.
func PathComponent(s string) bool {
	return s != "" && s != "." && s != ".." && !strings.ContainsAny(s, "/\\\x00") && filepath.Base(s) == s
}
