//go:build unix

package fsutil

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
}

// withTimeout fails the test if fn blocks: opening a FIFO must not.
func withTimeout(t *testing.T, fn func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { fn(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("blocked")
	}
}

func TestOpenRegularRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "x.bddl")
	mkfifo(t, fifo)
	link := filepath.Join(dir, "link.bddl")
	if err := os.Symlink("/dev/zero", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{fifo, "/dev/zero", link, dir} {
		withTimeout(t, func() {
			_, err := OpenRegular(p)
			if !errors.Is(err, ErrNotRegular) {
				t.Errorf("OpenRegular(%s) = %v, want ErrNotRegular", p, err)
			}
		})
	}
	reg := filepath.Join(dir, "ok.bddl")
	os.WriteFile(reg, []byte("x"), 0o644)
	f, err := OpenRegular(reg)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
}

// TestOpenRegularFileForWriting: opening for writing refuses special
// files without blocking, creates a missing file only when asked to.
func TestOpenRegularFileForWriting(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.jsonl")
	mkfifo(t, fifo)
	for _, p := range []string{fifo, "/dev/null", dir} {
		withTimeout(t, func() {
			if _, err := OpenRegularFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644); !errors.Is(err, ErrNotRegular) {
				t.Errorf("OpenRegularFile(%s) = %v, want ErrNotRegular", p, err)
			}
		})
	}
	missing := filepath.Join(dir, "new.jsonl")
	if _, err := OpenRegularFile(missing, os.O_RDWR, 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("without O_CREATE: %v, want not-exist", err)
	}
	f, err := OpenRegularFile(missing, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if info, err := os.Stat(missing); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("created %v, %v", info, err)
	}
}

func TestReadFileLimit(t *testing.T) {
	p := filepath.Join(t.TempDir(), "big")
	os.WriteFile(p, make([]byte, 2048), 0o644)
	if _, err := ReadFile(p, 2048); err != nil {
		t.Fatalf("at the limit: %v", err)
	}
	_, err := ReadFile(p, 1024)
	var tl *TooLargeError
	if !errors.As(err, &tl) || !strings.Contains(err.Error(), "1 KiB limit") {
		t.Fatalf("over the limit: %v", err)
	}
	// A device named on the command line is read, but only up to the limit.
	if _, err := ReadArg("/dev/zero", nil, 1<<20); !errors.As(err, &tl) || !strings.Contains(err.Error(), "1 MiB") {
		t.Fatalf("ReadArg(/dev/zero) = %v", err)
	}
	if got, err := ReadArg("-", strings.NewReader("abc"), 10); err != nil || string(got) != "abc" {
		t.Fatalf("ReadArg(-) = %q, %v", got, err)
	}
}

func TestWalkFollowsLinksSkipsLoopsAndFIFOs(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(t.TempDir(), "elsewhere")
	os.MkdirAll(filepath.Join(real, "deep"), 0o755)
	os.WriteFile(filepath.Join(real, "deep", "b.bddl"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "a.bddl"), nil, 0o644)
	os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644)
	os.Symlink(real, filepath.Join(dir, "linked"))
	os.Symlink(dir, filepath.Join(dir, "loop"))
	os.Symlink(filepath.Join(dir, "missing"), filepath.Join(dir, "broken.bddl"))
	mkfifo(t, filepath.Join(dir, "fifo.bddl"))
	got, notes := walkBDDL(t, dir)
	want := []string{"a.bddl", "linked/deep/b.bddl"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("walked %v, want %v", got, want)
	}
	joined := strings.Join(notes, "\n")
	for _, w := range []string{"fifo.bddl: a FIFO", "loop: a link back", "broken.bddl"} {
		if !strings.Contains(joined, w) {
			t.Errorf("notes lack %q:\n%s", w, joined)
		}
	}
}

