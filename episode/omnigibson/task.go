package omnigibson

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/openbddl/bddl/internal/b1klayout"
)

// Task is a task folder's files: its templates, its instance files and
// the definition beside them.
//
// The simulator writes two templates beside a task's *_instances folder:
// the whole scene (*_template.json) and the rooms the task loaded
// (*_template-partial_rooms.json). Both hold the same poses for the
// objects they share; the full one places every object of the scene (more
// evidence for the offset estimate, offsets.go), the partial one adds the
// versions and the room types the task loaded. When both are present
// Template is the full one and Partial the other, and ReadTask merges
// them; with one, Partial is "".
type Task struct {
	Template  string
	Partial   string
	Instances []string // sorted; empty when the template alone was named
	// Name is the task's (activity's) name and DefIndex the number of its
	// definition (problem<N>.bddl), from the template's name
	// (<scene>_task_<name>_<N>_<i>_template*.json), else the folder's.
	Name     string
	DefIndex int
	// Definition is the definition found for the task without being
	// told: problem*.bddl beside the template, else the task's
	// definition in the BEHAVIOR-1K tree around it
	// (joylo/sampled_task/<task> ↔ bddl3/bddl/activity_definitions/<task>);
	// "" if none. FindDefinition looks in more places.
	Definition string
}

const (
	instanceSuffix = "-tro_state.json"
	fullSuffix     = "_template.json"
	partialSuffix  = "_template-partial_rooms.json"
)

// IsTemplateName reports whether a file name is a template's.
func IsTemplateName(name string) bool {
	return strings.HasSuffix(name, fullSuffix) || strings.HasSuffix(name, partialSuffix)
}

// IsInstanceName reports whether a file name is an instance file's.
func IsInstanceName(name string) bool { return strings.HasSuffix(name, instanceSuffix) }

// FindTask resolves a path: a task folder (its templates and every
// instance under it), a task's *_instances folder (templates found in the
// folder above), a template (its own state), or an instance file (with the
// templates found beside it, in its folder or the folder above).
func FindTask(path string) (*Task, error) { return FindTaskWith(path, "") }

// FindTaskWith is FindTask with the template chosen: template, when not
// "", is the only template used, wherever it lies.
func FindTaskWith(path, template string) (*Task, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	t := &Task{}
	switch {
	case info.IsDir():
		if err := walkInstances(path, &t.Instances); err != nil {
			return nil, err
		}
		if err := t.findTemplates(path, "", template); err != nil {
			return nil, err
		}
	case IsTemplateName(info.Name()):
		if template != "" && filepath.Clean(template) != filepath.Clean(path) {
			return nil, fmt.Errorf("%s: a template, and --template names another (%s)", path, template)
		}
		t.Template = path
	case IsInstanceName(info.Name()):
		t.Instances = []string{path}
		if err := t.findTemplates(filepath.Dir(path), info.Name(), template); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	default:
		return nil, fmt.Errorf("%s: not a task folder, template (*%s, *%s) or instance file (*%s)", path, fullSuffix, partialSuffix, instanceSuffix)
	}
	t.Name, t.DefIndex = taskName(t.Template)
	t.Definition, _ = t.FindDefinition("")
	return t, nil
}

// FindTasks resolves a path as FindTask does, or, when no file has that
// name and it holds a glob pattern (*, ?, [), every file it matches:
// instance files grouped by the templates they use, one Task per group.
// A folder of task folders (the simulator's sampled_task) is every task
// in it, in name order; its available_tasks.yaml is not an input.
func FindTasks(path, template string) ([]*Task, error) {
	if subs := taskFolders(path); template == "" && len(subs) > 0 {
		out := make([]*Task, 0, len(subs))
		for _, d := range subs {
			t, err := FindTaskWith(d, "")
			if err != nil {
				return nil, err
			}
			out = append(out, t)
		}
		return out, nil
	}
	if _, err := os.Stat(path); err == nil || !strings.ContainsAny(path, "*?[") {
		t, err := FindTaskWith(path, template)
		if err != nil {
			return nil, err
		}
		return []*Task{t}, nil
	}
	matches, err := filepath.Glob(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(matches) == 0 {
		return nil, fmt.Errorf("%s: no file matches", path)
	}
	var out []*Task
	byKey := map[[2]string]*Task{}
	for _, m := range matches {
		t, err := FindTaskWith(m, template)
		if err != nil {
			return nil, err
		}
		k := [2]string{t.Template, t.Partial}
		if prev, ok := byKey[k]; ok && len(t.Instances) > 0 && len(prev.Instances) > 0 {
			prev.Instances = append(prev.Instances, t.Instances...)
			continue
		}
		byKey[k] = t
		out = append(out, t)
	}
	for _, t := range out {
		sort.Strings(t.Instances)
	}
	return out, nil
}

// taskFolders lists the task folders in dir when dir is a folder of them
// (no template of its own nor in the folder above, a template in each
// listed subfolder); nil otherwise.
func taskFolders(dir string) []string {
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		return nil
	}
	if ts, _ := templatesIn(dir); len(ts) > 0 {
		return nil
	}
	if ts, _ := templatesIn(filepath.Dir(dir)); len(ts) > 0 {
		return nil // an *_instances folder
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		d := filepath.Join(dir, e.Name())
		if ts, _ := templatesIn(d); len(ts) > 0 {
			out = append(out, d)
		}
	}
	return out
}

