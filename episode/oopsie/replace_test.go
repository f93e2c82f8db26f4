//go:build unix

package oopsie

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
)

// TestAnnotateConcurrent: two annotators at once on one file, 20 times:
// the file's lock serialises them, so neither group is lost.
func TestAnnotateConcurrent(t *testing.T) {
	t.Parallel()
	for run := range 20 {
		p := copyFixture(t, "ep_noannot.h5")
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for k := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				a := verdict
				a.Annotator = fmt.Sprintf("annotator%d", k)
				errs[k] = Annotate(p, &a, false)
			}()
		}
		wg.Wait()
		e, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		for k := range 2 {
			if errs[k] != nil {
				t.Fatalf("run %d, annotator %d: %v", run, k, errs[k])
			}
			if e.Annotation(fmt.Sprintf("annotator%d", k)) == nil {
				t.Fatalf("run %d: annotator%d's group was lost", run, k)
			}
		}
		e.Close()
	}
}

// TestAnnotateThroughSymlink: the file a link names is annotated and the
// link stays a link.
func TestAnnotateThroughSymlink(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "ep_noannot.h5")
	link := filepath.Join(t.TempDir(), "link.h5")
	if err := os.Symlink(p, link); err != nil {
		t.Skip(err)
	}
	a := verdict
	if err := Annotate(link, &a, false); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced: %v %v", fi.Mode(), err)
	}
	e, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if e.Annotation("bddl") == nil {
		t.Fatal("the link's target was not annotated")
	}
}

// TestAnnotateKeepsIdentity: setuid and setgid bits and the owner are
// kept (the owner where this process may give files away), hard links
// refused with the reason, and copies a killed run left are swept.
func TestAnnotateKeepsIdentity(t *testing.T) {
	t.Parallel()
	p := copyFixture(t, "ep_noannot.h5")
	root := os.Geteuid() == 0
	if root {
		if err := os.Chown(p, 4321, 4321); err != nil {
			t.Fatal(err)
		}
	}
	// after the chown, which clears the setuid bit
	if err := os.Chmod(p, 0o640|os.ModeSetgid|os.ModeSetuid); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(filepath.Dir(p), ".ep_noannot.h5.123456.tmp")
	if err := os.WriteFile(stale, []byte("left by kill -9"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := verdict
	if err := Annotate(p, &a, false); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := 0o640 | os.ModeSetgid | os.ModeSetuid; fi.Mode() != want {
		t.Errorf("mode %v, want %v", fi.Mode(), want)
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); root && ok && (st.Uid != 4321 || st.Gid != 4321) {
		t.Errorf("owner %d:%d, want 4321:4321", st.Uid, st.Gid)
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), ".tmp") {
			t.Errorf("%s left", e.Name())
		}
	}
	// a hard link: refused, both names unchanged
	q := copyFixture(t, "ep_single.h5")
	if err := os.Link(q, q+".link"); err != nil {
		t.Skip(err)
	}
	before, _ := os.ReadFile(q)
	if err := Annotate(q, &a, false); err == nil || !strings.Contains(err.Error(), "2 hard links") {
		t.Fatalf("a hard-linked file: %v", err)
	}
	after, _ := os.ReadFile(q + ".link")
	if string(before) != string(after) {
		t.Error("the hard-linked file changed")
	}
}
