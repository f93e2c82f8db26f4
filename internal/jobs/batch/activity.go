package batch

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// Activity is a resolved activity definition.
type Activity struct {
	// Name is the activity's name for reports.
	Name string
	// Key identifies the definition for the program cache.
	Key     string
	Problem *bddl.Problem
	// Warnings are what a Reference-mode read of the definition passed
	// over (bddl.Options); each result checked against it carries them.
	Warnings bddl.Diagnostics
}

// Resolver finds the activity each episode is checked against and
// compiles it, once per definition and wildcard expansion; it is safe
// for concurrent use.
//
// Lookup order for a reference (the --activity value, else the
// episode header's "activity"): the fixed definition SetActivity read;
// else a path, relative to the episode's directory, that lies inside the
// episode's tree or a library (never any other file); else the copy of
// the definition bddl wrote beside the episode (DefinitionFile); else a
// name in the libraries added, then the embedded examples.
type Resolver struct {
	base *kb.Base
	opts predicates.Options

	libs  []*activities.Library
	roots []string // library directories: header paths may point inside

	fixed     *Activity           // --activity FILE
	fixedLib  *activities.Library // --activity DIR: an activity directory or a tree
	fixedRef  string
	fixedTree bool

	parse  bddl.Options           // how definitions are read: SetParse
	warn   func(bddl.Diagnostics) // prints a definition's warnings
	warned map[string]bool        // definitions whose warnings were printed

	// Guard, when set, refuses a definition before it is used: the
	// commands refuse definitions a knowledge base chosen by default
	// cannot serve.
	Guard func(path string, p *bddl.Problem) error

	mu       sync.Mutex
	found    map[string]*Activity
	programs *predicates.ProgramCache
}

// SetParse sets how definitions are read (consuming commands read as the
// reference does, bddl.Reference) and where a definition's warnings go,
// printed once per definition when it is first used. Call it before
// adding libraries or fixing the activity.
func (r *Resolver) SetParse(opts bddl.Options, warn func(bddl.Diagnostics)) {
	r.parse, r.warn = opts, warn
}

// warnOnce prints the warnings of a definition the first time it is used.
func (r *Resolver) warnOnce(key string, diags bddl.Diagnostics) {
	if r.warn == nil || len(diags) == 0 {
		return
	}
	r.mu.Lock()
	if r.warned == nil {
		r.warned = map[string]bool{}
	}
	first := !r.warned[key]
	r.warned[key] = true
	r.mu.Unlock()
	if first {
		r.warn(diags)
	}
}

// NewResolver returns a resolver compiling against base with opts.
func NewResolver(base *kb.Base, opts predicates.Options) *Resolver {
	return &Resolver{base: base, opts: opts, found: map[string]*Activity{}, programs: predicates.NewProgramCache(base, opts)}
}

// Base is the knowledge base programs are compiled against.
func (r *Resolver) Base() *kb.Base { return r.base }

// AddLibrary loads an activity_definitions tree (--activities) to find
// activities by name in.
func (r *Resolver) AddLibrary(dir string, note func(string)) error {
	lib, err := LoadLibraryWith(dir, note, r.parse)
	if err != nil {
		return err
	}
	r.libs = append(r.libs, lib)
	r.roots = append(r.roots, dir)
	return nil
}

// SetActivity fixes the activity every episode is checked against
// (--activity): a problem file (read once, so a pipe such as <(cmd)
// works), an activity directory (<activity>/problem<N>.bddl: the
// instance the episode names, else the lowest), a tree of activities
// (searched for the activity the episode's header names), or a name in
// the libraries or the examples.
func (r *Resolver) SetActivity(ctx context.Context, ref string, stdin io.Reader, note func(string)) error {
	r.fixedRef = ref
	info, err := os.Stat(ref)
	switch {
	case ref == Stdin || err == nil && !info.IsDir():
		src, err := ReadArg(ctx, ref, stdin, fsutil.DefinitionLimit)
		if err != nil {
			return err
		}
		act, err := r.parseActivity(ref, src)
		if err != nil {
			return err
		}
		r.fixed = act
		return nil
	case err == nil:
		lib, err := LoadLibraryWith(ref, note, r.parse)
		if err != nil {
			return err
		}
		r.fixedLib = lib
		r.roots = append(r.roots, ref)
		names := map[string]bool{}
		for _, a := range lib.Activities {
			names[a.Name] = true
		}
		r.fixedTree = len(names) > 1
		if !r.fixedTree {
			_, err := r.fromLibrary(lib.Activities[0])
			return err
		}
		return nil
	}
	act, err := r.byName(ref)
	if err != nil {
		return err
	}
	r.fixed = act
	return nil
}

