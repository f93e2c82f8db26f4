package main

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/sampler"
)

func init() { subcommands = append(subcommands, newSampleCmd) }

// Bounds on one run, so a mistyped -n cannot exhaust memory.
const (
	maxSampleCount = 1_000_000
	maxSampleTasks = 10_000_000
)

type sampleOptions struct {
	*globalOptions
	readFlags
	batchFlags
	scene   string
	files   []string
	after   string
	seed    uint64
	count   int
	goal    bool
	out     string
	svg     bool
	format  string
	library string
	// lists is --sampling-lists: "" the embedded reference lists, "none"
	// none, else a file in the reference's layout.
	lists string
	// noShrink refuses configurations in which an object fits only shrunk.
	noShrink bool
}

func newSampleCmd(g *globalOptions) *cobra.Command {
	opts := &sampleOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "sample PATH|NAME... -o OUT [flags]",
		Short: "Sample verified initial (or goal) configurations of activities in scenes",
		Long: `Sample places every instance of an activity in a scene of the knowledge base
so that :init holds (with --goal, so that the goal holds): in-room instances
are bound to the scene's objects, every other instance gets an object model
of its synset with its real size, a pose on, in, under or next to its parent,
and the temperatures, joints, toggles, particles and cloth shapes its literals
ask for. Every configuration is verified by the evaluator before it is written.

PATH is a definition, an activity directory or a tree of them; NAME an
embedded example. Without --scene, the scenes 'validate --scenes' finds
compatible are tried in an order drawn from the seed until one succeeds.
Knowledge-base scenes list only each room's models, so the sampler lays them
out (rooms sized from their contents, furniture against the walls, doors kept
clear); --scene-file samples in the real layout of a simulator scene file
instead. The models a scene file binds to the task's objects, and the scales
it loads them at, are the reference's own choice: they are drawn for those
synsets in every scene sampled, with --scene too.

Model choice follows the reference's sampling lists (its
task_custom_lists.json, embedded): for the tasks they name, a whitelist
keeps only the listed models of a synset, some loaded at a scale or scaled
to a bounding box, and a blacklist removes models; in a scene the lists do
not name, the task's lists over all its scenes apply. --sampling-lists FILE
replaces them with a file in the same layout, --sampling-lists none turns
them off.

Placements are physically plausible: an object inside a container lies
within its inner box (on its floor, a shelf or what is already inside), a
rigid object on a support has at least 80 % of its footprint on it, nothing
overlaps anything of the scene (neighbouring rooms included) and every
footprint stays in its room. An object that fits nowhere is given a smaller
model of its synset, then another container (another scene object or a
larger model of it), and only then shrunk (to half its size at most); the
shrunk objects are listed in the report. --no-shrink refuses instead, with
a no-space reason. See docs/sampler.md.

Each configuration is written to OUT/<activity>/<scene>-<seed>-<k>.jsonl, an
episode (header and one step) that 'bddl check' reads directly; --svg adds a
top-down drawing next to it. The same seed, definition and knowledge base
give byte-identical files, whatever --jobs.

--shard I/N samples a deterministic 1/N of the activity definitions, each
with all its -n configurations: a definition's key is its path relative to
the argument it came from (an example's, its name; --after's, the rule), as
'check' and 'validate' shard, so N machines with the same arguments write
each file exactly once. A shard that holds no definition says so and exits 0.

Exit status: 0 when every configuration was sampled, 1 when one failed, 2 on
misuse.`,
		Example: `  bddl sample tidying_the_living_room -o samples/ --svg
  bddl sample --kb behavior1k/knowledge_base behavior1k/activity_definitions -o samples/ --format json
  bddl sample problem0.bddl --scene Rs_int --seed 7 -n 300 -o samples/
  bddl sample cook_bacon/problem0.bddl --scene-file cook_bacon/house_single_floor_task_cook_bacon_0_0_template-partial_rooms.json -o samples/
  bddl sample cook_bacon --sampling-lists my_lists.json -o samples/   # your own whitelist
  bddl sample cook_bacon --sampling-lists none -o samples/            # the knowledge base's models only
  bddl sample cleaning_shoes --goal -o goals/ && bddl check --episode goals/
  bddl sample --after sugar_cookies -o rules/ && bddl check --episode rules/
  bddl sample behavior1k/activity_definitions --shard 2/8 -n 10 -o samples/   # one of 8 machines`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if done, err := sampleLibero(cmd, opts, args); done {
				return err
			}
			return runSample(opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.scene, "scene", "", "sample in this scene only")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find NAME in")
	f.StringVar(&opts.after, "after", "", "sample the states before and after a transition rule fires (RULE as 'bddl transition list' names it; no PATH)")
	f.StringArrayVar(&opts.files, "scene-file", nil, "an OmniGibson *_template-partial_rooms.json scene file to sample in (repeatable)")
	f.StringVar(&opts.lists, "sampling-lists", "", "a sampling whitelist and blacklist per task and scene, in the layout of the reference's task_custom_lists.json, replacing the embedded one; none for none")
	f.Uint64Var(&opts.seed, "seed", 0, "random seed")
	f.IntVarP(&opts.count, "count", "n", 1, "configurations per activity")
	f.BoolVar(&opts.goal, "goal", false, "sample a state in which the goal holds instead of :init")
	addOutputFlag(f, &opts.out, "", "output directory (required)", "out")
	f.BoolVar(&opts.svg, "svg", false, "also draw each configuration from above as SVG")
	f.BoolVar(&opts.noShrink, "no-shrink", false, "never shrink an object to fit: fail with a no-space reason instead")
	f.StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per configuration)")
	opts.readFlags.add(f)
	opts.batchFlags.add(f, "activity definitions")
	f.Lookup("jobs").Usage = "configurations sampled in parallel" // the shard unit is the definition, the worker's the configuration
	return cmd
}

