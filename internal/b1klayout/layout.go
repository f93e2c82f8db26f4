// Package b1klayout recognises BEHAVIOR-1K's folders as they lie on a
// user's disk, so that every command and test finds the knowledge base
// and the definitions the same way.
//
// Three layouts hold the knowledge base's data:
//
//   - the data folder itself, `generated_data/` (it holds
//     output_hierarchy.json);
//   - a bddl package folder, `BEHAVIOR-1K/bddl3/bddl/` in a checkout or
//     `site-packages/bddl/` after installing the package: it holds
//     `generated_data/`, usually `activity_definitions/`, and
//     `knowledge_base/`, which there is Python code (an ORM over the
//     data), never data;
//   - a checkout's root, which holds the package at `bddl3/bddl/` (the
//     monorepo), `bddl/bddl/` (older checkouts) or `bddl/` (a
//     site-packages folder).
//
// An older layout, a `knowledge_base/` folder holding the data itself, is
// still read as data: what decides is output_hierarchy.json, never the
// folder's name.
package b1klayout

import (
	"os"
	"path/filepath"
	"strings"
)

// HierarchyFile is the file whose presence makes a folder a knowledge
// base's data folder.
const HierarchyFile = "output_hierarchy.json"

// Folder names of the bddl package.
const (
	DataDir       = "generated_data"
	ActivitiesDir = "activity_definitions"
	CodeDir       = "knowledge_base"
)

// packageDirs are where a checkout's root (or a site-packages folder)
// keeps the bddl package, most specific first.
var packageDirs = []string{"bddl3/bddl", "bddl/bddl", "bddl"}

// Kind says what a folder is.
type Kind int

const (
	Unknown    Kind = iota // none of the below
	Data                   // a knowledge base's data (generated_data/)
	Package                // a bddl package folder
	Checkout               // a checkout's root, or a folder holding the package
	PythonCode             // the package's knowledge_base/ of Python modules
)

func (k Kind) String() string {
	switch k {
	case Data:
		return "knowledge-base data folder"
	case Package:
		return "bddl package folder"
	case Checkout:
		return "BEHAVIOR-1K checkout"
	case PythonCode:
		return "bddl package's Python code"
	}
	return "unrecognised folder"
}

// Layout is what Recognise made of a folder.
type Layout struct {
	Kind Kind
	Path string // the folder, absolute
	// Data is the knowledge base's data folder: Path itself, or the one in
	// the package or checkout; "" when there is none (a Python
	// knowledge_base/ with no generated_data/ beside it).
	Data string
	// Package is the bddl package folder the data belongs to, "" when the
	// data folder stands alone.
	Package string
	// Activities is the package's activity_definitions/, "" when it has
	// none.
	Activities string
}

// IsData reports whether dir is a knowledge base's data folder.
func IsData(dir string) bool { return isFile(filepath.Join(dir, HierarchyFile)) }

// Recognise says what dir is. A path that is not a folder is Unknown.
func Recognise(dir string) Layout {
	abs, err := filepath.Abs(dir)
	if err != nil || !isDir(abs) {
		return Layout{Path: dir}
	}
	l := Layout{Path: abs}
	switch {
	case IsData(abs):
		l.Kind, l.Data = Data, abs
		if parent := filepath.Dir(abs); filepath.Base(abs) == DataDir || isDir(filepath.Join(parent, ActivitiesDir)) {
			l.Package = parent
		}
	case IsData(filepath.Join(abs, DataDir)):
		l.Kind, l.Package, l.Data = Package, abs, filepath.Join(abs, DataDir)
	case isPythonCode(abs):
		l.Kind = PythonCode
		if d := filepath.Join(filepath.Dir(abs), DataDir); IsData(d) {
			l.Data, l.Package = d, filepath.Dir(abs)
		}
	case isDir(filepath.Join(abs, ActivitiesDir)) && IsData(filepath.Join(abs, CodeDir)):
		// The older layout: knowledge_base/ held the data.
		l.Kind, l.Package, l.Data = Package, abs, filepath.Join(abs, CodeDir)
	default:
		for _, p := range packageDirs {
			pkg := filepath.Join(abs, filepath.FromSlash(p))
			if IsData(filepath.Join(pkg, DataDir)) {
				l.Kind, l.Package, l.Data = Checkout, pkg, filepath.Join(pkg, DataDir)
				break
			}
		}
	}
	if l.Package != "" && isDir(filepath.Join(l.Package, ActivitiesDir)) {
		l.Activities = filepath.Join(l.Package, ActivitiesDir)
	}
	return l
}

// Around finds the knowledge base a path lies in: the first folder, from
// the path up, that is a bddl package (or the data or code folder of
// one), or a BEHAVIOR-1K monorepo checkout's root (bddl3/bddl, so that
// joylo/sampled_task/<task> finds the package of its own checkout). A
// folder that merely holds a bddl/ folder is not taken on the way up: a
// home directory with a clone in it does not make every file below it
// BEHAVIOR-1K data.
func Around(path string) (Layout, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Layout{}, false
	}
	if !isDir(abs) {
		abs = filepath.Dir(abs)
	}
	for dir := abs; ; {
		l := Recognise(dir)
		switch l.Kind {
		case Data, Package, PythonCode:
			if l.Data != "" && (l.Kind != Data || l.Package != "") {
				return l, true
			}
		case Checkout:
			if strings.HasPrefix(filepath.ToSlash(l.Package), filepath.ToSlash(dir)+"/bddl3/") {
				return l, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return Layout{}, false
		}
		dir = parent
	}
}

// isPythonCode reports whether dir is a folder of Python modules (the
// bddl package's knowledge_base/).
func isPythonCode(dir string) bool {
	if isFile(filepath.Join(dir, "__init__.py")) {
		return true
	}
	m, _ := filepath.Glob(filepath.Join(dir, "*.py"))
	return len(m) > 0
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}
