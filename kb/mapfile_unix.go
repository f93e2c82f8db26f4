//go:build linux || darwin || freebsd

package kb

import (
	"syscall"

	"github.com/openbddl/bddl/internal/fsutil"
)

// mapEntry maps a cache entry read-only instead of reading it: its pages
// come from the page cache as they are touched (a model entry is mostly
// never touched), where a read would fill as many fresh pages, which cost
// more than the decoding on machines with slow page faults. Entries are
// only ever replaced by rename, never rewritten in place, so the mapping
// stays valid; it is never unmapped, as decoded names point into it.
func mapEntry(path string) ([]byte, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() || info.Size() == 0 || info.Size() > maxDataFile {
		return readRegular(path, maxDataFile)
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(info.Size()), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return readRegular(path, maxDataFile)
	}
	return data, nil
}
