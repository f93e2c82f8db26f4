package kb

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Hashing the sources costs more than decoding a cache entry, so, as
// Bazel's digest cache and git's index do, the digest of a file is
// remembered together with its identity: device, inode, size, and
// modification and change times in nanoseconds. Every write to a file
// changes its change time, which no program can set back, so a file whose
// identity matches was not written since it was hashed. A digest is
// remembered only for a file whose change time was more than
// memoRacyWindow before it was hashed, so that a write landing in the
// same clock tick as the hashing (coarse file-system timestamps) cannot
// leave a stale digest. Where the platform gives no change time
// (fileIdentity reports false), files are always hashed.

var memoRacyWindow = 2 * time.Second // a variable for tests

// memoFile is the digest memo's name in the cache directory.
const memoFile = "digests"

// digestMemo maps a file's path and identity to its SHA-256.
type digestMemo struct {
	dir     string
	mu      sync.Mutex
	entries map[string]memoEntry // by absolute path
	dirty   bool
	hits    int // digests served, for tests
}

type memoEntry struct {
	id  string // fileIdentity
	sum []byte
}

// loadDigestMemo reads the memo of the cache directory; a missing or
// damaged memo is empty.
func loadDigestMemo(dir string) *digestMemo {
	m := &digestMemo{dir: dir, entries: map[string]memoEntry{}}
	data, err := readRegular(filepath.Join(dir, memoFile), 16<<20)
	if err != nil {
		return m
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// sum TAB identity TAB path
		f := strings.SplitN(sc.Text(), "\t", 3)
		if len(f) != 3 {
			continue
		}
		sum, err := hex.DecodeString(f[0])
		if err != nil || len(sum) != 32 {
			continue
		}
		m.entries[f[2]] = memoEntry{id: f[1], sum: sum}
	}
	return m
}

// lookup returns the remembered digest of path if its identity is
// unchanged.
func (m *digestMemo) lookup(path string, info os.FileInfo) ([]byte, bool) {
	id, _, ok := fileIdentity(info)
	if !ok {
		return nil, false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, found := m.entries[path]
	if !found || e.id != id {
		return nil, false
	}
	m.hits++
	return e.sum, true
}

// remember records the digest of path, hashed at hashedAt, unless its
// change time is too recent to be trusted.
func (m *digestMemo) remember(path string, info os.FileInfo, sum []byte, hashedAt time.Time) {
	id, ctime, ok := fileIdentity(info)
	if !ok || hashedAt.Sub(ctime) <= memoRacyWindow || strings.ContainsAny(path, "\t\n") {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.entries[path] = memoEntry{id: id, sum: append([]byte(nil), sum...)}
	m.dirty = true
}

// save writes the memo atomically when it changed; failures are ignored.
func (m *digestMemo) save() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.dirty || len(m.entries) > 100_000 {
		return
	}
	var b bytes.Buffer
	for path, e := range m.entries {
		fmt.Fprintf(&b, "%x\t%s\t%s\n", e.sum, e.id, path)
	}
	if err := os.MkdirAll(m.dir, 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(m.dir, "tmp-digests-*")
	if err != nil {
		return
	}
	_, werr := f.Write(b.Bytes())
	if cerr := f.Close(); werr != nil || cerr != nil || os.Rename(f.Name(), filepath.Join(m.dir, memoFile)) != nil {
		os.Remove(f.Name())
		return
	}
	m.dirty = false
}

// formatIdentity renders a file identity.
func formatIdentity(dev, ino uint64, size int64, mtime, ctime int64) string {
	return strconv.FormatUint(dev, 10) + ":" + strconv.FormatUint(ino, 10) + ":" +
		strconv.FormatInt(size, 10) + ":" + strconv.FormatInt(mtime, 10) + ":" + strconv.FormatInt(ctime, 10)
}
