package omnigibson

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Task is a task folder's files: its template, its instance files and the
// definition beside them.
type Task struct {
	Template   string
	Instances  []string // sorted; empty when the template alone was named
	Definition string   // problem*.bddl beside the template, "" if none
}

const instanceSuffix = "-tro_state.json"

// IsTemplateName reports whether a file name is a template's.
func IsTemplateName(name string) bool {
	return strings.HasSuffix(name, "_template.json") || strings.HasSuffix(name, "_template-partial_rooms.json")
}

// IsInstanceName reports whether a file name is an instance file's.
func IsInstanceName(name string) bool { return strings.HasSuffix(name, instanceSuffix) }

// FindTask resolves a path: a task folder (its template and every
// instance under it), a template, or an instance file (with the template
// found beside it, in its folder or the folder above).
func FindTask(path string) (*Task, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	t := &Task{}
	switch {
	case info.IsDir():
		tmpls, err := templatesIn(path)
		if err != nil {
			return nil, err
		}
		if len(tmpls) != 1 {
			if len(tmpls) == 0 {
				return nil, fmt.Errorf("%s: no *_template.json or *_template-partial_rooms.json: not a task folder", path)
			}
			return nil, fmt.Errorf("%s: %d templates (%s): name one", path, len(tmpls), strings.Join(baseNames(tmpls), ", "))
		}
		t.Template = tmpls[0]
		err = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != path && strings.Count(strings.TrimPrefix(p, path), string(filepath.Separator)) > 2 {
				return filepath.SkipDir
			}
			if !d.IsDir() && IsInstanceName(d.Name()) {
				t.Instances = append(t.Instances, p)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		sort.Strings(t.Instances)
	case IsTemplateName(info.Name()):
		t.Template = path
	case IsInstanceName(info.Name()):
		t.Instances = []string{path}
		dir := filepath.Dir(path)
		var tmpls []string
		for _, d := range []string{dir, filepath.Dir(dir)} {
			ts, err := templatesIn(d)
			if err != nil {
				return nil, err
			}
			if len(ts) > 0 {
				tmpls = ts
				break
			}
		}
		if len(tmpls) == 0 {
			return nil, fmt.Errorf("%s: missing template: no *_template.json or *_template-partial_rooms.json in %s or the folder above", path, dir)
		}
		t.Template = closestTemplate(tmpls, info.Name())
	default:
		return nil, fmt.Errorf("%s: not a task folder, template (*_template.json, *_template-partial_rooms.json) or instance file (*%s)", path, instanceSuffix)
	}
	defs, _ := filepath.Glob(filepath.Join(filepath.Dir(t.Template), "problem*.bddl"))
	sort.Strings(defs)
	if len(defs) > 0 {
		t.Definition = defs[0]
	}
	return t, nil
}

func templatesIn(dir string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() && IsTemplateName(e.Name()) {
			out = append(out, filepath.Join(dir, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// closestTemplate picks the template whose name shares the longest prefix
// with the instance's (scene and task come first in both).
func closestTemplate(tmpls []string, inst string) string {
	best, bestN := tmpls[0], -1
	for _, t := range tmpls {
		b := filepath.Base(t)
		n := 0
		for n < len(b) && n < len(inst) && b[n] == inst[n] {
			n++
		}
		if n > bestN {
			best, bestN = t, n
		}
	}
	return best
}

func baseNames(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = filepath.Base(p)
	}
	return out
}

// Stem is the output name of an instance file: its name without .json.
func Stem(path string) string { return strings.TrimSuffix(filepath.Base(path), ".json") }
