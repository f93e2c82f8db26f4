package batch

import (
	"cmp"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
)

// isProblemFile reports whether a base name is problem<N>.bddl.
func isProblemFile(name string) bool {
	_, _, ok := activities.ActivityPath("x/" + name)
	return ok
}

// LoadLibrary loads the activity definitions under dir in the
// BEHAVIOR-1K layout, <activity>/problem<N>.bddl at any depth; dir may
// itself be one activity directory. Symbolic links are followed (loops
// noted), special files skipped with a note, each file read up to
// fsutil.DefinitionLimit. A definition's syntax errors stay in its
// Diagnostics; a tree without definitions is an error.
func LoadLibrary(dir string, note func(string)) (*activities.Library, error) {
	return LoadLibraryWith(dir, note, bddl.Options{})
}

// LoadLibraryWith is LoadLibrary reading each definition under opts.
func LoadLibraryWith(dir string, note func(string), opts bddl.Options) (*activities.Library, error) {
	var paths []string
	err := fsutil.Walk(dir, fsutil.WalkOptions{Match: isProblemFile, Note: note}, func(p string) error {
		paths = append(paths, p)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("%s: no activity definitions (<activity>/problem<N>.bddl) in the directory", dir)
	}
	acts := make([]*activities.Activity, len(paths))
	errs := make([]error, len(paths))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				acts[i], errs[i] = loadActivity(paths[i], opts)
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	slices.SortFunc(acts, func(a, b *activities.Activity) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.Instance, b.Instance))
	})
	return &activities.Library{Activities: acts}, nil
}

func loadActivity(path string, opts bddl.Options) (*activities.Activity, error) {
	src, err := fsutil.ReadFile(path, fsutil.DefinitionLimit)
	if err != nil {
		return nil, err
	}
	f, diags := opts.ParseFile(path, src)
	// The activity is named by the directory the path names, as given,
	// even when a link leads elsewhere.
	abs, _ := filepath.Abs(path)
	name, n, _ := activities.ActivityPath(abs)
	return &activities.Activity{Name: name, Instance: n, Path: path, Source: src, Problem: f.Problem, Diagnostics: diags}, nil
}
