package fsutil

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WalkOptions configure Walk.
type WalkOptions struct {
	// Match selects the regular files to report by base name; nil
	// reports every regular file.
	Match func(name string) bool
	// MatchPath, when set, selects by the whole path (root joined with
	// the names met) instead of Match.
	MatchPath func(path string) bool
	// Note receives a line for each entry skipped: a FIFO, device or
	// socket with a matching name, a broken link, a directory loop.
	// nil drops them.
	Note func(msg string)
}

// Walk calls fn for each matching regular file under root, in lexical
// order, following symbolic links to files and directories. A link to a
// directory that is already being walked (a loop) is noted and not
// followed. Paths are root joined with the names met, so they keep the
// spelling of root. When root is a file (or links to one), fn is called
// for it if it is regular, whatever its name.
func Walk(root string, opts WalkOptions, fn func(path string) error) error {
	info, err := os.Stat(root)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		if !info.Mode().IsRegular() {
			return NotRegular(root, info.Mode())
		}
		return fn(root)
	}
	d, err := openDir(nil, "", root)
	if err != nil {
		return err
	}
	defer d.close()
	w := walker{opts: opts, fn: fn, seen: map[fileID]struct{}{}}
	w.first(idOf(info))
	return w.dir(d, JoinPrefix(root), false, []ancestor{{path: root, info: info}})
}

// dirEntry is a name listed in a directory and its type (and inode
// number, where the listing gives it).
type dirEntry struct {
	name string
	typ  fs.FileMode
	ino  uint64
}

// fileID is a file's identity: its device and inode.
type fileID struct{ dev, ino uint64 }

// A walk visits each file and directory once by identity, whatever the
// links: thirty directories each linking twice to the next would
// otherwise make 2^30 paths to one file. seen holds the identities met.
type walker struct {
	opts WalkOptions
	fn   func(string) error
	seen map[fileID]struct{}
}

// first records id and reports whether it was met for the first time
// (true when the identity is unknown).
func (w *walker) first(id fileID, ok bool) bool {
	if !ok {
		return true
	}
	if _, dup := w.seen[id]; dup {
		return false
	}
	w.seen[id] = struct{}{}
	return true
}

// ancestor is a directory on the way down, for loop detection. Its
// identity is taken only when needed: directories have no hard links, so
// a plain directory met before any link is new, and a walk without links
// stats no directory.
type ancestor struct {
	path string
	info os.FileInfo // nil until needed
}

func (w *walker) note(format string, args ...any) {
	if w.opts.Note != nil {
		w.opts.Note(fmt.Sprintf(format, args...))
	}
}

// JoinPrefix is what filepath.Join(dir, name) puts before a name read
// from dir ("a/b/" for "a/b", "" for "."), so that a walk joins names
// without cleaning the same directory path again for each of them.
func JoinPrefix(dir string) string {
	return strings.TrimSuffix(filepath.Join(dir, "x"), "x")
}

// dir walks the open directory d; ancestors are the directories on the
// way to it, itself included. prefix is JoinPrefix(d.path). linked says a link was followed on the way: below it, a plain
// directory may be one already being walked (a link to a/b, then its
// ../b), so every directory is checked.
func (w *walker) dir(d *dir, prefix string, linked bool, ancestors []ancestor) error {
	entries, err := d.entries(len(ancestors))
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := prefix + e.name
		mode := e.typ
		var info os.FileInfo
		isLink := mode&fs.ModeSymlink != 0
		if isLink || (linked && mode.IsDir()) {
			if info, err = os.Stat(p); err != nil {
				w.note("skipping %s: %v", p, err)
				continue
			}
			mode = info.Mode().Type()
		}
		var id fileID
		var known bool
		if info != nil {
			id, known = idOf(info)
		} else {
			id, known = d.entryID(e)
		}
		switch {
		case mode.IsDir():
			if info != nil && loopsTo(ancestors, info) {
				w.note("skipping %s: a link back to a directory already being walked", p)
				continue
			}
			if !w.first(id, known) {
				w.note("skipping %s: a directory already walked by another path", p)
				continue
			}
			sub, err := openDir(d, e.name, p)
			if err != nil {
				return err
			}
			err = w.dir(sub, p+string(filepath.Separator), linked || isLink, append(ancestors, ancestor{path: p, info: info}))
			sub.close()
			if err != nil {
				return err
			}
		case mode.IsRegular():
			if w.match(p, e.name) && w.first(id, known) {
				if err := w.fn(p); err != nil {
					return err
				}
			}
		default:
			if w.match(p, e.name) {
				w.note("skipping %s: %s", p, kind(mode))
			}
		}
	}
	return nil
}

// loopsTo reports whether the directory info (reached through a link) is
// one of the ancestors, taking the identity of those not yet taken. An
// ancestor that cannot be stated any more is passed over: a loop through
// it is caught one level deeper, where the link itself is an ancestor.
func loopsTo(ancestors []ancestor, info os.FileInfo) bool {
	for i := range ancestors {
		a := &ancestors[i]
		if a.info == nil {
			st, err := os.Stat(a.path)
			if err != nil {
				continue
			}
			a.info = st
		}
		if os.SameFile(a.info, info) {
			return true
		}
	}
	return false
}

// Within reports whether path, with symbolic links resolved, lies inside
// the directory root (also resolved). A path that does not exist is not
// within anything.
func Within(root, path string) bool {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		return false
	}
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		return false
	}
	r, _ = filepath.Abs(r)
	p, _ = filepath.Abs(p)
	rel, err := filepath.Rel(r, p)
	return err == nil && rel != ".." && !filepath.IsAbs(rel) && (len(rel) < 3 || rel[:3] != ".."+string(filepath.Separator))
}

func (w *walker) match(path, name string) bool {
	switch {
	case w.opts.MatchPath != nil:
		return w.opts.MatchPath(path)
	case w.opts.Match != nil:
		return w.opts.Match(name)
	}
	return true
}

// maxOpenDirs bounds the descriptors a walk holds (one per level of the
// directory it is in, where directories are read by descriptor: Linux): deeper directories are opened by path.
const maxOpenDirs = 64