// templateName matches a template's name: scene, task, definition number
// and instance number.
var templateName = regexp.MustCompile(`^.+?_task_(.+)_(\d+)_(\d+)_template(?:-partial_rooms)?\.json$`)

// taskName is the task's name and definition number from its template's
// name, else the template's folder's name and 0.
func taskName(template string) (string, int) {
	if m := templateName.FindStringSubmatch(filepath.Base(template)); m != nil {
		n, err := strconv.Atoi(m[2])
		if err == nil {
			return m[1], n
		}
	}
	return filepath.Base(filepath.Dir(template)), 0
}

// DefinitionIn returns the task's definition in an activity_definitions
// folder (<lib>/<name>/problem<N>.bddl), "" when it has none.
func (t *Task) DefinitionIn(lib string) string {
	if lib == "" || t.Name == "" {
		return ""
	}
	p := filepath.Join(lib, t.Name, "problem"+strconv.Itoa(t.DefIndex)+".bddl")
	if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
		return p
	}
	return ""
}

// FindDefinition returns the task's definition, looking in order: beside
// its template; in lib, an activity_definitions folder the user named
// (--activities), when given; in the BEHAVIOR-1K tree around the task
// folder (the instances' own snapshot); in each of more (the knowledge
// base's package). tried lists where it looked, for the message when
// nothing is found.
func (t *Task) FindDefinition(lib string, more ...string) (path string, tried []string) {
	dir := filepath.Dir(t.Template)
	defs, _ := filepath.Glob(filepath.Join(dir, "problem*.bddl"))
	sort.Strings(defs)
	if len(defs) > 0 {
		return defs[0], nil
	}
	tried = append(tried, dir)
	libs := []string{lib}
	if l, ok := b1klayout.Around(dir); ok {
		libs = append(libs, l.Activities)
	}
	for _, lib := range append(libs, more...) {
		if lib == "" || slices.Contains(tried, lib) {
			continue
		}
		if p := t.DefinitionIn(lib); p != "" {
			return p, nil
		}
		tried = append(tried, lib)
	}
	return "", tried
}

// walkInstances lists the instance files under dir, at most two folders
// deep.
func walkInstances(dir string, out *[]string) error {
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && p != dir && strings.Count(strings.TrimPrefix(p, dir), string(filepath.Separator)) > 2 {
			return filepath.SkipDir
		}
		if !d.IsDir() && IsInstanceName(d.Name()) {
			*out = append(*out, p)
		}
		return nil
	})
	sort.Strings(*out)
	return err
}

// findTemplates sets the task's templates: the one chosen, else those in
// dir or, when it has none (an *_instances folder, an instance file in
// one), in the folder above. inst names an instance file to match
// template names against when there are several.
func (t *Task) findTemplates(dir, inst, chosen string) error {
	if chosen != "" {
		info, err := os.Stat(chosen)
		if err != nil {
			return fmt.Errorf("--template: %w", err)
		}
		if !info.Mode().IsRegular() || !IsTemplateName(info.Name()) {
			return fmt.Errorf("--template %s: not a template (*%s, *%s)", chosen, fullSuffix, partialSuffix)
		}
		t.Template = chosen
		return nil
	}
	var tmpls []string
	hint := inst
	for _, d := range []string{dir, filepath.Dir(dir)} {
		ts, err := templatesIn(d)
		if err != nil {
			return err
		}
		if len(ts) > 0 {
			tmpls = ts
			if d != dir && hint == "" {
				hint = filepath.Base(dir) // the *_instances folder's name
			}
			break
		}
	}
	if len(tmpls) == 0 {
		return fmt.Errorf("missing template: no *%s or *%s in %s or the folder above", fullSuffix, partialSuffix, dir)
	}
	var full, partial []string
	for _, p := range tmpls {
		if strings.HasSuffix(p, partialSuffix) {
			partial = append(partial, p)
		} else {
			full = append(full, p)
		}
	}
	full, partial = matching(full, hint), matching(partial, hint)
	if len(full) > 1 || len(partial) > 1 {
		return fmt.Errorf("%s: %d templates (%s): name one with --template", dir, len(tmpls), strings.Join(baseNames(tmpls), ", "))
	}
	switch {
	case len(full) == 1:
		t.Template = full[0]
		if len(partial) == 1 {
			t.Partial = partial[0]
		}
	default:
		t.Template = partial[0]
	}
	return nil
}

