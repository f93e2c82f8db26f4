package initcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// Job is one state whose :init is evaluated: an OmniGibson instance or
// template (converted in memory), an episode file, or a state of another
// kind that evaluates itself (Own).
type Job struct {
	Path     string
	Rel      string // relative to its argument: what --shard hashes
	Activity string
	// Own evaluates a job of another kind (a LIBERO episode); the
	// fields below are then unused.
	Own func() Result

	eval     *omnigibson.InitEvaluator // one per definition
	conv     *omnigibson.Converter     // nil for an episode file
	template bool                      // the template's own state
}

// Definitions says where the definitions of the states are, as the
// command's flags decide.
type Definitions struct {
	// Activity, when set, is the definition file of every episode file
	// (--activity); else each episode's header names its own.
	Activity string
	// TaskDefinition finds the definition of an OmniGibson task.
	TaskDefinition func(*omnigibson.Task) (string, error)
	// Read parses a definition (reporting its warnings); it is called
	// once per definition.
	Read func(path string) (*bddl.Problem, error)
	// Geometry decides the geometric atoms.
	Geometry predicates.Geometry
}

// Jobs resolves the paths into check --init's job list (initJobs, when
// it lived in cmd/bddl): episode files (and directories holding only
// episodes) are read as they are; anything else is taken for an
// OmniGibson task (FindTasks), one Converter per template and definition.
// The errors of defs' functions are returned as they are.
func Jobs(paths []string, base *kb.Base, defs Definitions) ([]*Job, error) {
	type def struct {
		problem *bddl.Problem
		eval    *omnigibson.InitEvaluator
		name    string // the canonical activity name, as every record has it
	}
	read := map[string]def{}
	readDef := func(path string) (def, error) {
		if d, ok := read[path]; ok {
			return d, nil
		}
		p, err := defs.Read(path)
		if err != nil {
			return def{}, err
		}
		d := def{p, omnigibson.NewInitEvaluatorOptions(p, base, predicates.Options{Geometry: defs.Geometry}), activities.CanonicalName(path, p)}
		read[path] = d
		return d, nil
	}
	convs := map[[3]string]*omnigibson.Converter{}
	pool := omnigibson.NewPool() // every task's template votes on the models they share
	var jobs []*Job
	for _, path := range paths {
		if eps := episodeFiles(path); len(eps) > 0 {
			for _, ep := range eps {
				defPath := defs.Activity
				if defPath == "" {
					h, err := episodeHeader(ep)
					if err != nil {
						return nil, err
					}
					defPath = h.Activity
					if !filepath.IsAbs(defPath) && !fileExists(defPath) {
						defPath = besideEpisode(ep, defPath)
					}
				}
				if !fileExists(defPath) {
					return nil, fmt.Errorf("%s: its definition %q is not a file: give --activity FILE", ep, defPath)
				}
				d, err := readDef(defPath)
				if err != nil {
					return nil, err
				}
				jobs = append(jobs, &Job{Path: ep, Rel: relTo(path, ep), Activity: d.name, eval: d.eval})
			}
			continue
		}
		tasks, err := omnigibson.FindTasks(path, "")
		if err != nil {
			return nil, err
		}
		for _, task := range tasks {
			defPath, err := defs.TaskDefinition(task)
			if err != nil {
				return nil, err
			}
			d, err := readDef(defPath)
			if err != nil {
				return nil, err
			}
			key := [3]string{task.Template, task.Partial, defPath}
			conv := convs[key]
			if conv == nil {
				tmpl, err := omnigibson.ReadTask(task)
				if err != nil {
					return nil, err
				}
				if conv, err = omnigibson.NewConverter(tmpl, d.problem, defPath, base, omnigibson.Options{Activity: d.name, Pool: pool}); err != nil {
					return nil, err
				}
				convs[key] = conv
			}
			if len(task.Instances) == 0 {
				jobs = append(jobs, &Job{Path: task.Template, Rel: relTo(path, task.Template), Activity: d.name, eval: d.eval, conv: conv, template: true})
			}
			for _, in := range task.Instances {
				jobs = append(jobs, &Job{Path: in, Rel: relTo(path, in), Activity: d.name, eval: d.eval, conv: conv})
			}
		}
	}
	return jobs, nil
}

// relTo is a state's path relative to the argument that named it (its
// file name when the argument is the file or a glob), as --shard hashes
// episodes.
func relTo(arg, path string) string {
	if info, err := os.Stat(arg); err == nil && info.IsDir() {
		if rel, err := filepath.Rel(arg, path); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return filepath.Base(path)
}

// besideEpisode resolves a relative header activity against the
// episode's directory: the path itself, else the copy of the definition
// bddl writes beside the episodes it makes (<name>.bddl, as
// batch.Resolver finds it for check without --init).
func besideEpisode(ep, ref string) string {
	dir := filepath.Dir(ep)
	path := filepath.Join(dir, ref)
	if fileExists(path) || strings.ContainsAny(ref, "/\\") {
		return path
	}
	name := strings.TrimSuffix(ref, ".bddl")
	for _, cand := range []string{batch.DefinitionFile(name), batch.DefinitionFile(activities.StripInstance(name))} {
		if c := filepath.Join(dir, cand); fileExists(c) {
			return c
		}
	}
	return path
}

// episodeFiles lists path itself when it is an episode file, the
// episode files of a directory that holds no OmniGibson task, or those a
// glob matches when they all are episode files.
func episodeFiles(path string) []string {
	info, err := os.Stat(path)
	if err != nil {
		matches, _ := filepath.Glob(path)
		for _, m := range matches {
			if !batch.IsEpisodeFile(m) {
				return nil
			}
		}
		return matches
	}
	if !info.IsDir() {
		if batch.IsEpisodeFile(path) {
			return []string{path}
		}
		return nil
	}
	if _, err := omnigibson.FindTask(path); err == nil {
		return nil
	}
	var out []string
	_ = filepath.WalkDir(path, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && batch.IsEpisodeFile(p) {
			out = append(out, p)
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func fileExists(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}
