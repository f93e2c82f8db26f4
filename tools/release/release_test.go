package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var testStamp = stamp{Version: "0.1.0", Commit: "0123456789abcdef0123456789abcdef01234567", Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}

func TestArchiveName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p    platform
		want string
	}{
		{platform{"manylinux2014_x86_64", "linux", "amd64"}, "bddl-0.1.0-linux-amd64.tar.gz"},
		{platform{"manylinux2014_aarch64", "linux", "arm64"}, "bddl-0.1.0-linux-arm64.tar.gz"},
		{platform{"macosx_11_0_arm64", "darwin", "arm64"}, "bddl-0.1.0-darwin-arm64.tar.gz"},
		{platform{"win_amd64", "windows", "amd64"}, "bddl-0.1.0-windows-amd64.zip"},
	}
	for _, tt := range tests {
		if got := archiveName("0.1.0", tt.p); got != tt.want {
			t.Errorf("archiveName(%v) = %q, want %q", tt.p, got, tt.want)
		}
	}
}

func TestLdflags(t *testing.T) {
	t.Parallel()
	want := "-s -w -X main.buildVersion=0.1.0 -X main.buildCommit=0123456789abcdef0123456789abcdef01234567 -X main.buildTime=2026-01-02T03:04:05Z"
	if got := testStamp.ldflags(); got != want {
		t.Errorf("ldflags = %q, want %q", got, want)
	}
}

// fakeTree is a module root with LICENSE and README.md, and a binary.
func fakeTree(t *testing.T) (root, bin string) {
	root = t.TempDir()
	for name, text := range map[string]string{"LICENSE": "MIT\n", "README.md": "# bddl\n", "bddl": "\x7fELF binary"} {
		if err := os.WriteFile(filepath.Join(root, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, filepath.Join(root, "bddl")
}

// TestArchives: each archive holds the binary (mode 0755), LICENSE and
// README.md in one folder, every entry at the commit's time, and two
// writes give the same bytes.
func TestArchives(t *testing.T) {
	t.Parallel()
	root, bin := fakeTree(t)
	for _, p := range []platform{{"manylinux2014_x86_64", "linux", "amd64"}, {"win_amd64", "windows", "amd64"}} {
		t.Run(p.Tag, func(t *testing.T) {
			t.Parallel()
			var first []byte
			for i := 0; i < 2; i++ {
				dir := t.TempDir()
				name, err := writeArchive(dir, root, bin, p, testStamp)
				if err != nil {
					t.Fatal(err)
				}
				b, err := os.ReadFile(filepath.Join(dir, name))
				if err != nil {
					t.Fatal(err)
				}
				if i == 0 {
					first = b
					continue
				}
				if !bytes.Equal(first, b) {
					t.Fatalf("two writes of %s differ", name)
				}
			}
			folder := "bddl-0.1.0-" + p.GOOS + "-" + p.GOARCH + "/"
			got := map[string]string{}
			if p.GOOS == "windows" {
				zr, err := zip.NewReader(bytes.NewReader(first), int64(len(first)))
				if err != nil {
					t.Fatal(err)
				}
				for _, f := range zr.File {
					if !f.Modified.Equal(testStamp.Time) {
						t.Errorf("%s: time %v", f.Name, f.Modified)
					}
					rc, _ := f.Open()
					b, _ := io.ReadAll(rc)
					rc.Close()
					got[f.Name] = f.Mode().String() + " " + string(b)
				}
			} else {
				gz, err := gzip.NewReader(bytes.NewReader(first))
				if err != nil {
					t.Fatal(err)
				}
				tr := tar.NewReader(gz)
				for {
					h, err := tr.Next()
					if err == io.EOF {
						break
					}
					if err != nil {
						t.Fatal(err)
					}
					if !h.ModTime.Equal(testStamp.Time) || h.Uname != "" || h.Uid != 0 {
						t.Errorf("%s: time %v, owner %q %d", h.Name, h.ModTime, h.Uname, h.Uid)
					}
					b, _ := io.ReadAll(tr)
					got[h.Name] = os.FileMode(h.Mode).String() + " " + string(b)
				}
			}
			exe := p.exe()
			want := map[string]string{
				folder + exe:         "-rwxr-xr-x \x7fELF binary",
				folder + "LICENSE":   "-rw-r--r-- MIT\n",
				folder + "README.md": "-rw-r--r-- # bddl\n",
			}
			for k, v := range want {
				if got[k] != v {
					t.Errorf("%s = %q, want %q", k, got[k], v)
				}
			}
		})
	}
}

// TestSums: SHA256SUMS lists every file, sorted, as sha256sum does.
func TestSums(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{"b.whl": "bee", "a.tar.gz": "ay"}
	for n, text := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := writeSums(dir, []string{"b.whl", "a.tar.gz"}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, sumsName))
	if err != nil {
		t.Fatal(err)
	}
	sum := func(s string) string { h := sha256.Sum256([]byte(s)); return hex.EncodeToString(h[:]) }
	want := sum("ay") + "  a.tar.gz\n" + sum("bee") + "  b.whl\n"
	if string(b) != want {
		t.Errorf("SHA256SUMS =\n%s\nwant\n%s", b, want)
	}
}

func TestSelectPlatforms(t *testing.T) {
	t.Parallel()
	all := []platform{{"manylinux2014_x86_64", "linux", "amd64"}, {"win_amd64", "windows", "amd64"}}
	got, err := selectPlatforms(all, []string{"win_amd64"})
	if err != nil || len(got) != 1 || got[0].GOOS != "windows" {
		t.Errorf("selectPlatforms(win_amd64) = %v, %v", got, err)
	}
	if _, err := selectPlatforms(all, []string{"linux_i686"}); err == nil || !strings.Contains(err.Error(), "manylinux2014_x86_64") {
		t.Errorf("selectPlatforms(linux_i686) error = %v, want one naming the platforms", err)
	}
}

func TestUsage(t *testing.T) {
	t.Parallel()
	var out, errw bytes.Buffer
	if code := run(nil, &out, &errw); code != 2 || !strings.Contains(errw.String(), "usage") {
		t.Errorf("run() = %d, stderr %q; want 2 and the usage", code, errw.String())
	}
}
