package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// CreateTempBeside creates the temporary file an atomic write of path
// renames into place, in path's directory. Its error names path and says
// what to do, never the temporary file's name, which the user never gave:
// "cannot write og/one.jsonl: directory og does not exist".
func CreateTempBeside(path string) (*os.File, error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err == nil {
		return tmp, nil
	}
	return nil, WriteError(path, err)
}

// WriteError explains why path could not be created, naming path (not a
// temporary file) and what to do.
func WriteError(path string, err error) error {
	dir := filepath.Dir(path)
	info, serr := os.Stat(dir)
	switch {
	case errors.Is(serr, fs.ErrNotExist):
		return fmt.Errorf("cannot write %s: directory %s does not exist (create it, or give a directory that does)", path, dir)
	case serr == nil && !info.IsDir():
		return fmt.Errorf("cannot write %s: %s is not a directory", path, dir)
	case errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("cannot write %s: no permission to create files in %s", path, dir)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot write %s: %w", path, err)
}
