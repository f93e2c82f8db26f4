package ogconvert

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
)

// maxDefinitionBytes bounds a definition file read (the largest
// BEHAVIOR-1K definitions are tens of kilobytes).
const maxDefinitionBytes = 16 << 20

// Options say how paths become jobs.
type Options struct {
	Activity string // --activity: a problem file or a name in Library
	Library  string // --activities
	Robot    string // --robot
	Template string // --template
	// KBActivities is the activity_definitions folder of the knowledge
	// base's package, searched last; "" for none.
	KBActivities string
	Base         *kb.Base
	Offsets      omnigibson.OffsetMode
	Dataset      *omnigibson.Dataset
	// Diagnostics receives the definitions' warnings, once each.
	Diagnostics io.Writer
	// DefinitionCopy is the text of the copy of a definition written
	// beside its episodes.
	DefinitionCopy func(path string, src []byte) []byte
}

// Definition is a job's definition: its canonical name and the text of
// its copy.
type Definition struct {
	Name string
	Src  []byte
}

// A UsageError is a problem of the command line (a path, a definition, a
// robot) rather than of the data.
type UsageError = batch.UsageError

func usage(format string, args ...any) error { return batch.Usage(format, args...) }

// Plan resolves the paths into conversion jobs: one Converter per
// template and definition, however many paths name its instances, and
// each definition read (and its warnings printed) once. defs[i] is the
// definition of jobs[i], copied beside its episode. An error is a
// *UsageError, or the data's (a template that cannot be read or
// converted).
func Plan(paths []string, o Options) ([]*omnigibson.Job, []Definition, error) {
	var tasks []*omnigibson.Task
	for _, p := range paths {
		ts, err := omnigibson.FindTasks(p, o.Template)
		if err != nil {
			return nil, nil, &UsageError{Err: err}
		}
		tasks = append(tasks, ts...)
	}
	type readDef struct {
		problem *bddl.Problem
		def     Definition
	}
	read := map[string]readDef{}
	convs := map[[3]string]*omnigibson.Converter{}
	pool := omnigibson.NewPool() // as check --init: the tasks' templates fill each other's gaps
	var jobs []*omnigibson.Job
	var defs []Definition
	for _, task := range tasks {
		defPath, err := o.DefinitionPath(task)
		if err != nil {
			return nil, nil, err
		}
		rd, ok := read[defPath]
		if !ok {
			problem, src, err := o.ReadDefinition(defPath)
			if err != nil {
				return nil, nil, err
			}
			rd = readDef{problem, Definition{activities.CanonicalName(defPath, problem), src}}
			read[defPath] = rd
		}
		key := [3]string{task.Template, task.Partial, defPath}
		conv := convs[key]
		if conv == nil {
			tmpl, err := omnigibson.ReadTask(task)
			if err != nil {
				return nil, nil, err
			}
			if o.Robot != "" && len(tmpl.Robots) > 0 && !tmpl.HasRobot(o.Robot) {
				return nil, nil, usage("--robot %s: %s has start poses for %s", o.Robot, task.Template, tmpl.RobotNames())
			}
			conv, err = omnigibson.NewConverter(tmpl, rd.problem, defPath, o.Base, omnigibson.Options{
				Robot: o.Robot, Offsets: o.Offsets, Dataset: o.Dataset, Activity: rd.def.Name, Pool: pool})
			if err != nil {
				return nil, nil, err
			}
			convs[key] = conv
		}
		if len(task.Instances) == 0 {
			jobs = append(jobs, &omnigibson.Job{Conv: conv, Template: task.Template})
			defs = append(defs, rd.def)
		}
		for _, in := range task.Instances {
			jobs = append(jobs, &omnigibson.Job{Conv: conv, Instance: in, Template: task.Template})
			defs = append(defs, rd.def)
		}
	}
	return jobs, defs, nil
}

// DefinitionPath resolves the definition a task is checked against:
// --activity, else the task's own (beside its template; in --activities;
// in the BEHAVIOR-1K tree around the task folder; in the package of the
// knowledge base in use), by the task's name.
func (o *Options) DefinitionPath(task *omnigibson.Task) (string, error) {
	switch {
	case o.Activity != "" && (strings.HasSuffix(o.Activity, ".bddl") || IsFile(o.Activity)):
		return o.Activity, nil
	case o.Activity != "":
		if o.Library == "" {
			return "", usage("--activity %s: give a problem file, or --activities DIR to find the name in", o.Activity)
		}
		return filepath.Join(o.Library, o.Activity, "problem0.bddl"), nil
	}
	var more []string
	if o.KBActivities != "" {
		more = append(more, o.KBActivities)
	}
	path, tried := task.FindDefinition(o.Library, more...)
	if path == "" {
		return "", usage("%s: no definition of task %s (problem%d.bddl) found in %s: name it with --activity FILE, or the activity_definitions folder holding it with --activities",
			filepath.Dir(task.Template), task.Name, task.DefIndex, strings.Join(tried, ", "))
	}
	return path, nil
}

// ReadDefinition parses a definition as the reference reads it, printing
// its warnings (once: callers read each definition once), and returns it
// with the copy written beside its episodes.
func (o *Options) ReadDefinition(path string) (*bddl.Problem, []byte, error) {
	src, err := fsutil.ReadFile(path, maxDefinitionBytes)
	if err != nil {
		return nil, nil, usage("definition: %v", err)
	}
	p, diags := bddl.Options{Mode: bddl.Reference}.ParseProblem(path, src)
	if diags.HasErrors() {
		for _, d := range diags {
			fmt.Fprintln(o.Diagnostics, d)
		}
		return nil, nil, usage("definition %s has errors", path)
	}
	diags.WriteText(o.Diagnostics)
	return p, o.DefinitionCopy(path, src), nil
}

// IsFile reports whether p is a regular file.
func IsFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}
