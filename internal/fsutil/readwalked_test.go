//go:build unix

package fsutil

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadWalked reads what a walk finds: a regular file whole (larger
// than the first buffer too), a link through the checked path, and
// refuses a FIFO without blocking and a file over the limit.
func TestReadWalked(t *testing.T) {
	dir := t.TempDir()
	small := filepath.Join(dir, "small.bddl")
	big := filepath.Join(dir, "big.bddl")
	link := filepath.Join(dir, "link.bddl")
	fifo := filepath.Join(dir, "fifo.bddl")
	bigData := bytes.Repeat([]byte("(a b)\n"), 50000)
	must(t, os.WriteFile(small, []byte("(define)"), 0o644))
	must(t, os.WriteFile(big, bigData, 0o644))
	must(t, os.Symlink(small, link))
	must(t, syscall.Mkfifo(fifo, 0o644))
	var buf []byte
	got, err := ReadWalked(small, 0, DefinitionLimit, &buf)
	if err != nil || string(got) != "(define)" {
		t.Fatalf("small: %q, %v", got, err)
	}
	got, err = ReadWalked(big, 0, DefinitionLimit, &buf)
	if err != nil || !bytes.Equal(got, bigData) {
		t.Fatalf("big: %d bytes, %v; want %d", len(got), err, len(bigData))
	}
	if got, err = ReadWalked(link, fs.ModeSymlink, DefinitionLimit, &buf); err != nil || string(got) != "(define)" {
		t.Fatalf("link: %q, %v", got, err)
	}
	if _, err = ReadWalked(fifo, fs.ModeNamedPipe, DefinitionLimit, &buf); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("fifo: %v, want ErrNotRegular", err)
	}
	// An entry the walk saw as regular but that is a FIFO now reads empty
	// rather than blocking.
	if got, err = ReadWalked(fifo, 0, DefinitionLimit, &buf); err != nil || len(got) != 0 {
		t.Fatalf("swapped fifo: %q, %v, want empty", got, err)
	}
	var tooLarge *TooLargeError
	if _, err = ReadWalked(big, 0, 1000, &buf); !errors.As(err, &tooLarge) {
		t.Fatalf("over the limit: %v, want *TooLargeError", err)
	}
	// The result does not share the scratch buffer.
	got, _ = ReadWalked(small, 0, DefinitionLimit, &buf)
	ReadWalked(big, 0, DefinitionLimit, &buf)
	if string(got) != "(define)" {
		t.Fatalf("result changed by a later read: %q", got)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
