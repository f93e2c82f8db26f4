package dora

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/internal/fsutil"
)

// AnnotationSuffix ends the name of an annotation file beside
// metadata.json: <annotator>_annotation.json (bddl_annotation.json,
// human_annotation.json).
const AnnotationSuffix = "_annotation.json"

const maxAnnotation = 1 << 20

// AnnotationPath is an annotator's file in an episode folder.
func AnnotationPath(dir, annotator string) string {
	return filepath.Join(dir, annotator+AnnotationSuffix)
}

// Annotate writes an annotation as <annotator>_annotation.json beside
// metadata.json, atomically; an existing file is refused unless force.
func Annotate(dir string, a *recording.Annotation, force bool) error {
	if a.Annotator == "" || strings.ContainsAny(a.Annotator, `/\`) || a.Annotator == "." || a.Annotator == ".." {
		return fmt.Errorf("annotator %q: a name without / is needed", a.Annotator)
	}
	if !IsEpisodeDir(dir) {
		return fmt.Errorf("%s: not a Dora-record episode folder (no metadata.json)", dir)
	}
	p := AnnotationPath(dir, a.Annotator)
	if _, err := os.Lstat(p); err == nil && !force {
		return fmt.Errorf("%s: already annotated by %s (give --force to replace it)", p, a.Annotator)
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	return fsutil.WriteFileAtomic(p, a.MarshalFile())
}

// Annotations reads every <annotator>_annotation.json of an episode
// folder, sorted by annotator.
func Annotations(dir string) ([]*recording.Annotation, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []*recording.Annotation
	for _, ent := range ents {
		name, ok := strings.CutSuffix(ent.Name(), AnnotationSuffix)
		if !ok || name == "" || !ent.Type().IsRegular() {
			continue
		}
		p := filepath.Join(dir, ent.Name())
		data, err := fsutil.ReadFile(p, maxAnnotation)
		if err != nil {
			return nil, err
		}
		a, err := recording.ParseAnnotationFile(p, data)
		if err != nil {
			return nil, err
		}
		a.Annotator = name
		out = append(out, a)
	}
	slices.SortFunc(out, func(a, b *recording.Annotation) int { return strings.Compare(a.Annotator, b.Annotator) })
	return out, nil
}
