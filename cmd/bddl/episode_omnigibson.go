package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/internal/b1klayout"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/kb"
)

// maxDefinitionBytes bounds a definition file read (the largest
// BEHAVIOR-1K definitions are tens of kilobytes).
const maxDefinitionBytes = 16 << 20

type fromOGOptions struct {
	*globalOptions
	out        string
	activity   string
	library    string
	robot      string
	dataset    string
	offsets    string
	template   string
	format     string
	jobs       int
	noProgress bool
}

func newEpisodeFromOmniGibsonCmd(g *globalOptions) *cobra.Command {
	opts := &fromOGOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "from-omnigibson PATH... -o OUT",
		Short: "Convert OmniGibson task instances (BEHAVIOR Challenge) into episodes",
		Long: `Convert the task states OmniGibson writes for pre-sampled BEHAVIOR tasks into
one-step episodes that 'bddl check' reads. PATH is a task folder as the
simulator writes it (its templates and every *-tro_state.json instance under
it), the simulator's sampled_task folder (every task folder in it; a task
folder with only its templates converts the template's state, the robot's
start pose from sampled_task/available_tasks.yaml), a task's *_instances
folder, an instance file, or a glob of instance files (quoted, or expanded by
the shell): the templates are found beside them. A
task's two templates are used together: *_template.json places every object of
the scene, *_template-partial_rooms.json adds the rooms the task loaded;
--template FILE uses one template of your choice instead. A template named as
PATH converts its own state. OUT is a file when there is one state to convert,
else a directory that receives OUT/<instance file stem>.jsonl.

The definition is --activity (a problem file, or a name looked up in
--activities), else the task's own, by its name: problem*.bddl beside the
template, else <task>/problem<N>.bddl in --activities, in the BEHAVIOR-1K
checkout around the task folder (joylo/sampled_task/<task> finds
bddl3/bddl/activity_definitions/<task>), or in the knowledge base's package.
Object boxes need the knowledge base's object inventory, found the same way
(bddl3/bddl/generated_data of the checkout) or given with --kb. Root links are not box centres: each model's vertical offset is
estimated from the scene's own geometry, once per task (the floor the robots
stand on, then settled supports; --offsets support, the default; none centres
boxes on root links), or read exactly, with joint limits, from an OmniGibson
dataset (--og-dataset). What rests on an approximation is listed in each
episode's meta and counted in the report. To ask only whether :init holds on
the instances, 'bddl check --init TASKDIR' converts in memory. More in
docs/omnigibson.md.`,
		Example: `  bddl episode from-omnigibson BEHAVIOR-1K/joylo/sampled_task/cook_bacon -o cook_bacon/
  bddl check --episode cook_bacon/
  bddl episode from-omnigibson BEHAVIOR-1K/joylo/sampled_task -o episodes/
  bddl --kb BEHAVIOR-1K episode from-omnigibson inst_0_3_template-tro_state.json --robot R1Pro -o inst.jsonl
  bddl episode from-omnigibson 'sampled_task/cook_bacon/*_instances/*_0_1*-tro_state.json' -o out/`,
		Args: minArgs(1, "an OmniGibson task folder, its *_instances folder, instance files or a template"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFromOmniGibson(opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVarP(&opts.out, "output", "o", "", "the episode file (one state) or directory (several) to write")
	f.StringVar(&opts.activity, "activity", "", "the definition: a problem file, or a name in --activities (default: the task's own, found by its name)")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find --activity or the tasks' definitions by name in")
	f.StringVar(&opts.robot, "robot", "", "the robot whose start pose places the agent (default: the first listed)")
	f.StringVar(&opts.dataset, "og-dataset", "", "an OmniGibson dataset directory: exact root-link offsets and joint limits from objects/<category>/<model>/")
	f.StringVar(&opts.template, "template", "", "the template to use (default: the task's *_template.json with its *_template-partial_rooms.json, found beside PATH)")
	f.StringVar(&opts.offsets, "offsets", "support", "root-link offset estimate for models without dataset metadata: support or none")
	f.StringVar(&opts.format, "format", "text", "report format: text or json (one record per converted state, JSON Lines)")
	f.IntVar(&opts.jobs, "jobs", 0, "states converted in parallel (default: one per core)")
	f.BoolVar(&opts.noProgress, "no-progress", false, "no progress bar on a terminal")
	return cmd
}

type ogResult struct {
	job *omnigibson.Job
	rep *omnigibson.Report
	err error
}

func runFromOmniGibson(o *fromOGOptions, paths []string) error {
	if o.out == "" {
		return misuse("-o is required: a file for one state, a directory for several")
	}
	if o.format != "text" && o.format != "json" {
		return misuse("--format %q: use text or json", o.format)
	}
	if o.jobs < 0 {
		return misuse("--jobs must not be negative")
	}
	mode, err := omnigibson.ParseOffsetMode(o.offsets)
	if err != nil {
		return misuse("--offsets: %v", err)
	}
	base, err := o.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	if !hasModelSizes(base) && o.dataset == "" {
		fmt.Fprintf(o.err, "bddl: warning: knowledge base %s has no object model sizes: objects get no boxes and geometric atoms stay undetermined (pass the BEHAVIOR-1K knowledge_base with --kb, or --og-dataset)\n", o.kbSource())
	}
	var ds *omnigibson.Dataset
	if o.dataset != "" {
		if ds, err = omnigibson.OpenDataset(o.dataset); err != nil {
			return misuse("--og-dataset: %v", err)
		}
	}
	jobs, defs, err := o.ogJobs(paths, base, mode, ds)
	if err != nil {
		return err
	}
	if len(jobs) == 0 {
		return misuse("nothing to convert")
	}
	if err := omnigibson.AssignOutputs(jobs, o.out); err != nil {
		return misuse("%v", err)
	}
	ctx, stop := batch.WithSignals(context.Background(), o.err)
	defer stop()
	var results []ogResult
	failed := 0
	pool := batch.Pool{Jobs: o.jobs}
	if !o.noProgress {
		pool.Progress = batch.NewProgress(o.err, int64(len(jobs)), 2, "converting")
	}
	err = batch.Run(ctx, pool, jobs, func(ctx context.Context, j *omnigibson.Job) (ogResult, bool) {
		if ctx.Err() != nil {
			return ogResult{}, false
		}
		rep, err := j.Run()
		return ogResult{job: j, rep: rep, err: err}, true
	}, batch.Handlers[ogResult]{Ordered: func(i int, r ogResult) error {
		results = append(results, r)
		if r.err != nil {
			failed++
			fmt.Fprintln(o.err, "bddl:", r.err)
			return nil
		}
		if o.format == "json" {
			b, err := convertedRecord(r.job.Out, r.rep.Instance, defs[i].name, r.rep)
			if err != nil {
				return err
			}
			_, err = fmt.Fprintln(o.streams.out, string(b))
			return err
		}
		return nil
	}})
	if err != nil {
		return err
	}
	if err := writeOGDefinitions(jobs, defs, results); err != nil {
		fmt.Fprintln(o.err, "bddl:", err)
		failed++
	}
	if o.format == "text" {
		o.textSummary(results, failed, len(jobs))
	}
	if ctx.Err() != nil {
		return &exitError{code: exitInterrupted, err: fmt.Errorf("interrupted: %d of %d states converted", len(results)-failed, len(jobs))}
	}
	if failed > 0 {
		return findings()
	}
	return nil
}

// ogDefinition is a job's definition: its canonical name and text.
type ogDefinition struct {
	name string
	src  []byte
}

// writeOGDefinitions writes a copy of each converted episode's definition
// beside it, <dir>/<name>.bddl, once per directory and name, so that
// 'bddl check --episode DIR' finds it (batch.Resolver).
func writeOGDefinitions(jobs []*omnigibson.Job, defs []ogDefinition, results []ogResult) error {
	ok := map[*omnigibson.Job]bool{}
	for _, r := range results {
		if r.err == nil {
			ok[r.job] = true
		}
	}
	done := map[string]bool{}
	for i, j := range jobs {
		if !ok[j] || j.Out == "-" {
			continue
		}
		path := filepath.Join(filepath.Dir(j.Out), batch.DefinitionFile(defs[i].name))
		if done[path] {
			continue
		}
		done[path] = true
		if err := fsutil.WriteFileAtomic(path, defs[i].src); err != nil {
			return fmt.Errorf("writing the definition beside the episodes: %w", err)
		}
	}
	return nil
}

func hasModelSizes(b *kb.Base) bool { return b.NumModels() > 0 }

// ogJobs resolves the paths into conversion jobs: one Converter per
// template and definition, however many paths name its instances, and
// each definition read (and its warnings printed) once. defs[i] is the
// definition of jobs[i], copied beside its episode.
func (o *fromOGOptions) ogJobs(paths []string, base *kb.Base, mode omnigibson.OffsetMode, ds *omnigibson.Dataset) ([]*omnigibson.Job, []ogDefinition, error) {
	var tasks []*omnigibson.Task
	for _, p := range paths {
		ts, err := omnigibson.FindTasks(p, o.template)
		if err != nil {
			return nil, nil, misuse("%v", err)
		}
		tasks = append(tasks, ts...)
	}
	type readDef struct {
		problem *bddl.Problem
		def     ogDefinition
	}
	read := map[string]readDef{}
	convs := map[[3]string]*omnigibson.Converter{}
	pool := omnigibson.NewPool() // as check --init: the tasks' templates fill each other's gaps
	var jobs []*omnigibson.Job
	var defs []ogDefinition
	for _, task := range tasks {
		defPath, err := o.definitionPath(task)
		if err != nil {
			return nil, nil, err
		}
		rd, ok := read[defPath]
		if !ok {
			problem, src, err := o.readDefinition(defPath)
			if err != nil {
				return nil, nil, err
			}
			rd = readDef{problem, ogDefinition{activities.CanonicalName(defPath, problem), src}}
			read[defPath] = rd
		}
		key := [3]string{task.Template, task.Partial, defPath}
		conv := convs[key]
		if conv == nil {
			tmpl, err := omnigibson.ReadTask(task)
			if err != nil {
				fmt.Fprintln(o.err, "bddl:", err)
				return nil, nil, findings()
			}
			if o.robot != "" && len(tmpl.Robots) > 0 && !tmpl.HasRobot(o.robot) {
				return nil, nil, misuse("--robot %s: %s has start poses for %s", o.robot, task.Template, tmpl.RobotNames())
			}
			conv, err = omnigibson.NewConverter(tmpl, rd.problem, defPath, base, omnigibson.Options{
				Robot: o.robot, Offsets: mode, Dataset: ds, Activity: rd.def.name, Pool: pool})
			if err != nil {
				fmt.Fprintln(o.err, "bddl:", err)
				return nil, nil, findings()
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

// definitionPath resolves the definition a task is checked against:
// --activity, else the task's own (beside its template; in --activities;
// in the BEHAVIOR-1K tree around the task folder; in the package of the
// knowledge base in use), by the task's name.
func (o *fromOGOptions) definitionPath(task *omnigibson.Task) (string, error) {
	switch {
	case o.activity != "" && (strings.HasSuffix(o.activity, ".bddl") || fileExists(o.activity)):
		return o.activity, nil
	case o.activity != "":
		if o.library == "" {
			return "", misuse("--activity %s: give a problem file, or --activities DIR to find the name in", o.activity)
		}
		return filepath.Join(o.library, o.activity, "problem0.bddl"), nil
	}
	var more []string
	if k := o.resolveKB(); k.value != "" {
		more = append(more, b1klayout.Recognise(k.value).Activities)
	}
	path, tried := task.FindDefinition(o.library, more...)
	if path == "" {
		return "", misuse("%s: no definition of task %s (problem%d.bddl) found in %s: name it with --activity FILE, or the activity_definitions folder holding it with --activities",
			filepath.Dir(task.Template), task.Name, task.DefIndex, strings.Join(tried, ", "))
	}
	return path, nil
}

// readDefinition parses a definition as the reference reads it, printing
// its warnings (once: callers read each definition once), and returns it
// with the copy written beside its episodes.
func (o *fromOGOptions) readDefinition(path string) (*bddl.Problem, []byte, error) {
	src, err := fsutil.ReadFile(path, maxDefinitionBytes)
	if err != nil {
		return nil, nil, misuse("definition: %v", err)
	}
	p, diags := bddl.Options{Mode: bddl.Reference}.ParseProblem(path, src)
	if diags.HasErrors() {
		for _, d := range diags {
			fmt.Fprintln(o.err, d)
		}
		return nil, nil, misuse("definition %s has errors", path)
	}
	diags.WriteText(o.err)
	return p, definitionCopy(path, src), nil
}

func fileExists(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

// textSummary sums up the converted states for people.
func (o *fromOGOptions) textSummary(results []ogResult, failed, total int) {
	var sum omnigibson.Summary
	for _, r := range results {
		if r.err == nil {
			sum.Add(r.rep)
		}
	}
	where := o.out
	if total == 1 && sum.States == 1 {
		where = results[0].job.Out
	}
	sum.WriteText(o.streams.out, total, failed, where)
}
