package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
)

// collectFiles expands the command-line paths: files as given, directories
// walked for *.bddl files in lexical order.
func collectFiles(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, misuse("%v", err)
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".bddl") {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, misuse("%v", err)
		}
		sort.Strings(found)
		files = append(files, found...)
	}
	return files, nil
}

// parsed is one file's parse result.
type parsed struct {
	path  string
	file  *bddl.File
	diags bddl.Diagnostics
	err   error // reading the file failed
}

// parseFiles reads and parses files on all cores, returning results in the
// order of files.
func parseFiles(files []string) []parsed {
	next := make(chan toParse, 64)
	go func() {
		for _, f := range files {
			next <- toParse{path: f}
		}
		close(next)
	}()
	return parseStream(next)
}

// parsePaths expands the command-line paths as collectFiles does and
// parses the files while the directories are still being walked, so
// walking and parsing overlap. Results come in walk order.
func parsePaths(paths []string) ([]parsed, error) {
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			return nil, misuse("%v", err)
		}
	}
	next := make(chan toParse, 64)
	var walkErr error
	go func() {
		defer close(next)
		for _, p := range paths {
			err := filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
				if err != nil {
					return err
				}
				switch {
				case path == p && !d.IsDir():
					next <- toParse{path: path}
				case !d.IsDir() && strings.HasSuffix(d.Name(), ".bddl"):
					next <- toParse{path: path, typ: d.Type(), walked: true}
				}
				return nil
			})
			if err != nil {
				walkErr = misuse("%v", err)
				return
			}
		}
	}()
	out := parseStream(next)
	return out, walkErr
}

// toParse names a file to parse; a file a walk found carries the type
// its directory entry gave, so reading it needs no stat.
type toParse struct {
	path   string
	typ    fs.FileMode
	walked bool
}

// parseStream parses the files named on next with one worker per core and
// returns the results in the order the names arrived.
func parseStream(next <-chan toParse) []parsed {
	type job struct {
		i int
		toParse
	}
	jobs := make(chan job, 64)
	go func() {
		i := 0
		for f := range next {
			jobs <- job{i, f}
			i++
		}
		close(jobs)
	}()
	var mu sync.Mutex
	var out []parsed
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte // this worker's read buffer
			for j := range jobs {
				var r parsed
				if j.walked {
					r = parseWalked(j.path, j.typ, &buf)
				} else {
					r = parseOne(j.path)
				}
				mu.Lock()
				for len(out) <= j.i {
					out = append(out, parsed{})
				}
				out[j.i] = r
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return out
}

func parseOne(path string) parsed { return parseOneWith(path, bddl.Options{}) }

// parseWalked reads a file a walk found with one open, read and close
// (fsutil.ReadWalked) and parses it.
func parseWalked(path string, typ fs.FileMode, buf *[]byte) parsed {
	src, err := fsutil.ReadWalked(path, typ, fsutil.DefinitionLimit, buf)
	if err != nil {
		return parsed{path: path, err: err}
	}
	f, diags := bddl.ParseFile(path, src)
	return parsed{path: path, file: f, diags: diags}
}

// parseOneWith reads and parses one file under a reading policy.
func parseOneWith(path string, opts bddl.Options) parsed {
	src, err := os.ReadFile(path)
	if err != nil {
		return parsed{path: path, err: err}
	}
	f, diags := opts.ParseFile(path, src)
	return parsed{path: path, file: f, diags: diags}
}
