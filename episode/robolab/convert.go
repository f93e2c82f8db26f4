package robolab

import (
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/internal/fsutil"
)

// ConvertedName is the file a demo is converted to: run_0_demo_3.jsonl
// (.jsonl.gz when compressed).
func ConvertedName(r *Run, d Demo, gz bool) string {
	name := strings.TrimSuffix(filepath.Base(r.Path), filepath.Ext(r.Path)) + "_" + d.Name + ".jsonl"
	if gz {
		name += ".gz"
	}
	return name
}

// Convert writes a demo as an episode file in dir and returns its path
// and number of steps.
// The header declares the number of steps. A demo that cannot be read in
// full is an error and writes nothing; an existing file is replaced
// atomically, keeping its mode and owner.
func Convert(r *Run, d Demo, opts Options, dir string, gz bool) (string, int, error) {
	opts.DeclareSteps = true
	s, err := r.Stream(d, opts)
	if err != nil {
		return "", 0, err
	}
	path := filepath.Join(dir, ConvertedName(r, d, gz))
	err = writeAtomic(path, func(w io.Writer) error {
		if gz {
			zw := gzip.NewWriter(w)
			if _, err := io.Copy(zw, s); err != nil {
				return err
			}
			if err := s.Err(); err != nil {
				return err
			}
			return zw.Close()
		}
		if _, err := io.Copy(w, s); err != nil {
			return err
		}
		return s.Err()
	})
	if err != nil {
		return "", 0, err
	}
	return path, s.Steps(), nil
}

// writeAtomic writes a file through a temporary file in its directory,
// renamed over it once complete.
func writeAtomic(path string, write func(io.Writer) error) error {
	mode := os.FileMode(0o644)
	old, err := os.Stat(path)
	if err == nil {
		if !old.Mode().IsRegular() {
			return fmt.Errorf("%s: not a regular file", path)
		}
		mode = old.Mode().Perm()
	}
	tmp, err := fsutil.CreateTempBeside(path)
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // no-op once renamed
	if err := write(tmp); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if old != nil {
		keepOwner(tmp, old)
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
