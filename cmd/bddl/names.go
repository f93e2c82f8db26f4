package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/internal/fsutil"
)

// isPathLike reports whether arg is meant as a path rather than a name:
// it exists, is "-", or has a separator, a glob character or .bddl.
func isPathLike(arg string) bool {
	if arg == "-" || strings.ContainsAny(arg, "/\\*?[{") || strings.HasSuffix(arg, ".bddl") {
		return true
	}
	_, err := os.Lstat(arg)
	return err == nil
}

// resolvedName is a definition found by name: a file of the library, or
// an embedded example.
type resolvedName struct {
	path    string               // a file in the library
	example *activities.Activity // else an embedded example
}

// resolveName finds an activity by name ("cook_bacon", "cook_bacon-1",
// "cook_bacon/problem1") in the library directory (BEHAVIOR-1K layout),
// then in the embedded examples. Not found is an error with the closest
// names and, without a library, how to give one.
func resolveName(name, library string) (resolvedName, error) {
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
			return resolvedName{path: p}, nil
		}
	}
	if act, ok := activities.Examples().Find(name); ok && act.Problem != nil {
		return resolvedName{example: act}, nil
	}
	where := "the embedded examples"
	if library != "" {
		where = library + " or " + where
	}
	msg := fmt.Sprintf("%s: not a file or directory, nor an activity in %s%s", name, where, didYouMean(base, activityNames(library)))
	if library == "" {
		msg += " (give --activities DIR to look names up in a BEHAVIOR-1K activity_definitions tree)"
	}
	return resolvedName{}, fmt.Errorf("%s", msg)
}

// activityNames lists the activities of the library directory (its
// subdirectories) and the embedded examples, for did-you-mean.
func activityNames(library string) []string {
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
	for _, a := range activities.Examples().Activities {
		names = append(names, a.Name)
	}
	sort.Strings(names)
	return names
}

// pathOf is ref when it names an existing file (a definition given by
// path), else "" (a name).
func pathOf(ref string) string {
	if info, err := os.Stat(ref); err == nil && info.Mode().IsRegular() {
		return ref
	}
	return ""
}

// copiedFrom is the first line of a definition copy bddl writes beside
// the episodes it makes: where the definition was read, so that a later
// command finds the knowledge base of its BEHAVIOR-1K tree (copySources).
const copiedFrom = "; bddl: copied from "

// definitionCopy is the text of the copy of the definition read from
// path: src, after a line naming path (absolute) when it is a file.
func definitionCopy(path string, src []byte) []byte {
	abs, err := filepath.Abs(path)
	if path == "" || path == "-" || err != nil || strings.ContainsAny(abs, "\n\r") {
		return src
	}
	if info, err := os.Stat(abs); err != nil || !info.Mode().IsRegular() {
		return src
	}
	return append([]byte(copiedFrom+abs+"\n"), src...)
}

// copySources returns the paths the definition copies beside episodes
// name (definitionCopy), for each directory of the first episodes given:
// hints from which the knowledge base is inferred, so that checking
// sampled BEHAVIOR-1K episodes uses the tree's knowledge base.
func copySources(episodePaths []string) []string {
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
