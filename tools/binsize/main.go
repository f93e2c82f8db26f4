// Command binsize says what the bddl binary is made of: it builds
// ./cmd/bddl for Linux (as a release does, but keeping the symbol table),
// reads its ELF symbols (what `go tool nm -size` lists) and sums the sizes
// of those the file holds (code and data; not the zero-filled bss, such
// as the 32 MB crypto/internal/fips140/drbg.memory) by module, or by
// package with -pkg.
//
//	go run ./tools/binsize            # the 25 largest modules
//	go run ./tools/binsize -pkg -n 40
//	GOARCH=arm64 go run ./tools/binsize
//
// The release binary is stripped (-s -w): its size is about these sums
// plus the runtime's tables (pclntab, type data). docs/release.md has the
// figures.
package main

import (
	"debug/elf"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
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
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fail(err)
	}
	f, err := elf.Open(bin)
	if err != nil {
		fail(err)
	}
	syms, err := f.Symbols()
	if err != nil {
		fail(err)
	}
	mods := modules()
	sums := map[string]int64{}
	var total int64
	for _, sym := range syms {
		if int(sym.Section) >= len(f.Sections) || f.Sections[sym.Section].Type == elf.SHT_NOBITS || sym.Size == 0 {
			continue // bss takes no room in the file
		}
		key := group(pkgOf(sym.Name), mods, *byPkg)
		sums[key] += int64(sym.Size)
		total += int64(sym.Size)
	}
	f.Close()
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
	if pkg == "go:" || pkg == "type:" {
		return "linker: " + pkg + " (strings, type descriptors, function data)"
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
