// Command readfloor is the I/O floor that `bddl parse` is measured
// against: it walks the same directories as `bddl parse` and reads every
// *.bddl file with one open, one read and one close, on one goroutine,
// doing nothing with the bytes but count them. See the README's
// performance section for how the two are timed side by side.
//
//	go build -o /tmp/readfloor ./internal/tools/readfloor
//	/tmp/readfloor DIR...
package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

func main() {
	buf := make([]byte, 1<<20)
	files, total := 0, 0
	for _, root := range os.Args[1:] {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(d.Name(), ".bddl") {
				return err
			}
			fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
			if err != nil {
				return err
			}
			n, err := syscall.Read(fd, buf)
			syscall.Close(fd)
			if err != nil {
				return err
			}
			files++
			total += n
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
	}
	fmt.Printf("%d files, %d bytes read\n", files, total)
}
