package activities

import (
	"cmp"
	"embed"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

// Activity is one activity definition of a Library: a problem<N>.bddl of
// an activity directory.
type Activity struct {
	// Name is the activity, the directory's name, e.g. "baking_chocolate_chip_cookies".
	Name string
	// Instance is N of problem<N>.bddl: activities may have several definitions.
	Instance int
	// Path is the file's path (for the examples, inside the embedded tree).
	Path   string
	Source []byte
	// Problem is the parsed definition, nil when the file holds none.
	Problem *bddl.Problem
	// Diagnostics are the parser's.
	Diagnostics bddl.Diagnostics
}

// ID is "<name>-<instance>", the problem name the definition should have.
func (a *Activity) ID() string { return fmt.Sprintf("%s-%d", a.Name, a.Instance) }

// Validate validates the definition (see ValidateSource: syntax errors
// are reported alone).
func (a *Activity) Validate(base *kb.Base, opts ...Option) Report {
	return validateParsed(a.Problem, a.Diagnostics, base, opts, recoverable(a.Path, a.Source, a.Problem, a.Diagnostics))
}

// Library is a set of activity definitions, sorted by name and instance.
type Library struct {
	Activities []*Activity
}

//go:embed examples
var examplesFS embed.FS

var examples = sync.OnceValue(func() *Library {
	l, err := LoadFS(examplesFS, "examples")
	if err != nil {
		// The embedded tree is ours and read-only; tests load it.
		panic("activities: embedded examples: " + err.Error())
	}
	return l
})

// Examples returns the embedded example activities, parsed once. The
// library is shared: do not modify it.
func Examples() *Library { return examples() }

// LoadDir loads every definition under dir in the BEHAVIOR-1K layout,
// <activity>/problem<N>.bddl, at any depth; other files (domain files,
// notes) are skipped. Files are parsed in parallel; syntax problems are
// kept in each Activity's Diagnostics, so only an unreadable tree is an
// error.
func LoadDir(dir string) (*Library, error) {
	return LoadFS(os.DirFS(dir), ".", dir)
}

// LoadDirWith is LoadDir reading each definition under a reading policy:
// consuming tools read as the reference does (bddl.Reference), so an
// official activity with a defect the reference passes over is loaded,
// its warnings in its Diagnostics.
func LoadDirWith(dir string, opts bddl.Options) (*Library, error) {
	return loadFS(os.DirFS(dir), ".", opts, dir)
}

// LoadFS is LoadDir on a file system, from root. Paths are reported
// under prefix (root when no prefix is given).
func LoadFS(fsys fs.FS, root string, prefix ...string) (*Library, error) {
	return loadFS(fsys, root, bddl.Options{}, prefix...)
}

func loadFS(fsys fs.FS, root string, opts bddl.Options, prefix ...string) (*Library, error) {
	var paths []string
	err := fs.WalkDir(fsys, root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			if _, _, ok := ActivityPath(path); ok {
				paths = append(paths, path)
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	acts := make([]*Activity, len(paths))
	errs := make([]error, len(paths))
	parallel(len(paths), func(i int) {
		src, err := fs.ReadFile(fsys, paths[i])
		if err != nil {
			errs[i] = err
			return
		}
		name := paths[i]
		if len(prefix) > 0 {
			rel := paths[i]
			if root != "." {
				rel = strings.TrimPrefix(strings.TrimPrefix(rel, root), "/")
			}
			name = filepath.Join(prefix[0], filepath.FromSlash(rel))
		}
		f, diags := opts.ParseFile(name, src)
		act, n, _ := ActivityPath(paths[i])
		acts[i] = &Activity{Name: act, Instance: n, Path: name, Source: src, Problem: f.Problem, Diagnostics: diags}
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(acts, func(a, b *Activity) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.Instance, b.Instance))
	})
	return &Library{Activities: acts}, nil
}

// parallel runs fn(0..n-1) on all cores.
func parallel(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// Find returns a definition by activity name (its lowest-numbered
// problem), by "<name>-<N>", or by "<name>/problem<N>"; names compare
// case-insensitively.
func (l *Library) Find(name string) (*Activity, bool) {
	name = bddl.Fold(strings.TrimSuffix(name, ".bddl"))
	for _, a := range l.Activities {
		switch name {
		case bddl.Fold(a.Name), bddl.Fold(a.ID()), bddl.Fold(fmt.Sprintf("%s/problem%d", a.Name, a.Instance)):
			return a, true
		}
	}
	return nil, false
}

// Names lists the activities' IDs (<name>-<N>) in order.
func (l *Library) Names() []string {
	out := make([]string, len(l.Activities))
	for i, a := range l.Activities {
		out[i] = a.ID()
	}
	return out
}

// Validate validates every definition on all cores; the reports are in
// the library's order.
func (l *Library) Validate(base *kb.Base, opts ...Option) []Report {
	out := make([]Report, len(l.Activities))
	parallel(len(l.Activities), func(i int) { out[i] = l.Activities[i].Validate(base, opts...) })
	return out
}
