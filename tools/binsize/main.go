// Command binsize says what the bddl binary is made of: it builds
// ./cmd/bddl (as a release does, but keeping the symbol table), reads
// `go tool nm -size` and sums the sizes of the symbols in the file (code
// and data, not the zero-filled bss) by module, or by package with -pkg.
//
//	go run ./tools/binsize            # the 25 largest modules
//	go run ./tools/binsize -pkg -n 40
//	GOOS=darwin GOARCH=arm64 go run ./tools/binsize
//
// The release binary is stripped (-s -w): its size is about these sums
// plus the runtime's tables (pclntab, type data). docs/release.md has the
// figures.
package main

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

func main() {
	n := flag.Int("n", 25, "how many rows to print")
	byPkg := flag.Bool("pkg", false, "sum by package instead of by module")
	flag.Parse()
	dir, err := os.MkdirTemp("", "binsize-")
	if err != nil {
		fail(err)
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "bddl")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/bddl")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fail(err)
	}
	out, err := exec.Command("go", "tool", "nm", "-size", bin).Output()
	if err != nil {
		fail(err)
	}
	mods := modules()
	sums := map[string]int64{}
	var total int64
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 4 || f[2] == "B" || f[2] == "b" || f[2] == "U" {
			continue // bss takes no room in the file; U is undefined
		}
		size, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		key := group(pkgOf(strings.Join(f[3:], " ")), mods, *byPkg)
		sums[key] += size
		total += size
	}
	keys := make([]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return sums[keys[i]] > sums[keys[j]] })
	st, _ := os.Stat(bin)
	fmt.Printf("%s unstripped: %.1f MB; symbols in the file: %.1f MB\n", bin[len(dir)+1:], float64(st.Size())/1e6, float64(total)/1e6)
	for i, k := range keys {
		if i == *n {
			break
		}
		fmt.Printf("%9.2f MB %5.1f%%  %s\n", float64(sums[k])/1e6, 100*float64(sums[k])/float64(total), k)
	}
}

// pkgOf is the package of a symbol name: up to the first dot after the
// last slash ("type:" and "go:" symbols are their own group).
func pkgOf(sym string) string {
	for _, p := range []string{"type:", "go:"} {
		if strings.HasPrefix(sym, p) {
			return p
		}
	}
	i := strings.LastIndexByte(sym, '/')
	if j := strings.IndexByte(sym[i+1:], '.'); j >= 0 {
		sym = sym[:i+1+j]
	}
	return strings.ReplaceAll(sym, "%2e", ".") // the linker escapes dots of the last element: yaml%2ev3
}

// modules lists the build's modules, longest path first.
func modules() []string {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "./cmd/bddl").Output()
	if err != nil {
		fail(err)
	}
	seen := map[string]bool{}
	var mods []string
	for _, m := range strings.Fields(string(out)) {
		if !seen[m] {
			seen[m] = true
			mods = append(mods, m)
		}
	}
	sort.Slice(mods, func(i, j int) bool { return len(mods[i]) > len(mods[j]) })
	return mods
}

// group is the module of pkg (the standard library's packages as
// themselves), or pkg itself with byPkg.
func group(pkg string, mods []string, byPkg bool) string {
	if byPkg {
		return pkg
	}
	for _, m := range mods {
		if pkg == m || strings.HasPrefix(pkg, m+"/") {
			return m
		}
	}
	if strings.HasPrefix(pkg, "vendor/") || !strings.Contains(strings.SplitN(pkg, "/", 2)[0], ".") {
		return "std: " + strings.SplitN(pkg, "/", 2)[0]
	}
	return pkg
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "binsize:", err)
	os.Exit(1)
}