// sampleJob is one activity to sample and its shard key: its path
// relative to its argument, an example's name or the rule.
type sampleJob struct {
	sampler.Job
	key    string
	source []byte // the definition's text, copied beside its episodes
}

func runSample(opts *sampleOptions, args []string) error {
	switch {
	case len(args) == 0 && opts.after == "":
		return misuse("sample needs a definition, a directory or an example name")
	case len(args) > 0 && opts.after != "":
		return misuse("--after RULE samples the rule's own scene: give no PATH")
	case opts.out == "":
		return misuse("sample needs -o OUT, the directory to write configurations to")
	case opts.count < 1 || opts.count > maxSampleCount:
		return misuse("-n must be between 1 and %d", maxSampleCount)
	case opts.format != "text" && opts.format != "json":
		return misuse("--format must be text or json")
	}
	if err := opts.batchFlags.parse(); err != nil {
		return err
	}
	if err := checkOutputDir(opts.out); err != nil {
		return misuse("-o %v", err)
	}
	base, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	smp := sampler.New(base, predicates.Options{})
	switch opts.lists {
	case "":
	case "none":
		smp.SetLists(nil)
	default:
		l, err := sampler.ReadLists(opts.lists)
		if err != nil {
			return misuse("--sampling-lists: %v", err)
		}
		smp.SetLists(l)
	}
	var fileScenes []string
	for _, path := range opts.files {
		sc, err := sampler.ReadTemplate(base, path)
		if err != nil {
			return misuse("--scene-file: %v", err)
		}
		smp.AddScene(sc)
		fileScenes = append(fileScenes, sc.Name)
	}
	if opts.scene != "" {
		if _, ok := smp.Scene(opts.scene); !ok {
			hint := didYouMean(opts.scene, smp.SceneNames())
			if len(smp.SceneNames()) == 0 {
				hint = " (it has no scenes: give the BEHAVIOR-1K knowledge base with --kb, or --scene-file)"
			}
			return misuse("--scene %s: no such scene in %s%s", opts.scene, opts.kbSource(), hint)
		}
	}
	parse, err := opts.readFlags.options()
	if err != nil {
		return err
	}
	var jobs []sampleJob
	if opts.after != "" {
		job, err := afterJob(opts, base, opts.after)
		if err != nil {
			return err
		}
		jobs = []sampleJob{{Job: job, key: opts.after}}
	} else if jobs, err = sampleJobs(opts, args, parse); err != nil {
		return err
	}
	// The unit of a shard is the definition, so that its -n configurations
	// are sampled on one machine and no file is written twice.
	if jobs = batch.Select(opts.shard, jobs, func(j sampleJob) string { return j.key }); len(jobs) == 0 {
		fmt.Fprintf(opts.err, "bddl: shard %s holds none of the activity definitions: nothing to sample\n", opts.shard)
		return nil
	}
	for i := range jobs {
		j := &jobs[i]
		if j.Failure != nil {
			continue
		}
		if opts.scene != "" {
			j.Scenes = []string{opts.scene}
			continue
		}
		if len(fileScenes) > 0 {
			j.Scenes = fileScenes
			continue
		}
		rep := activities.Analyze(j.Problem, base, activities.OnlyRules("no-scene"))
		if f := rep.Scenes; f != nil && len(f.Needs) > 0 {
			for _, s := range f.Compatible() {
				j.Scenes = append(j.Scenes, s.Scene)
			}
			if len(j.Scenes) == 0 {
				j.Failure = &sampler.Failure{Kind: sampler.NoScene, Message: fmt.Sprintf("no scene of the knowledge base has the in-room objects (%d scenes)", len(f.Scenes))}
			}
		} else {
			j.Scenes = smp.SceneNames()
		}
		sampler.ShuffleScenes(j.Scenes, opts.seed, j.Name)
	}
	if len(jobs)*opts.count > maxSampleTasks {
		return misuse("%d activities × -n %d configurations is more than %d in one run: split it", len(jobs), opts.count, maxSampleTasks)
	}
	type task struct{ job, k int }
	var tasks []task
	for j := range jobs {
		for k := 0; k < opts.count; k++ {
			tasks = append(tasks, task{j, k})
		}
	}
	wrote := make([]bool, len(jobs)) // jobs with a configuration written
	wo := sampler.WriteOptions{Seed: opts.seed, Goal: opts.goal, Out: opts.out, SVG: opts.svg, NoShrink: opts.noShrink}
	failed, done := 0, 0
	enc := json.NewEncoder(opts.globalOptions.out)
	ctx, stop := batch.WithSignals(context.Background(), opts.err)
	defer stop()
	pool := opts.pool(opts.progress(opts.err, len(tasks), 20, "sampling"))
	err = batch.Run(ctx, pool, tasks, func(_ context.Context, t task) (sampler.Record, bool) {
		return smp.SampleAndWrite(&jobs[t.job].Job, t.k, wo), true
	}, batch.Handlers[sampler.Record]{Ordered: func(i int, r sampler.Record) error {
		done++
		if r.Status != "ok" {
			failed++
		} else {
			wrote[tasks[i].job] = true
		}
		if opts.format == "json" {
			return enc.Encode(r)
		}
		var err error
		if r.Status == "ok" {
			_, err = fmt.Fprintf(opts.globalOptions.out, "ok    %s  %s  %.1f ms\n", r.Activity, r.File, r.MS)
			if len(r.Shrunk) > 0 && err == nil {
				parts := make([]string, len(r.Shrunk))
				for i, s := range r.Shrunk {
					parts[i] = fmt.Sprintf("%s ×%.2g", s.Object, s.Factor)
				}
				_, err = fmt.Fprintf(opts.globalOptions.out, "      shrunk to fit: %s\n", strings.Join(parts, ", "))
			}
		} else {
			_, err = fmt.Fprintf(opts.globalOptions.out, "FAIL  %s  #%d  %v\n", r.Activity, r.Index, r.Reason)
		}
		return err
	}})
	if err != nil {
		return err
	}
	if err := writeDefinitionCopies(opts.out, jobs, wrote); err != nil {
		fmt.Fprintf(opts.err, "bddl: %v\n", err)
		failed++
	}
	if ctx.Err() != nil {
		return &exitError{code: exitInterrupted, err: ctx.Err()}
	}
	if opts.format == "text" {
		fmt.Fprintf(opts.globalOptions.out, "%d of %d configurations sampled\n", done-failed, done)
	}
	if failed > 0 {
		return findings()
	}
	return nil
}