// TestWalkLoopsThroughLinkedDirectories checks loop detection when only
// plain directories are stated only below a link: a link back to a plain
// ancestor, to itself, to the root, around a cycle of links, is noted and
// not followed; a link to a directory already walked (c is a/b) is noted
// and not walked again: each file is visited once by identity (item 14).
func TestWalkLoopsThroughLinkedDirectories(t *testing.T) {
	dir := t.TempDir()
	other := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "a", "b", "f.bddl"), nil, 0o644))
	must(os.Symlink("..", filepath.Join(dir, "a", "b", "up")))              // to a plain ancestor
	must(os.Symlink(".", filepath.Join(dir, "a", "b", "self")))             // to itself
	must(os.Symlink(dir, filepath.Join(dir, "a", "b", "root")))             // to the root
	must(os.Symlink("a/b", filepath.Join(dir, "c")))                        // walked already
	must(os.Symlink(other, filepath.Join(dir, "d")))                        // a cycle of two links:
	must(os.Symlink(filepath.Join(dir, "d"), filepath.Join(other, "back"))) // d -> other, other/back -> d
	must(os.WriteFile(filepath.Join(other, "g.bddl"), nil, 0o644))
	must(os.Symlink(filepath.Join(dir, "a", "b", "f.bddl"), filepath.Join(other, "h.bddl"))) // f.bddl again
	got, notes := walkBDDL(t, dir)
	want := []string{"a/b/f.bddl", "d/g.bddl"}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("walked %v, want %v", got, want)
	}
	wantNotes := []string{"a/b/root: a link back", "a/b/self: a link back", "a/b/up: a link back", "c: a directory already walked", "d/back: a link back"}
	if len(notes) != len(wantNotes) {
		t.Errorf("notes:\n%s\nwant one for each of %v", strings.Join(notes, "\n"), wantNotes)
	}
	for i, w := range wantNotes {
		if i < len(notes) && !strings.Contains(notes[i], filepath.FromSlash(w)) {
			t.Errorf("note %d = %q, want %s", i, notes[i], w)
		}
	}
}

