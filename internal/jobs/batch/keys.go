package batch

import (
	"os"
	"path/filepath"
	"strings"
)

// keyIn is PathKey with the working directory given, for many paths at
// once: relative paths are joined to cwd instead of asking the system for
// it each time.
func keyIn(cwd, p string) string {
	if p == Stdin || p == "" || cwd == "" {
		return PathKey(p)
	}
	file, sub, hasSub := strings.Cut(p, "#")
	if hasSub {
		if _, err := os.Stat(p); err == nil {
			file, sub, hasSub = p, "", false // a '#' in a real file name
		}
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(cwd, file)
	}
	file = filepath.Clean(file)
	if hasSub {
		return file + "#" + sub
	}
	return file
}