// sampleJobs resolves the arguments: files, directories and globs of
// definitions, else names of embedded examples.
func sampleJobs(opts *sampleOptions, args []string, parse bddl.Options) ([]sampleJob, error) {
	var jobs []sampleJob
	var paths []string
	for _, a := range args {
		if !isPathLike(a) {
			n, err := resolveName(a, opts.library)
			if err != nil {
				return nil, misuse("%v", err)
			}
			if n.path != "" {
				paths = append(paths, n.path)
				continue
			}
			act := n.example
			jobs = append(jobs, sampleJob{Job: sampler.Job{Name: act.Name, Problem: act.Problem}, key: act.Name, source: act.Source})
			continue
		}
		paths = append(paths, a)
	}
	if len(paths) > 0 {
		ins, err := opts.expandDefinitions(paths)
		if err != nil {
			return nil, err
		}
		for i, p := range parseInputsWith(ins, opts.in, parse) {
			if p.err != nil {
				return nil, misuse("%v", p.err)
			}
			if !p.diags.HasErrors() {
				p.diags.WriteText(opts.err) // what the reference passes over
			}
			if p.file == nil || p.file.Problem == nil {
				continue // domain files
			}
			// The canonical name; a second instance of an activity keeps
			// its number so that its files do not overwrite the first's.
			name := activities.CanonicalName(p.path, p.file.Problem)
			if act, n, ok := activities.ActivityPath(p.path); ok && n > 0 {
				name = fmt.Sprintf("%s-%d", act, n)
			}
			job := sampleJob{Job: sampler.Job{Name: name, Problem: p.file.Problem}, key: ins[i].Rel,
				source: definitionCopy(p.path, bddl.Format(p.file))}
			if p.diags.HasErrors() {
				job.Failure = &sampler.Failure{Kind: sampler.Unsupported, Message: p.path + " does not parse: " + firstDiag(p.diags)}
			}
			jobs = append(jobs, job)
		}
	}
	if len(jobs) == 0 {
		return nil, misuse("no activity definition found in %v", args)
	}
	return jobs, nil
}

// writeDefinitionCopies writes, beside the episodes of each job that
// wrote any, a copy of its definition, OUT/<name>/<name>.bddl, so that
// 'bddl check --episode OUT/' finds it without --activity or
// --activities (batch.Resolver looks there for the name a header gives).
func writeDefinitionCopies(out string, jobs []sampleJob, wrote []bool) error {
	for i, j := range jobs {
		if !wrote[i] || len(j.source) == 0 || j.After != nil {
			continue
		}
		path := filepath.Join(out, j.Name, batch.DefinitionFile(j.Name))
		if err := fsutil.WriteFileAtomic(path, j.source); err != nil {
			return fmt.Errorf("writing the definition beside the episodes: %w", err)
		}
	}
	return nil
}
