package oopsie

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/scigolib/hdf5"

	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/h5util"
)

// ErrExists is the error of annotating with an annotator whose group
// exists, without force.
var ErrExists = errors.New("exists")

// ValidAnnotator reports whether a name can be an annotator group's.
func ValidAnnotator(name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsAny(name, "/\x00") {
		return fmt.Errorf("annotator %q: a name without / is needed", name)
	}
	return nil
}

// Annotate writes an annotation into an episode file as
// episode_annotations/<a.Annotator>/, refusing to replace an existing
// group unless force. The file is rewritten atomically (see the package
// documentation); every other object is proven unchanged through the
// reader before the original is replaced.
func Annotate(path string, a *recording.Annotation, force bool) error {
	if err := ValidAnnotator(a.Annotator); err != nil {
		return err
	}
	// A link is followed: the file it names is annotated, the link kept.
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return err
	}
	// The whole read-modify-replace holds the file's lock, so that two
	// annotators serialise (each writes its group into the other's
	// result) and an HDF5 writer's file is not replaced under it.
	unlock, err := fsutil.LockForReplace(real, LockWait)
	if err != nil {
		return &Error{File: path, Row: -1, Msg: err.Error()}
	}
	defer unlock()
	fsutil.SweepTemps(real) // copies a killed run left
	return annotate(real, a, force)
}

// LockWait is how long Annotate waits for another holder of a file's lock.
var LockWait = 30 * time.Second

func annotate(path string, a *recording.Annotation, force bool) error {
	e, err := Open(path)
	if err != nil {
		return err
	}
	e.Close()
	group := AnnotationsGroup + "/" + a.Annotator
	if e.Annotation(a.Annotator) != nil && !force {
		return &Error{File: path, Path: group, Row: -1, Msg: "already annotated by " + a.Annotator + " (give --force to replace it): " + ErrExists.Error()}
	}
	before, err := takeSnapshot(path)
	if err != nil {
		return err
	}
	// The attributes of the annotator groups kept, as read; rebuildErr
	// says why they could not be re-created, should that be needed.
	kept := map[string]map[string]any{}
	var rebuildErr error
	hasGroup, hasMine := false, false
	if f, err := hdf5.Open(path); err == nil {
		if msg := unwritable(f); msg != "" {
			f.Close()
			return &Error{File: path, Path: group, Row: -1, Msg: msg}
		}
		if g, ok := h5util.Lookup(f.Root(), AnnotationsGroup).(*hdf5.Group); ok {
			hasGroup = true
			for _, c := range g.Children() {
				cg, ok := c.(*hdf5.Group)
				if ok && c.Name() == a.Annotator {
					hasMine = true
				}
				if !ok || c.Name() == a.Annotator {
					continue
				}
				p := AnnotationsGroup + "/" + c.Name()
				if kept[c.Name()], err = attrsOf(cg); err != nil {
					f.Close()
					return &Error{File: path, Path: p, Row: -1, Msg: err.Error()}
				}
				switch n := len(kept[c.Name()]); {
				case len(cg.Children()) > 0:
					rebuildErr = &Error{File: path, Path: p, Row: -1, Msg: "an annotator group holding more than attributes: not rewritten"}
				case n > hdf5.MaxCompactAttributes:
					// beyond eight the library's dense storage, which
					// libhdf5 cannot read (third_party/hdf5/PATCHES.md)
					rebuildErr = &Error{File: path, Path: p, Row: -1,
						Msg: fmt.Sprintf("an annotator group of %d attributes (at most %d can be re-created): not rewritten", n, hdf5.MaxCompactAttributes)}
				}
			}
		}
		f.Close()
	}
	info, err := os.Stat(path)
	if err != nil {
		return err
	}
	if err := fsutil.CheckReplaceable(path, info); err != nil {
		return err
	}
	// In place first: only the annotator's group is written (and, with
	// force, the old one unlinked); every other group keeps its bytes.
	tmp, err := copyBeside(path, info)
	if err != nil {
		return err
	}
	defer func() { os.Remove(tmp) }() // a no-op once renamed
	err = inPlace(tmp, hasGroup, hasMine, a)
	if err == nil {
		err = verify(path, tmp, before, kept, a)
	}
	if err == nil {
		return os.Rename(tmp, path)
	}
	// Else (a group the library cannot add to, such as one using link
	// messages) episode_annotations is made again in a fresh copy.
	if rebuildErr != nil {
		return rebuildErr
	}
	os.Remove(tmp)
	if tmp, err = copyBeside(path, info); err != nil {
		return err
	}
	if err := writeAnnotations(tmp, hasGroup, kept, a); err != nil {
		return &Error{File: path, Path: group, Row: -1, Msg: "cannot write the annotation (the file is unchanged): " + err.Error()}
	}
	if err := verify(path, tmp, before, kept, a); err != nil {
		return &Error{File: path, Path: group, Row: -1, Msg: "the rewritten file did not read back as expected (the file is unchanged): " + err.Error()}
	}
	return os.Rename(tmp, path)
}

