//go:build !linux

package fsutil

import "os"

// dir is a directory being walked, listed by path.
type dir struct{ path string }

func openDir(_ *dir, _, path string) (*dir, error) { return &dir{path: path}, nil }

// entries lists the directory sorted by name.
func (d *dir) entries(int) ([]dirEntry, error) {
	es, err := os.ReadDir(d.path)
	if err != nil {
		return nil, err
	}
	out := make([]dirEntry, len(es))
	for i, e := range es {
		out[i] = dirEntry{name: e.Name(), typ: e.Type()}
	}
	return out, nil
}

func (d *dir) close() {}

func (d *dir) id() (fileID, bool) {
	info, err := os.Stat(d.path)
	if err != nil {
		return fileID{}, false
	}
	return idOf(info)
}

func (d *dir) entryID(e dirEntry) (fileID, bool) {
	info, err := os.Lstat(d.path + string(os.PathSeparator) + e.name)
	if err != nil {
		return fileID{}, false
	}
	return idOf(info)
}
