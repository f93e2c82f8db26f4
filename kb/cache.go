package kb

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"hash"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/openbddl/bddl/internal/fsutil"
)

// A BEHAVIOR-1K knowledge base takes tens of milliseconds of CPU and
// several megabytes of fresh memory to parse, and on machines where page
// faults are slow that dominates every command. So, as the Go build cache
// does, a parsed Base is kept in the user's cache directory under the
// hash of everything it was built from: the contents of every source file
// the load reads, the list of the rule directory, the cache format and
// the identity of the executable. Any change to any of them is a
// different key, so an entry can never be served for other data; the
// entry also carries a checksum of its own bytes, and a damaged or
// unreadable entry is a miss, never an error.
//
// CacheEnvVar set to "off" disables the cache; set to a directory, it
// puts the cache there instead of os.UserCacheDir()/bddl/kb.
const CacheEnvVar = "BDDL_KB_CACHE"

// cacheKeep is how many entries the cache directory keeps; older ones are
// removed when a new one is written.
const cacheKeep = 16

var cacheMagic = []byte("bddl-kb-cache\x00")

// castagnoli is the CRC of an entry's payload: it catches a damaged entry
// (the key already names the content) at memory speed.
var castagnoli = sync.OnceValue(func() *crc32.Table { return crc32.MakeTable(crc32.Castagnoli) })

// cacheDir returns the cache directory, or "" when caching is off or no
// cache directory is known.
func cacheDir() string {
	switch v := os.Getenv(CacheEnvVar); v {
	case "off", "0", "false":
		return ""
	case "":
		d, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		return filepath.Join(d, "bddl", "kb")
	default:
		return v
	}
}

// sourceSet is what a key is computed over: the rule directory's listing
// and the files the load reads, in a fixed order.
type sourceSet struct {
	kind    string   // what is built from them: "base", "models", ...
	listing string   // the rule directory's entries, one per line
	files   []string // paths relative to the knowledge-base directory
}

// b1kSources lists the files LoadBehavior1K reads from dir: the same
// choices as the importer (the canonical file only without the params
// file; the rule files of the kinds the simulator reads).
func b1kSources(dir string) sourceSet {
	set := sourceSet{kind: "base"}
	set.files = []string{fileHierarchy, fileParams, fileSynsets, fileRoomTypes}
	if _, err := os.Lstat(filepath.Join(dir, fileParams)); errors.Is(err, fs.ErrNotExist) {
		set.files = append(set.files, fileCanonical)
	}
	entries, err := os.ReadDir(filepath.Join(dir, dirRules))
	var list strings.Builder
	if err != nil {
		list.WriteString("error: " + err.Error())
	}
	var stems []string
	for _, e := range entries {
		list.WriteString(e.Name())
		if e.IsDir() {
			list.WriteString("/")
		}
		list.WriteByte('\n')
		if stem, ok := strings.CutSuffix(e.Name(), ".json"); ok && !e.IsDir() && ruleKindByFile[stem] != 0 {
			stems = append(stems, stem)
		}
	}
	sort.Strings(stems)
	for _, stem := range stems {
		set.files = append(set.files, filepath.Join(dirRules, stem+".json"))
	}
	set.listing = list.String()
	return set
}

// cacheKey hashes the executable's identity, the format, the listing and,
// per file, its name and the hash of its contents (or its absence) as
// fileHash gives them. ok is false when a file cannot be hashed (not a
// regular file, unreadable): such a load is not cached.
func cacheKey(set sourceSet, fileHash func(name string) ([]byte, bool, bool)) (key [32]byte, ok bool) {
	h := sha256.New()
	h.Write(cacheMagic)
	h.Write([]byte{cacheFormat})
	writeField(h, executableID())
	writeField(h, set.kind)
	writeField(h, set.listing)
	for _, name := range set.files {
		sum, present, ok := fileHash(name)
		if !ok {
			return key, false
		}
		writeField(h, name)
		if present {
			h.Write(sum)
		} else {
			writeField(h, "absent")
		}
	}
	h.Sum(key[:0])
	return key, true
}

func writeField(h hash.Hash, s string) {
	var n [binary.MaxVarintLen64]byte
	h.Write(n[:binary.PutUvarint(n[:], uint64(len(s)))])
	io.WriteString(h, s)
}

// executableID identifies the running program, so that an entry written
// by one build of the loader is not read by another: its path, size and
// modification time.
func executableID() string {
	exe, err := os.Executable()
	if err != nil {
		return "unknown"
	}
	info, err := os.Stat(exe)
	if err != nil {
		return exe
	}
	var b []byte
	b = append(b, exe...)
	b = binary.AppendVarint(b, info.Size())
	b = binary.AppendVarint(b, info.ModTime().UnixNano())
	return string(b)
}