// Item 14: thirty directories each linking twice to the next make 2^30
// paths to one file; the walk visits it once.
func TestWalkSymlinkDiamonds(t *testing.T) {
	dir := t.TempDir()
	const depth = 30
	for i := range depth {
		d := filepath.Join(dir, fmt.Sprintf("d%02d", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if i == depth-1 {
			if err := os.WriteFile(filepath.Join(d, "x.bddl"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		next := filepath.Join(dir, fmt.Sprintf("d%02d", i+1))
		for _, l := range []string{"l", "r"} {
			if err := os.Symlink(next, filepath.Join(d, l)); err != nil {
				t.Fatal(err)
			}
		}
	}
	got, _ := walkBDDL(t, filepath.Join(dir, "d00"))
	if len(got) != 1 {
		t.Fatalf("walked %d files, want 1: %v", len(got), got[:min(len(got), 5)])
	}
}

// walkBDDL walks dir for *.bddl files, returning them relative to dir
// (with slashes) and the notes of what was skipped.
func walkBDDL(t *testing.T, dir string) (got, notes []string) {
	t.Helper()
	withTimeout(t, func() {
		err := Walk(dir, WalkOptions{
			Match: func(n string) bool { return strings.HasSuffix(n, ".bddl") },
			Note:  func(m string) { notes = append(notes, m) },
		}, func(p string) error {
			rel, _ := filepath.Rel(dir, p)
			got = append(got, filepath.ToSlash(rel))
			return nil
		})
		if err != nil {
			t.Error(err)
		}
	})
	return got, notes
}

func TestWithin(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "a"), 0o755)
	os.WriteFile(filepath.Join(root, "a", "f"), nil, 0o644)
	os.Symlink("/etc/passwd", filepath.Join(root, "a", "escape"))
	cases := map[string]bool{
		filepath.Join(root, "a", "f"):            true,
		filepath.Join(root, "a", "..", "a", "f"): true,
		filepath.Join(root, "a", "escape"):       false,
		"/etc/passwd":                            false,
		filepath.Join(root, "a", "missing"):      false,
	}
	for p, want := range cases {
		if got := Within(root, p); got != want {
			t.Errorf("Within(root, %s) = %v, want %v", p, got, want)
		}
	}
}

func TestWriteFileAtomicKeepsOwnerModeAndLinks(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.bddl")
	os.WriteFile(p, []byte("old"), 0o640)
	os.Chmod(p, 0o640)
	if os.Geteuid() == 0 {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFileAtomic(p, []byte("new")); err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(p)
	if info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", info.Mode().Perm())
	}
	if st := info.Sys().(*syscall.Stat_t); os.Geteuid() == 0 && (st.Uid != 65534 || st.Gid != 65534) {
		t.Errorf("owner %d:%d, want 65534:65534", st.Uid, st.Gid)
	}
	if b, _ := os.ReadFile(p); string(b) != "new" {
		t.Errorf("content %q", b)
	}

	// A hard link stays one file.
	hard := filepath.Join(dir, "hard.bddl")
	os.Link(p, hard)
	if err := WriteFileAtomic(p, []byte("newer, longer")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(hard); string(b) != "newer, longer" {
		t.Errorf("the hard link reads %q", b)
	}
	a, _ := os.Stat(p)
	b, _ := os.Stat(hard)
	if !os.SameFile(a, b) {
		t.Error("the hard link was split")
	}

	// A read-only file is refused, even for root.
	ro := filepath.Join(dir, "ro.bddl")
	os.WriteFile(ro, []byte("keep"), 0o444)
	if err := WriteFileAtomic(ro, []byte("x")); !errors.Is(err, ErrReadOnly) {
		t.Errorf("read-only file: %v", err)
	}
	if b, _ := os.ReadFile(ro); string(b) != "keep" {
		t.Errorf("read-only file changed to %q", b)
	}

	// A new file is created.
	nf := filepath.Join(dir, "new.jsonl")
	if err := WriteFileAtomic(nf, []byte("x\n")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(nf); string(b) != "x\n" {
		t.Errorf("new file %q", b)
	}
}

func TestLockIsExclusive(t *testing.T) {
	p := filepath.Join(t.TempDir(), "out.jsonl")
	f1, _ := os.Create(p)
	defer f1.Close()
	if err := Lock(f1); err != nil {
		t.Fatal(err)
	}
	f2, _ := os.OpenFile(p, os.O_RDWR, 0)
	defer f2.Close()
	if err := Lock(f2); !errors.Is(err, ErrLocked) {
		t.Fatalf("second lock: %v", err)
	}
	f1.Close()
	if err := Lock(f2); err != nil {
		t.Fatalf("after release: %v", err)
	}
}

// Item 7: the confinement rule: inside the roots, regular files (or
// directories when asked), links resolved, never opened when not regular.
func TestConfine(t *testing.T) {
	root := t.TempDir()
	out := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "a.bddl"), []byte("x"), 0o644))
	must(os.WriteFile(filepath.Join(out, "secret"), []byte("x"), 0o644))
	must(os.Mkdir(filepath.Join(root, "sub"), 0o755))
	must(os.Symlink(filepath.Join(out, "secret"), filepath.Join(root, "link")))
	fifo := filepath.Join(root, "fifo")
	hasFIFO := syscall.Mkfifo(fifo, 0o644) == nil
	for _, tc := range []struct {
		path  string
		dirOK bool
		want  string // "" accepted
	}{
		{filepath.Join(root, "a.bddl"), false, ""},
		{filepath.Join(root, "sub"), true, ""},
		{filepath.Join(root, "sub"), false, "a directory"},
		{filepath.Join(root, "..", filepath.Base(out), "secret"), false, "outside the allowed directories"},
		{filepath.Join(out, "secret"), false, "outside the allowed directories"},
		{filepath.Join(root, "link"), false, "outside the allowed directories"},
		{"/dev/zero", false, "a character device"},
		{fifo, false, "a FIFO"},
	} {
		if tc.path == fifo && !hasFIFO {
			continue
		}
		err := Confine(tc.path, tc.dirOK, root)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.path, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.path, err, tc.want)
		}
	}
	for s, want := range map[string]bool{"apple": true, "a.b": true, "": false, ".": false, "..": false, "../x": false, "a/b": false, `a\b`: false, "a\x00": false} {
		if PathComponent(s) != want {
			t.Errorf("PathComponent(%q) = %v", s, !want)
		}
	}
}

// Minor item: a file replaced keeps its setgid (and setuid, sticky) bits,
// as fmt -w replaces definitions.
func TestWriteFileAtomicKeepsSetgid(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a.bddl")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	want := os.FileMode(0o640) | os.ModeSetgid
	if err := os.Chmod(path, want); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(path); info.Mode() != want {
		t.Skipf("the file system does not keep setgid (%v)", info.Mode())
	}
	if err := WriteFileAtomic(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode() != want {
		t.Errorf("mode %v, want %v", info.Mode(), want)
	}
}
