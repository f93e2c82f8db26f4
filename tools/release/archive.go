package main

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

const sumsName = "SHA256SUMS"

// archiveName is the CLI archive of p: bddl-VERSION-GOOS-GOARCH.tar.gz,
// .zip for Windows (where tar.gz is not opened by double-click).
func archiveName(version string, p platform) string {
	base := fmt.Sprintf("bddl-%s-%s-%s", version, p.GOOS, p.GOARCH)
	if p.GOOS == "windows" {
		return base + ".zip"
	}
	return base + ".tar.gz"
}

// archiveEntry is one file of a CLI archive.
type archiveEntry struct {
	name string
	mode int64
	data []byte
}

// writeArchive writes the CLI archive of p into dir: a folder named as
// the archive holding the binary, LICENSE and README.md. Every entry has
// the commit's time, a fixed mode and no owner, so the bytes depend on
// the inputs only.
func writeArchive(dir, root, bin string, p platform, st stamp) (string, error) {
	var entries []archiveEntry
	for _, f := range []struct {
		path, name string
		mode       int64
	}{{bin, p.exe(), 0o755}, {filepath.Join(root, "LICENSE"), "LICENSE", 0o644}, {filepath.Join(root, "README.md"), "README.md", 0o644}} {
		b, err := os.ReadFile(f.path)
		if err != nil {
			return "", err
		}
		entries = append(entries, archiveEntry{f.name, f.mode, b})
	}
	name := archiveName(st.Version, p)
	folder := strings.TrimSuffix(strings.TrimSuffix(name, ".zip"), ".tar.gz")
	var buf bytes.Buffer
	var err error
	if p.GOOS == "windows" {
		err = writeZip(&buf, folder, entries, st.Time)
	} else {
		err = writeTarGz(&buf, folder, entries, st.Time)
	}
	if err != nil {
		return "", err
	}
	return name, writeFileAtomic(filepath.Join(dir, name), buf.Bytes())
}

func writeTarGz(w io.Writer, folder string, entries []archiveEntry, at time.Time) error {
	gz, err := gzip.NewWriterLevel(w, gzip.BestCompression) // header: no name, no time
	if err != nil {
		return err
	}
	tw := tar.NewWriter(gz)
	if err := tw.WriteHeader(&tar.Header{Typeflag: tar.TypeDir, Name: folder + "/", Mode: 0o755, ModTime: at, Format: tar.FormatPAX}); err != nil {
		return err
	}
	for _, e := range entries {
		h := &tar.Header{Typeflag: tar.TypeReg, Name: folder + "/" + e.name, Mode: e.mode, Size: int64(len(e.data)), ModTime: at, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if _, err := tw.Write(e.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(w io.Writer, folder string, entries []archiveEntry, at time.Time) error {
	zw := zip.NewWriter(w)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression)
	})
	for _, e := range entries {
		h := &zip.FileHeader{Name: folder + "/" + e.name, Method: zip.Deflate, Modified: at.UTC()}
		h.SetMode(os.FileMode(e.mode))
		f, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := f.Write(e.data); err != nil {
			return err
		}
	}
	return zw.Close()
}

// writeSums writes SHA256SUMS into dir for the named files of dir, in
// the format of sha256sum (so `sha256sum -c SHA256SUMS` checks them),
// sorted by name.
func writeSums(dir string, files []string) error {
	names := append([]string(nil), files...)
	sort.Strings(names)
	var buf bytes.Buffer
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		fmt.Fprintf(&buf, "%s  %s\n", hex.EncodeToString(sum[:]), n)
	}
	return writeFileAtomic(filepath.Join(dir, sumsName), buf.Bytes())
}

// writeFileAtomic replaces path with data: a file beside it, renamed
// over it, so an interrupted release never leaves half an archive.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".release-*")
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(f.Name())
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(f.Name())
		return err
	}
	return os.Rename(f.Name(), path)
}