// streamHasher hashes files from disk through one small buffer, without
// reading them whole, or takes their digest from the memo when their
// identity proves them unchanged (digestmemo.go).
type streamHasher struct {
	dir  string
	buf  []byte
	memo *digestMemo // nil: always hash
}

func (s *streamHasher) hash(name string) (sum []byte, present, ok bool) {
	path := filepath.Join(s.dir, name)
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	info, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, true
	}
	if err != nil || !info.Mode().IsRegular() || info.Size() > maxDataFile {
		return nil, false, false
	}
	if s.memo != nil {
		if sum, ok := s.memo.lookup(path, info); ok {
			return sum, true, true
		}
	}
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, false, false
	}
	defer f.Close()
	// The identity remembered is the one of the file as opened and read.
	if info, err = f.Stat(); err != nil || !info.Mode().IsRegular() {
		return nil, false, false
	}
	if s.buf == nil {
		s.buf = make([]byte, 128<<10)
	}
	hashedAt := time.Now()
	h := sha256.New()
	if _, err := io.CopyBuffer(h, io.LimitReader(f, maxDataFile+1), s.buf); err != nil {
		return nil, false, false
	}
	sum = h.Sum(nil)
	if s.memo != nil {
		s.memo.remember(path, info, sum, hashedAt)
	}
	return sum, true, true
}

// memos holds the digest memo of each cache directory, read once per
// process.
var memos sync.Map // dir → *digestMemo

func memoOf(dir string) *digestMemo {
	if m, ok := memos.Load(dir); ok {
		return m.(*digestMemo)
	}
	m, _ := memos.LoadOrStore(dir, loadDigestMemo(dir))
	return m.(*digestMemo)
}

// newHasher returns a hasher for the knowledge base in dir using the
// digest memo of the cache directory cdir.
func newHasher(dir, cdir string) *streamHasher {
	return &streamHasher{dir: dir, memo: memoOf(cdir)}
}

func cachePath(dir string, key [32]byte) string {
	return filepath.Join(dir, hex.EncodeToString(key[:])+".bin")
}

// loadEntry returns the payload stored under key, or nil on a miss (no
// entry, or a damaged one).
func loadEntry(dir string, key [32]byte) []byte {
	data, err := mapEntry(cachePath(dir, key))
	if err != nil {
		return nil
	}
	head := len(cacheMagic) + 1 + 32 + 4
	if len(data) < head || !bytes.Equal(data[:len(cacheMagic)], cacheMagic) || data[len(cacheMagic)] != cacheFormat {
		return nil
	}
	rest := data[len(cacheMagic)+1:]
	if !bytes.Equal(rest[:32], key[:]) {
		return nil
	}
	payload := rest[36:]
	if crc32.Checksum(payload, castagnoli()) != binary.LittleEndian.Uint32(rest[32:36]) {
		return nil
	}
	return payload
}

// loadCached returns the Base stored under key, or nil on a miss.
func loadCached(dir string, key [32]byte) (*Base, []hierCategory) {
	payload := loadEntry(dir, key)
	if payload == nil {
		return nil, nil
	}
	b, hier, ok := decodeBase(payload)
	if !ok {
		return nil, nil
	}
	return b, hier
}

// storeCached writes an entry atomically (a temporary file renamed into
// place) and trims old entries. Failures are ignored: the cache is an
// optimisation.
func storeEntry(dir string, key [32]byte, payload []byte) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return
	}
	f, err := os.CreateTemp(dir, "tmp-*")
	if err != nil {
		return
	}
	var head []byte
	head = append(head, cacheMagic...)
	head = append(head, cacheFormat)
	head = append(head, key[:]...)
	head = binary.LittleEndian.AppendUint32(head, crc32.Checksum(payload, castagnoli()))
	_, err1 := f.Write(head)
	_, err2 := f.Write(payload)
	err3 := f.Close()
	if err1 != nil || err2 != nil || err3 != nil {
		os.Remove(f.Name())
		return
	}
	if err := os.Rename(f.Name(), cachePath(dir, key)); err != nil {
		os.Remove(f.Name())
		return
	}
	trimCache(dir)
}

func trimCache(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type entry struct {
		name string
		mod  int64
	}
	var bins []entry
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".bin") {
			continue
		}
		if info, err := e.Info(); err == nil {
			bins = append(bins, entry{e.Name(), info.ModTime().UnixNano()})
		}
	}
	if len(bins) <= cacheKeep {
		return
	}
	slices.SortFunc(bins, func(a, b entry) int { return cmp.Compare(b.mod, a.mod) })
	for _, e := range bins[cacheKeep:] {
		os.Remove(filepath.Join(dir, e.name))
	}
}
