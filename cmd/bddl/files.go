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
	out := make([]parsed, len(files))
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(runtime.GOMAXPROCS(0), max(1, len(files))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = parseOne(files[i])
			}
		}()
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
}

func parseOne(path string) parsed {
	src, err := os.ReadFile(path)
	if err != nil {
		return parsed{path: path, err: err}
	}
	f, diags := bddl.ParseFile(path, src)
	return parsed{path: path, file: f, diags: diags}
}
