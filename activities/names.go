package activities

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/suggest"
)

// Finding an activity by name, as the commands that take a definition or
// a name do, and the copies of definitions written beside episodes.

// IsPathLike reports whether arg is meant as a path rather than a name:
// it exists, is "-", or has a separator, a glob character or .bddl.
func IsPathLike(arg string) bool {
	if arg == "-" || strings.ContainsAny(arg, "/\\*?[{") || strings.HasSuffix(arg, ".bddl") {
		return true
	}
	_, err := os.Lstat(arg)
	return err == nil
}

// ResolveName finds an activity by name ("cook_bacon", "cook_bacon-1",
// "cook_bacon/problem1") in the library directory (BEHAVIOR-1K layout),
// then in the embedded examples: a file of the library (path), else an
// example. Not found is an error with the closest names and, without a
// library, how to give one.
func ResolveName(name, library string) (path string, example *Activity, err error) {
	base, n := name, 0
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := fmt.Sscanf(name[i+1:], "%d", &n); err == nil && fmt.Sprint(n) == name[i+1:] {
			base = name[:i]
		} else {
			n = 0
		}
	}
	if library != "" {
		p := filepath.Join(library, base, fmt.Sprintf("problem%d.bddl", n))
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p, nil, nil
		}
	}
	if act, ok := Examples().Find(name); ok && act.Problem != nil {
		return "", act, nil
	}
	where := "the embedded examples"
	if library != "" {
		where = library + " or " + where
	}
	msg := fmt.Sprintf("%s: not a file or directory, nor an activity in %s%s", name, where, suggest.DidYouMean(base, Names(library)))
	if library == "" {
		msg += " (give --activities DIR to look names up in a BEHAVIOR-1K activity_definitions tree)"
	}
	return "", nil, fmt.Errorf("%s", msg)
}

// Names lists the activities of the library directory (its
// subdirectories) and the embedded examples, for did-you-mean.
func Names(library string) []string {
	var names []string
	if library != "" {
		if entries, err := os.ReadDir(library); err == nil {
			for _, e := range entries {
				if e.IsDir() {
					names = append(names, e.Name())
				}
			}
		}
	}
	for _, a := range Examples().Activities {
		names = append(names, a.Name)
	}
	sort.Strings(names)
	return names
}

// PathOf is ref when it names an existing file (a definition given by
// path), else "" (a name).
func PathOf(ref string) string {
	if info, err := os.Stat(ref); err == nil && info.Mode().IsRegular() {
		return ref
	}
	return ""
}

// copiedFrom is the first line of a definition copy bddl writes beside
// the episodes it makes: where the definition was read, so that a later
// command finds the knowledge base of its BEHAVIOR-1K tree (CopySources).
const copiedFrom = "; bddl: copied from "

// DefinitionCopy is the text of the copy of the definition read from
// path: src, after a line naming path (absolute) when it is a file.
func DefinitionCopy(path string, src []byte) []byte {
	abs, err := filepath.Abs(path)
	if path == "" || path == "-" || err != nil || strings.ContainsAny(abs, "\n\r") {
		return src
	}
	if info, err := os.Stat(abs); err != nil || !info.Mode().IsRegular() {
		return src
	}
	return append([]byte(copiedFrom+abs+"\n"), src...)
}

// CopySources returns the paths the definition copies beside episodes
// name (DefinitionCopy), for each directory of the first episodes given:
// hints from which the knowledge base is inferred, so that checking
// sampled BEHAVIOR-1K episodes uses the tree's knowledge base.
func CopySources(episodePaths []string) []string {
	const maxDirs = 64
	seen := map[string]bool{}
	var out []string
	for _, p := range episodePaths {
		dir := filepath.Dir(p)
		if seen[dir] {
			continue
		}
		seen[dir] = true
		if len(seen) > maxDirs {
			break
		}
		defs, _ := filepath.Glob(filepath.Join(dir, "*.bddl"))
		for _, d := range defs {
			f, err := fsutil.OpenRegular(d)
			if err != nil {
				continue
			}
			buf := make([]byte, 4096)
			n, _ := io.ReadFull(f, buf)
			f.Close()
			line, _, _ := strings.Cut(string(buf[:n]), "\n")
			if src, ok := strings.CutPrefix(line, copiedFrom); ok {
				out = append(out, src)
			}
		}
	}
	return out
}
