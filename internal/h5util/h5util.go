// Package h5util holds the small lookups over the HDF5 library's tree
// that every reader of HDF5 recordings (RoboLab run files, Oopsie
// episodes) needs.
package h5util

import (
	"strconv"
	"strings"

	"github.com/scigolib/hdf5"
)

// Child finds a group's member by name; nil when absent.
func Child(g *hdf5.Group, name string) hdf5.Object {
	for _, c := range g.Children() {
		if c.Name() == name {
			return c
		}
	}
	return nil
}

// Lookup follows a slash-separated path of names from g; nil when any
// name is absent or a step is not a group.
func Lookup(g *hdf5.Group, path string) hdf5.Object {
	var cur hdf5.Object = g
	for _, name := range strings.Split(path, "/") {
		grp, ok := cur.(*hdf5.Group)
		if !ok {
			return nil
		}
		if cur = Child(grp, name); cur == nil {
			return nil
		}
	}
	return cur
}

// ArrayDims reads the shape from the library's description of a dataset
// that is not chunked ("… 2D array [36 x 7] …" or "… 3D array [36 8 3] …"),
// the only place the library gives it; false when the description holds
// no array shape.
func ArrayDims(info string) ([]uint64, bool) {
	i := strings.Index(info, "array [")
	if i < 0 {
		return nil, false
	}
	rest := info[i+len("array ["):]
	j := strings.IndexByte(rest, ']')
	if j < 0 {
		return nil, false
	}
	var dims []uint64
	for _, f := range strings.FieldsFunc(rest[:j], func(r rune) bool { return r == ' ' || r == 'x' || r == ',' }) {
		d, err := strconv.ParseUint(f, 10, 64)
		if err != nil {
			return nil, false
		}
		dims = append(dims, d)
	}
	return dims, len(dims) > 0
}