// unwritable says why the HDF5 library cannot write the annotation into
// f, "" when it can: it reads every layout h5py writes, but adds groups
// only to groups of symbol tables, at the addresses of a file without a
// userblock (third_party/hdf5/PATCHES.md).
func unwritable(f *hdf5.File) string {
	const how = "; bddl reads such a file but cannot annotate it: annotate it with h5py, or rewrite it in h5py's default layout (h5py.File(..., \"w\") with no libver, track_order or userblock_size) and annotate the copy"
	if n := f.UserblockSize(); n > 0 {
		return fmt.Sprintf("the file has a %d-byte userblock (h5py's userblock_size)", n) + how
	}
	for _, p := range []string{"", AnnotationsGroup} {
		g, ok := f.Root(), true
		if p != "" {
			g, ok = h5util.Lookup(f.Root(), p).(*hdf5.Group)
		}
		if ok && g.LinkStorage() {
			name := "the root group"
			if p != "" {
				name = p
			}
			return name + " stores its links as link messages (h5py's libver=\"latest\" or track_order=True)" + how
		}
	}
	return ""
}

// inPlace is writeAnnotation; tests replace it to take the other way.
var inPlace = writeAnnotation

// writeAnnotation writes a's group into the copy in place: under the
// existing episode_annotations group (made when there is none), the old
// group of the same annotator unlinked first.
func writeAnnotation(tmp string, hasGroup, hasMine bool, a *recording.Annotation) error {
	return editHDF5(tmp, func(fw *hdf5.FileWriter) error {
		path := "/" + AnnotationsGroup + "/" + a.Annotator
		switch {
		case hasMine:
			// the library frees only empty groups: the old one's storage
			// stays, unreachable
			if err := fw.Delete(path); err != nil && !strings.Contains(err.Error(), "cascade delete failed") {
				return err
			}
		case !hasGroup:
			if _, err := fw.CreateGroup("/" + AnnotationsGroup); err != nil {
				return err
			}
		}
		g, err := fw.CreateGroup(path)
		if err != nil {
			return err
		}
		return writeAnnotationAttrs(g, a)
	})
}

// editHDF5 opens the copy for writing, runs edit, and closes it; a panic
// of the HDF5 library is an error.
func editHDF5(tmp string, edit func(fw *hdf5.FileWriter) error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("the HDF5 library failed (%v)", p)
		}
	}()
	fw, err := hdf5.OpenForWrite(tmp, hdf5.OpenReadWrite)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := fw.Close(); err == nil && cerr != nil {
			err = cerr
		}
	}()
	return edit(fw)
}

