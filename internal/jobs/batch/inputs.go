package batch

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/openbddl/bddl/internal/fsutil"
)

// Stdin is the path that names standard input.
const Stdin = "-"

// Input is one file found from a command-line argument.
type Input struct {
	// Path is the file as the argument spelled it (a directory argument
	// joined with the names walked): what reports show.
	Path string
	// Arg is the argument the file came from.
	Arg string
	// Root is the directory the file was found under: the argument when
	// it is a directory, the glob's fixed prefix, else the file's own
	// directory. A path an episode header names is read only inside it.
	Root string
	// Rel is Path relative to the argument (slash-separated; the path as
	// given for a file argument): the shard key, the same on every
	// machine that runs the same command.
	Rel string
}

// Key is the identity of the file for resuming and duplicates: its
// cleaned absolute path (standard input is "-").
func (in Input) Key() string { return PathKey(in.Path) }

// PathKey is the cleaned absolute form of a path as a results file
// spells it; "-" and paths that cannot be made absolute stay as they are.
// A "#name" suffix (an episode inside a file) is kept.
func PathKey(p string) string {
	if p == Stdin || p == "" {
		return p
	}
	file, sub, hasSub := strings.Cut(p, "#")
	if hasSub {
		if _, err := os.Stat(p); err == nil {
			file, sub, hasSub = p, "", false // a '#' in a real file name
		}
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		abs = filepath.Clean(file)
	}
	if hasSub {
		return abs + "#" + sub
	}
	return abs
}

// ExpandOptions configure Expand.
type ExpandOptions struct {
	// What names the inputs in messages: "episodes", "definitions".
	What string
	// Match selects the files taken from a walked directory by base name.
	Match func(name string) bool
	// Describe says what Match takes, for "no ... under DIR": "*.jsonl or *.jsonl.gz".
	Describe string
	// Stdin allows "-" for standard input.
	Stdin bool
	// Note receives one line per file skipped (FIFOs, devices, loops).
	Note func(msg string)
}

// Expand turns command-line arguments into input files: a file as given
// (a symbolic link is followed), a directory walked for the files Match
// takes (links followed, loops and special files skipped with a note),
// or a doublestar glob ("runs/**/*.jsonl.gz"; ** crosses directories).
// Files are in argument order, each directory and glob in lexical
// order; a file met twice is kept once. An argument that matches nothing
// is an error naming it; so is an empty result.
func Expand(args []string, o ExpandOptions) ([]Input, error) {
	var out []Input
	if err := ExpandEach(args, o, func(in Input) { out = append(out, in) }); err != nil {
		return nil, err
	}
	return out, nil
}

// ExpandEach is Expand handing each input to yield as it is found, so
// that work on the first files can start while a large tree is still
// walked. When it returns an error, the inputs yielded are not the
// command's: a caller must not have reported anything about them.
func ExpandEach(args []string, o ExpandOptions, yield func(Input)) error {
	seen := map[string]bool{}
	cwd, _ := os.Getwd()
	n := 0
	add := func(in Input) {
		if k := keyIn(cwd, in.Path); !seen[k] {
			seen[k] = true
			n++
			yield(in)
		}
	}
	for _, a := range args {
		if a == Stdin && o.Stdin {
			add(Input{Path: Stdin, Arg: a, Rel: Stdin})
			continue
		}
		info, err := os.Stat(a)
		switch {
		case err == nil && info.IsDir():
			found := 0
			prefix := fsutil.JoinPrefix(a) // what filepath.Rel(a, p) takes off
			err := fsutil.Walk(a, fsutil.WalkOptions{Match: o.Match, Note: o.Note}, func(p string) error {
				add(Input{Path: p, Arg: a, Root: a, Rel: filepath.ToSlash(strings.TrimPrefix(p, prefix))})
				found++
				return nil
			})
			if err != nil {
				return err
			}
			if found == 0 {
				return fmt.Errorf("no %s found under %s (looked for %s)", o.What, a, o.Describe)
			}
		case err == nil:
			add(Input{Path: a, Arg: a, Root: filepath.Dir(a), Rel: filepath.ToSlash(filepath.Clean(a))})
		case isGlob(a):
			if err := expandGlob(a, o, add); err != nil {
				return err
			}
		default:
			return fmt.Errorf("%s: no such file or directory", a)
		}
	}
	if n == 0 {
		return fmt.Errorf("no %s found in %s", o.What, strings.Join(args, " "))
	}
	return nil
}

func isGlob(s string) bool { return strings.ContainsAny(s, "*?[{") }

// expandGlob matches a doublestar pattern by walking the directory
// before its first wildcard with fsutil.Walk, so links are followed
// without looping and special files are skipped with a note.
func expandGlob(pattern string, o ExpandOptions, add func(Input)) error {
	slash := filepath.ToSlash(pattern)
	if !doublestar.ValidatePattern(slash) {
		return fmt.Errorf("%s: not a valid glob pattern", pattern)
	}
	base, _ := doublestar.SplitPattern(slash)
	base = filepath.FromSlash(base)
	if info, err := os.Stat(base); err != nil || !info.IsDir() {
		return fmt.Errorf("%s: no file matches (%s is not a directory)", pattern, base)
	}
	// Walk joins names to base as given; the pattern must be spelled so.
	prefix := filepath.ToSlash(filepath.Clean(base))
	_, rest := doublestar.SplitPattern(slash)
	full := strings.TrimSuffix(prefix, "/") + "/" + rest
	if prefix == "." {
		full = rest
	}
	var matched []string
	match := func(p string) bool {
		ok, _ := doublestar.Match(full, filepath.ToSlash(p))
		return ok
	}
	err := fsutil.Walk(base, fsutil.WalkOptions{MatchPath: match, Note: o.Note}, func(p string) error {
		matched = append(matched, p)
		return nil
	})
	if err != nil {
		return err
	}
	if len(matched) == 0 {
		return fmt.Errorf("%s: no file matches", pattern)
	}
	sort.Strings(matched)
	for _, m := range matched {
		rel, err := filepath.Rel(base, m)
		if err != nil {
			rel = m
		}
		add(Input{Path: m, Arg: pattern, Root: base, Rel: filepath.ToSlash(rel)})
	}
	return nil
}