// matching narrows templates to those of the task a name (an instance
// file's, or an *_instances folder's) belongs to: the templates sharing
// the longest prefix with it, scene and task coming first in both.
func matching(tmpls []string, name string) []string {
	if len(tmpls) < 2 || name == "" {
		return tmpls
	}
	best, bestN := []string(nil), -1
	for _, t := range tmpls {
		b := filepath.Base(t)
		n := 0
		for n < len(b) && n < len(name) && b[n] == name[n] {
			n++
		}
		switch {
		case n > bestN:
			best, bestN = []string{t}, n
		case n == bestN:
			best = append(best, t)
		}
	}
	return best
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

func baseNames(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = filepath.Base(p)
	}
	return out
}

// Stem is the output name of an instance file: its name without .json.
func Stem(path string) string { return strings.TrimSuffix(filepath.Base(path), ".json") }

// ReadTask reads the task's template, merged with its partial-rooms
// template when it has one (Template.Merge). When neither records robot
// start poses, the first instance file's are kept as GroundPoses.
func ReadTask(t *Task) (*Template, error) {
	tmpl, err := ReadTemplate(t.Template)
	if err != nil {
		return nil, err
	}
	if t.Partial != "" {
		part, err := ReadTemplate(t.Partial)
		if err != nil {
			return nil, err
		}
		if err := tmpl.Merge(part); err != nil {
			return nil, err
		}
	}
	switch {
	case len(tmpl.Robots) > 0:
	case len(t.Instances) > 0:
		in, err := ReadInstance(t.Instances[0])
		if err != nil {
			return nil, err
		}
		tmpl.GroundPoses = in.Robots
	default:
		// A task with only its templates: the simulator keeps the robot's
		// start pose in the sampled_task folder's available_tasks.yaml.
		if tmpl.Robots, err = availableRobotPose(t, tmpl.Scene); err != nil {
			return nil, err
		}
	}
	return tmpl, nil
}

// Merge adds a partial-rooms template of the same task to a full one: the
// versions and room types it records, and any object the full template
// lacks. Both must bind the same instances to the same names.
func (t *Template) Merge(p *Template) error {
	if len(t.Bindings) != len(p.Bindings) {
		return fmt.Errorf("%s and %s bind different instances (%d and %d): not templates of one task", t.Path, p.Path, len(t.Bindings), len(p.Bindings))
	}
	names := make(map[string]string, len(t.Bindings))
	for _, b := range t.Bindings {
		names[b.Instance] = b.Name
	}
	for _, b := range p.Bindings {
		if n, ok := names[b.Instance]; !ok || n != b.Name {
			return fmt.Errorf("%s binds %s to %s, %s to %q: not templates of one task", p.Path, b.Instance, b.Name, t.Path, n)
		}
	}
	t.Partial = p.Path
	if t.Versions == nil {
		t.Versions = p.Versions
	}
	if t.RoomTypes == nil {
		t.RoomTypes = p.RoomTypes
	}
	if t.Scene == "" {
		t.Scene = p.Scene
	}
	for i := range p.Objects {
		o := &p.Objects[i]
		if _, ok := t.byName[o.Name]; ok {
			continue
		}
		t.byName[o.Name] = len(t.Objects)
		t.Objects = append(t.Objects, *o)
	}
	for name, s := range p.Systems {
		if _, ok := t.Systems[name]; !ok {
			t.Systems[name] = s
		}
	}
	if len(t.Robots) == 0 {
		t.Robots = p.Robots
	}
	return nil
}