// copyBeside copies a file to a temporary file in its directory, with
// its mode and (where allowed) its owner.
func copyBeside(path string, info os.FileInfo) (string, error) {
	src, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer src.Close()
	dst, err := os.CreateTemp(filepath.Dir(path), fsutil.TempPattern(path))
	if err != nil {
		return "", err
	}
	name := dst.Name()
	_, err = io.Copy(dst, src)
	if err == nil {
		err = fsutil.KeepIdentity(path, dst, info)
	}
	err = errors.Join(err, dst.Sync(), dst.Close())
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// writeAnnotationAttrs writes a's attributes on its group.
func writeAnnotationAttrs(g interface{ WriteAttribute(string, any) error }, a *recording.Annotation) error {
	for _, kv := range annotationAttrs(a) {
		if err := g.WriteAttribute(kv[0].(string), kv[1]); err != nil {
			return fmt.Errorf("attribute %s: %v", kv[0], err)
		}
	}
	return nil
}

// annotationAttrs are the attributes written, in order: every one of the
// layout's, success as a float64 scalar (1.0 or 0.0). The fork of the HDF5
// library (third_party/hdf5/PATCHES.md) writes them as libhdf5 does, so
// h5py reads the same values.
func annotationAttrs(a *recording.Annotation) [][2]any {
	return [][2]any{{"source", a.Source}, {"timestamp", a.Timestamp}, {"success", a.Success},
		{"failure_description", a.FailureDescription}, {"taxonomy", a.Taxonomy},
		{"additional_notes", a.AdditionalNotes}}
}

// writeAnnotations gives the copy a new episode_annotations group: the
// kept annotator groups re-created with their attributes, and a's.
func writeAnnotations(tmp string, had bool, kept map[string]map[string]any, a *recording.Annotation) error {
	return editHDF5(tmp, func(fw *hdf5.FileWriter) error {
		if had {
			// The library adds groups only under the root or groups it made:
			// the old group is unlinked (its storage is left in place: the
			// library frees only empty groups) and made again.
			if err := fw.Delete("/" + AnnotationsGroup); err != nil && !strings.Contains(err.Error(), "cascade delete failed") {
				return err
			}
		}
		if _, err := fw.CreateGroup("/" + AnnotationsGroup); err != nil {
			return err
		}
		names := make([]string, 0, len(kept)+1)
		for n := range kept {
			names = append(names, n)
		}
		names = append(names, a.Annotator)
		slices.Sort(names)
		for _, n := range names {
			g, err := fw.CreateGroup("/" + AnnotationsGroup + "/" + n)
			if err != nil {
				return err
			}
			if n == a.Annotator {
				if err := writeAnnotationAttrs(g, a); err != nil {
					return err
				}
				continue
			}
			attrs := kept[n]
			keys := make([]string, 0, len(attrs))
			for k := range attrs {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if err := g.WriteAttribute(k, attrs[k]); err != nil {
					return fmt.Errorf("%s/%s attribute %s: %v", AnnotationsGroup, n, k, err)
				}
			}
		}
		return nil
	})
}

// verify reads the copy back: every object outside episode_annotations as
// in the original, the kept annotator groups' attributes as they were,
// a's group with its attributes, and nothing else.
func verify(orig, tmp string, before snapshot, kept map[string]map[string]any, a *recording.Annotation) error {
	after, err := takeSnapshot(tmp)
	if err != nil {
		return err
	}
	prefix := "/" + AnnotationsGroup
	for p, sum := range before {
		if p == prefix || strings.HasPrefix(p, prefix+"/") {
			continue
		}
		got, ok := after[p]
		if !ok {
			return fmt.Errorf("%s is missing", p)
		}
		if got != sum {
			return fmt.Errorf("%s changed", p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok && p != prefix && !strings.HasPrefix(p, prefix+"/") {
			return fmt.Errorf("%s appeared", p)
		}
	}
	f, err := hdf5.Open(tmp)
	if err != nil {
		return err
	}
	defer f.Close()
	g, ok := h5util.Lookup(f.Root(), AnnotationsGroup).(*hdf5.Group)
	if !ok {
		return fmt.Errorf("%s is missing", prefix)
	}
	want := map[string]map[string]any{}
	for n, attrs := range kept {
		want[n] = attrs
	}
	mine := map[string]any{}
	for _, kv := range annotationAttrs(a) {
		mine[kv[0].(string)] = kv[1]
	}
	want[a.Annotator] = mine
	if len(g.Children()) != len(want) {
		return fmt.Errorf("%s has %d groups, expected %d", prefix, len(g.Children()), len(want))
	}
	for _, c := range g.Children() {
		w, ok := want[c.Name()]
		if !ok {
			return fmt.Errorf("%s/%s appeared", prefix, c.Name())
		}
		got, err := attrsOf(c)
		if err != nil {
			return err
		}
		if len(got) != len(w) {
			return fmt.Errorf("%s/%s has %d attributes, expected %d", prefix, c.Name(), len(got), len(w))
		}
		for k, v := range w {
			if fmt.Sprintf("%#v", got[k]) != fmt.Sprintf("%#v", v) {
				return fmt.Errorf("%s/%s attribute %s reads %#v, expected %#v", prefix, c.Name(), k, got[k], v)
			}
		}
	}
	return nil
}