// Fixed reports whether --activity fixed the activity.
func (r *Resolver) Fixed() bool { return r.fixed != nil || r.fixedLib != nil }

func (r *Resolver) parseActivity(path string, src []byte) (*Activity, error) {
	prob, diags := r.parse.ParseProblem(path, src)
	if diags.HasErrors() {
		return nil, diags
	}
	if r.Guard != nil {
		if err := r.Guard(path, prob); err != nil {
			return nil, err
		}
	}
	abs, _ := filepath.Abs(path)
	r.warnOnce("file:"+abs, diags)
	name := activities.CanonicalName(abs, prob)
	return &Activity{Name: name, Key: "file:" + abs, Problem: prob, Warnings: diags}, nil
}

func (r *Resolver) fromLibrary(a *activities.Activity) (*Activity, error) {
	if a.Problem == nil || a.Diagnostics.HasErrors() {
		if len(a.Diagnostics) == 0 {
			return nil, fmt.Errorf("%s: no problem definition in the file", a.Path)
		}
		return nil, a.Diagnostics
	}
	if r.Guard != nil {
		if err := r.Guard(a.Path, a.Problem); err != nil {
			return nil, err
		}
	}
	r.warnOnce("lib:"+a.Path, a.Diagnostics)
	return &Activity{Name: a.Name, Key: "lib:" + a.Path, Problem: a.Problem, Warnings: a.Diagnostics}, nil
}

// Resolve finds the activity for an episode whose header names ref.
func (r *Resolver) Resolve(ref string, ep Episode) (*Activity, error) {
	if r.fixed != nil {
		return r.fixed, nil
	}
	root := ep.Root
	if ep.Path == Stdin {
		root = ""
	}
	cacheKey := ref + "\x00" + ep.Root + "\x00" + filepath.Dir(ep.Path)
	r.mu.Lock()
	a, ok := r.found[cacheKey]
	r.mu.Unlock()
	if ok {
		return a, nil
	}
	a, err := r.lookup(ref, ep, root)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	r.found[cacheKey] = a
	r.mu.Unlock()
	return a, nil
}

func (r *Resolver) lookup(ref string, ep Episode, root string) (*Activity, error) {
	if r.fixedLib != nil {
		return r.inFixed(ref)
	}
	if ref == "" {
		return nil, fmt.Errorf("the episode's header names no activity: give --activity")
	}
	return r.byPath(ref, ep, root)
}

// byPath tries ref as a path; a path outside the allowed directories is
// not read, and the name it ends in is looked up instead.
func (r *Resolver) byPath(ref string, ep Episode, root string) (*Activity, error) {
	var cand string
	switch {
	case filepath.IsAbs(ref):
		cand = ref
	case ep.Path != Stdin && ep.Path != "":
		cand = filepath.Join(filepath.Dir(ep.Path), ref)
	}
	if cand != "" {
		if info, err := os.Stat(cand); err == nil {
			allowed := root != "" && fsutil.Within(root, cand)
			for _, lr := range r.roots {
				allowed = allowed || fsutil.Within(lr, cand)
			}
			switch {
			case !allowed:
				if a, err := r.byName(ref); err == nil {
					return a, nil
				}
				return nil, fmt.Errorf("activity %q: the path is outside the episode's directory and the activity libraries, so it is not read; give --activity or --activities", ref)
			case info.IsDir():
				lib, err := LoadLibraryWith(cand, nil, r.parse)
				if err != nil {
					return nil, err
				}
				return r.fromLibrary(lib.Activities[0])
			default:
				src, err := fsutil.ReadFile(cand, fsutil.DefinitionLimit)
				if err != nil {
					return nil, err
				}
				return r.parseActivity(cand, src)
			}
		}
	}
	if a, err := r.beside(ref, ep); a != nil || err != nil {
		return a, err
	}
	return r.byName(ref)
}

// DefinitionFile is the name of the copy of a definition that bddl
// writes beside the episodes it makes (sample, episode convert,
// from-omnigibson), so that they can be checked without naming it.
func DefinitionFile(name string) string { return name + ".bddl" }

