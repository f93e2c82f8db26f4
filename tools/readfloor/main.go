// Command readfloor is the I/O floor of `bddl parse`: it walks the same
// paths for *.bddl files and reads each with one open, read and close,
// into one reused buffer, doing nothing with the bytes. tools/ratios.sh
// compares the whole-process time of `bddl parse` with it.
package main

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: readfloor PATH...")
		os.Exit(2)
	}
	buf := make([]byte, 1<<20)
	files, total := 0, 0
	for _, root := range os.Args[1:] {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() || !strings.HasSuffix(path, ".bddl") {
				return nil
			}
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			for {
				n, err := f.Read(buf)
				total += n
				if err == io.EOF {
					break
				}
				if err != nil {
					f.Close()
					return err
				}
				if n < len(buf) {
					break // a short read of a regular file: at its end
				}
			}
			files++
			return f.Close()
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "readfloor:", err)
			os.Exit(1)
		}
	}
	fmt.Printf("%d files, %d bytes\n", files, total)
}
