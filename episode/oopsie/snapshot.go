package oopsie

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"hash"
	"math"
	"slices"
	"strings"

	"github.com/scigolib/hdf5"
)

// snapshot is every object of a file as the reader sees it: for each
// path, a digest of its kind, shape, attributes and values. Annotate
// compares the file it wrote with the original through it.
type snapshot map[string][sha256.Size]byte

// takeSnapshot reads every object of a file; values are hashed a block
// at a time, so memory stays bounded.
func takeSnapshot(path string) (s snapshot, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("%s: corrupt HDF5 file (%v)", path, p)
		}
	}()
	f, err := hdf5.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	s = snapshot{}
	var walkErr error
	f.Walk(func(p string, o hdf5.Object) {
		if walkErr != nil {
			return
		}
		h := sha256.New()
		attrs, err := attrsOf(o)
		if err != nil {
			walkErr = fmt.Errorf("%s: %s: %v", path, p, err)
			return
		}
		hashAttrs(h, attrs)
		switch x := o.(type) {
		case *hdf5.Group:
			h.Write([]byte("group"))
			names := make([]string, 0, len(x.Children()))
			for _, c := range x.Children() {
				if p == "/" && c.Name() == AnnotationsGroup {
					continue // compared on its own
				}
				names = append(names, c.Name())
			}
			slices.Sort(names)
			fmt.Fprintf(h, "%q", names)
		case *hdf5.Dataset:
			if err := hashDataset(h, path, p, x); err != nil {
				walkErr = err
				return
			}
		}
		var sum [sha256.Size]byte
		copy(sum[:], h.Sum(nil))
		s[strings.TrimSuffix(p, "/")] = sum
	})
	return s, walkErr
}

func hashAttrs(h hash.Hash, attrs map[string]any) {
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		fmt.Fprintf(h, "%q=%#v;", n, attrs[n])
	}
}

func hashDataset(h hash.Hash, file, p string, ds *hdf5.Dataset) error {
	info, err := ds.Info()
	if err != nil {
		return fmt.Errorf("%s: %s: %v", file, p, err)
	}
	h.Write([]byte("dataset " + info))
	dims, ok := dimsOfInfo(info)
	if !ok {
		return fmt.Errorf("%s: %s: unreadable shape %s", file, p, info)
	}
	if strings.Contains(info, "float") || strings.Contains(info, "integer") || strings.Contains(info, "int") {
		rows, width := 1, 1
		if len(dims) > 0 {
			rows = int(dims[0])
		}
		for _, d := range dims[1:] {
			width *= int(d)
		}
		if rows == 0 || width == 0 {
			return nil
		}
		if len(dims) > 2 {
			v, err := ds.Read()
			if err != nil {
				return fmt.Errorf("%s: %s: %v", file, p, err)
			}
			hashFloats(h, v)
			return nil
		}
		r := newRowReader(file, Dataset{Path: p, Rows: rows, Width: width, ds: ds})
		for k := 0; k < rows; k += r.per {
			if _, err := r.row(k); err != nil {
				return err
			}
			hashFloats(h, r.block)
		}
		return nil
	}
	if bs, err := ds.ReadVLenBytes(); err == nil {
		for _, b := range bs {
			fmt.Fprintf(h, "%q", b)
		}
		return nil
	}
	if ss, err := ds.ReadStrings(); err == nil {
		fmt.Fprintf(h, "%q", ss)
		return nil
	}
	return fmt.Errorf("%s: %s: a dataset of a type this reader cannot compare (%s)", file, p, info)
}

func hashFloats(h hash.Hash, v []float64) {
	var b [8]byte
	for _, x := range v {
		binary.LittleEndian.PutUint64(b[:], math.Float64bits(x))
		h.Write(b[:])
	}
}