// beside finds the definition written beside the episode for the name
// ref: <episode dir>/<ref>.bddl, else <episode dir>/problem0.bddl whose
// canonical name is ref; nil, nil when there is none. A <ref>.bddl that
// cannot be used (the embedded knowledge base refusing its synsets) is
// its error, not "not found".
func (r *Resolver) beside(ref string, ep Episode) (*Activity, error) {
	if ep.Path == Stdin || ep.Path == "" || strings.ContainsAny(ref, "/\\") {
		return nil, nil
	}
	dir := filepath.Dir(ep.Path)
	ref = strings.TrimSuffix(ref, ".bddl")
	name := activities.StripInstance(ref)
	for i, cand := range []string{filepath.Join(dir, DefinitionFile(ref)), filepath.Join(dir, DefinitionFile(name)), filepath.Join(dir, "problem0.bddl")} {
		info, err := os.Stat(cand)
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		src, err := fsutil.ReadFile(cand, fsutil.DefinitionLimit)
		if err != nil {
			continue
		}
		a, err := r.parseActivity(cand, src)
		switch {
		case err != nil && i < 2:
			return nil, err
		case err != nil:
			continue
		case i < 2:
			// <name>.bddl was written for this name: it is the
			// activity's, whatever its problem is called.
			named := *a
			named.Name = name
			return &named, nil
		case a.Name == name:
			return a, nil
		}
	}
	return nil, nil
}

// inFixed finds ref in the --activity directory.
func (r *Resolver) inFixed(ref string) (*Activity, error) {
	lib := r.fixedLib
	if !r.fixedTree {
		// One activity: the instance the episode names, else the lowest.
		if a, ok := findIn(lib, ref); ok {
			return r.fromLibrary(a)
		}
		return r.fromLibrary(lib.Activities[0])
	}
	if ref == "" {
		return nil, fmt.Errorf("the episode's header names no activity to find in --activity %s", r.fixedRef)
	}
	if a, ok := findIn(lib, ref); ok {
		return r.fromLibrary(a)
	}
	return nil, fmt.Errorf("activity %q (named by the episode) not found in --activity %s%s", ref, r.fixedRef, suggest(ref, lib))
}

// byName looks ref up in the libraries, then the examples.
func (r *Resolver) byName(ref string) (*Activity, error) {
	libs := append(append([]*activities.Library(nil), r.libs...), activities.Examples())
	for _, lib := range libs {
		if a, ok := findIn(lib, ref); ok {
			return r.fromLibrary(a)
		}
	}
	where := "the embedded examples"
	if len(r.libs) > 0 {
		where = "the --activities library or " + where
	}
	var hint string
	for _, lib := range libs {
		if hint = suggest(ref, lib); hint != "" {
			break
		}
	}
	if len(r.libs) == 0 {
		hint += " (give --activities DIR to look names up in a BEHAVIOR-1K activity_definitions tree, or a problem file's path)"
	}
	return nil, fmt.Errorf("activity %q not found: not a problem file, and not in %s%s", ref, where, hint)
}

// findIn finds a reference in a library: a name, name-N, a problem file
// name, or a path on the machine that recorded the episode.
func findIn(lib *activities.Library, ref string) (*activities.Activity, bool) {
	if a, ok := lib.Find(ref); ok {
		return a, true
	}
	if name, n, ok := activities.ActivityPath(ref); ok {
		if a, ok := lib.Find(fmt.Sprintf("%s-%d", name, n)); ok {
			return a, true
		}
	}
	return lib.Find(strings.TrimSuffix(filepath.Base(ref), ".bddl"))
}

// suggest is a did-you-mean for a misspelt activity name.
func suggest(ref string, lib *activities.Library) string {
	seen := map[string]bool{}
	var names []string
	for _, a := range lib.Activities {
		if !seen[a.Name] {
			seen[a.Name] = true
			names = append(names, a.Name)
		}
	}
	s := kb.Suggest(bddl.Fold(filepath.Base(ref)), names, 3)
	if len(s) == 0 {
		return ""
	}
	sort.Strings(s)
	return "; did you mean " + strings.Join(s, ", ") + "?"
}

// Program compiles an activity with a wildcard expansion, once.
func (r *Resolver) Program(act *Activity, wildcards map[string][]string) (*predicates.Program, error) {
	return r.programs.Compile(act.Key, act.Problem, wildcards)
}

// ResolveProgram resolves an episode's activity and compiles it without
// wildcards, as the readers that check names against the activity's
// instances need both.
func (r *Resolver) ResolveProgram(ref string, ep Episode) (*Activity, *predicates.Program, error) {
	act, err := r.Resolve(ref, ep)
	if err != nil {
		return nil, nil, err
	}
	prog, err := r.Program(act, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("activity %s: %v", act.Name, err)
	}
	return act, prog, nil
}

// SameActivity reports whether an episode's activity reference names act.
func SameActivity(ref string, act *Activity) bool {
	f := bddl.Fold(strings.TrimSuffix(filepath.Base(ref), ".bddl"))
	if strings.HasPrefix(f, "problem") {
		f = bddl.Fold(filepath.Base(filepath.Dir(ref)))
	}
	name := bddl.Fold(act.Name)
	return f == name || strings.HasPrefix(f, name+"-") || f == bddl.Fold(act.Problem.Name.Name)
}
