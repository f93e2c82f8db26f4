package transitions

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
)

// WriteFile writes the episode with the rules applied into tmp, a
// temporary file beside path (fsutil.CreateTempBeside), gzip-compressed
// when path ends in .gz, and renames it over path, keeping an existing
// file's mode. It returns the number of firings; tmp is closed, and
// removed unless renamed. A recording's fault is a *RecordingError.
func (a *Applier) WriteFile(tmp *os.File, path string, fired func(episode.RuleFiring)) (int, error) {
	defer os.Remove(tmp.Name())
	n, err := a.WriteTo(tmp, strings.HasSuffix(path, ".gz"), fired)
	if err != nil {
		tmp.Close()
		return n, err
	}
	if err := tmp.Close(); err != nil {
		return n, err
	}
	if info, err := os.Stat(path); err == nil {
		_ = os.Chmod(tmp.Name(), info.Mode().Perm())
	} else {
		_ = os.Chmod(tmp.Name(), 0o644)
	}
	return n, os.Rename(tmp.Name(), path)
}

// WriteSampleFiles writes a rule's sample into dir, which must exist: its
// definition as problem0.bddl and its episode as sample.jsonl, each
// created, or replaced atomically keeping its mode and owner.
func WriteSampleFiles(dir, definition string, ep []byte) (defPath, epPath string, err error) {
	defPath, epPath = filepath.Join(dir, "problem0.bddl"), filepath.Join(dir, "sample.jsonl")
	for _, f := range []struct {
		path string
		data []byte
	}{{defPath, []byte(definition)}, {epPath, ep}} {
		if err := writeOrReplace(f.path, f.data); err != nil {
			return defPath, epPath, err
		}
	}
	return defPath, epPath, nil
}

// writeOrReplace creates a file, or replaces an existing one atomically
// keeping its mode and owner.
func writeOrReplace(path string, data []byte) error {
	if _, err := os.Lstat(path); err == nil {
		return fsutil.WriteFileAtomic(path, data)
	}
	return os.WriteFile(path, data, 0o644)
}
