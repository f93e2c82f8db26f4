package samplerun

import (
	"context"
	"fmt"
	"io"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/suggest"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/sampler"
	"github.com/openbddl/bddl/transitions"
)

// Request is one run of 'bddl sample' on BEHAVIOR-1K definitions: its
// flags (checked by the command) and what it loads.
type Request struct {
	Args       []string // definitions, directories, globs or names
	Library    string   // --activities: where names are looked up first
	After      string   // --after RULE
	Scene      string
	SceneFiles []string
	Lists      string // --sampling-lists: "" the embedded ones, "none", or a file
	Count      int
	Format     string
	Write      sampler.WriteOptions
	Shard      batch.Shard
	// LoadKB loads the knowledge base, named KBSource in messages; Parse
	// is the reading policy; Pool is the pool for n configurations.
	LoadKB   func() (*kb.Base, error)
	KBSource func() string
	Parse    func() (bddl.Options, error)
	Pool     func(n int) batch.Pool
	Note     func(string)
	Stdin    io.Reader
	Stdout   io.Writer
	Stderr   io.Writer
}

// MaxCount bounds -n, so a mistyped -n cannot exhaust memory.
const MaxCount = 1_000_000

// Check refuses a request that does not make sense, before anything is
// loaded.
func (r *Request) Check() error {
	switch {
	case len(r.Args) == 0 && r.After == "":
		return batch.Usage("sample needs a definition, a directory or an example name")
	case len(r.Args) > 0 && r.After != "":
		return batch.Usage("--after RULE samples the rule's own scene: give no PATH")
	case r.Write.Out == "":
		return batch.Usage("sample needs -o OUT, the directory to write configurations to")
	case r.Count < 1 || r.Count > MaxCount:
		return batch.Usage("-n must be between 1 and %d", MaxCount)
	case r.Format != "text" && r.Format != "json":
		return batch.Usage("--format must be text or json")
	}
	return nil
}

// Sample resolves the request into jobs, keeps its shard and samples
// them. Its errors are batch's classes.
func Sample(ctx context.Context, r Request) error {
	if err := fsutil.CheckOutputDir(r.Write.Out); err != nil {
		return batch.Usage("-o %v", err)
	}
	base, err := r.LoadKB()
	if err != nil {
		return batch.Usage("%v", err)
	}
	smp := sampler.New(base, predicates.Options{})
	switch r.Lists {
	case "":
	case "none":
		smp.SetLists(nil)
	default:
		l, err := sampler.ReadLists(r.Lists)
		if err != nil {
			return batch.Usage("--sampling-lists: %v", err)
		}
		smp.SetLists(l)
	}
	var fileScenes []string
	for _, path := range r.SceneFiles {
		sc, err := sampler.ReadTemplate(base, path)
		if err != nil {
			return batch.Usage("--scene-file: %v", err)
		}
		smp.AddScene(sc)
		fileScenes = append(fileScenes, sc.Name)
	}
	if r.Scene != "" {
		if _, ok := smp.Scene(r.Scene); !ok {
			hint := suggest.DidYouMean(r.Scene, smp.SceneNames())
			if len(smp.SceneNames()) == 0 {
				hint = " (it has no scenes: give the BEHAVIOR-1K knowledge base with --kb, or --scene-file)"
			}
			return batch.Usage("--scene %s: no such scene in %s%s", r.Scene, r.KBSource(), hint)
		}
	}
	parse, err := r.Parse()
	if err != nil {
		return err
	}
	var jobs []Job
	if r.After != "" {
		job, err := afterJob(base, r.After, r.Write.Seed, r.KBSource)
		if err != nil {
			return err
		}
		jobs = []Job{{Job: job, Key: r.After}}
	} else if jobs, err = argJobs(r, parse); err != nil {
		return err
	}
	// The unit of a shard is the definition, so that its -n configurations
	// are sampled on one machine and no file is written twice.
	if jobs = batch.Select(r.Shard, jobs, func(j Job) string { return j.Key }); len(jobs) == 0 {
		fmt.Fprintf(r.Stderr, "bddl: shard %s holds none of the activity definitions: nothing to sample\n", r.Shard)
		return nil
	}
	AssignScenes(jobs, smp, base, r.Scene, fileScenes, r.Write.Seed)
	if len(jobs)*r.Count > MaxTasks {
		return batch.Usage("%d activities × -n %d configurations is more than %d in one run: split it", len(jobs), r.Count, MaxTasks)
	}
	ctx, stop := batch.WithSignals(ctx, r.Stderr)
	defer stop()
	done, failed, err := Run(ctx, smp, jobs, Options{Count: r.Count, JSON: r.Format == "json",
		Write: r.Write, Out: r.Stdout, Err: r.Stderr, Pool: r.Pool(len(jobs) * r.Count)})
	if err != nil {
		return err
	}
	if ctx.Err() != nil {
		return &batch.InterruptedError{Err: ctx.Err()}
	}
	if r.Format == "text" {
		fmt.Fprintf(r.Stdout, "%d of %d configurations sampled\n", done-failed, done)
	}
	if failed > 0 {
		return batch.Findings(nil)
	}
	return nil
}

// afterJob builds the job of --after RULE: the definition of the state
// before the rule fires (sampler.PrepareAfter), sampled like any other.
func afterJob(base *kb.Base, name string, seed uint64, kbSource func() string) (sampler.Job, error) {
	r, ok := transitions.FindRule(base, name)
	if !ok {
		return sampler.Job{}, batch.Usage("--after: no transition rule %q in %s%s", name, kbSource(), transitions.RuleHint(base, name))
	}
	a, err := sampler.PrepareAfter(base, r, seed)
	if err != nil {
		return sampler.Job{}, fmt.Errorf("--after %s: %w", name, err)
	}
	return sampler.Job{Name: "after_" + string(r.Family) + "_" + r.Name, Problem: a.Problem, Failure: a.Failure, After: a}, nil
}

// argJobs resolves the arguments: files, directories and globs of
// definitions, else names of embedded examples; the shard key is the
// path relative to its argument, or the example's name.
func argJobs(r Request, parse bddl.Options) ([]Job, error) {
	var jobs []Job
	var paths []string
	for _, a := range r.Args {
		if !activities.IsPathLike(a) {
			path, act, err := activities.ResolveName(a, r.Library)
			if err != nil {
				return nil, batch.Usage("%v", err)
			}
			if path != "" {
				paths = append(paths, path)
				continue
			}
			jobs = append(jobs, Job{Job: sampler.Job{Name: act.Name, Problem: act.Problem}, Key: act.Name, Source: act.Source})
			continue
		}
		paths = append(paths, a)
	}
	if len(paths) > 0 {
		ins, err := batch.ExpandDefinitions(paths, r.Note)
		if err != nil {
			return nil, batch.Usage("%v", err)
		}
		for i, p := range batch.ParseDefinitions(ins, r.Stdin, parse) {
			if p.Err != nil {
				return nil, batch.Usage("%v", p.Err)
			}
			if !p.Diags.HasErrors() {
				p.Diags.WriteText(r.Stderr) // what the reference passes over
			}
			if p.File == nil || p.File.Problem == nil {
				continue // domain files
			}
			// The canonical name; a second instance of an activity keeps
			// its number so that its files do not overwrite the first's.
			name := activities.CanonicalName(p.Path, p.File.Problem)
			if act, n, ok := activities.ActivityPath(p.Path); ok && n > 0 {
				name = fmt.Sprintf("%s-%d", act, n)
			}
			job := Job{Job: sampler.Job{Name: name, Problem: p.File.Problem}, Key: ins[i].Rel,
				Source: activities.DefinitionCopy(p.Path, bddl.Format(p.File))}
			if p.Diags.HasErrors() {
				job.Failure = &sampler.Failure{Kind: sampler.Unsupported, Message: p.Path + " does not parse: " + batch.FirstError(p.Diags)}
			}
			jobs = append(jobs, job)
		}
	}
	if len(jobs) == 0 {
		return nil, batch.Usage("no activity definition found in %v", r.Args)
	}
	return jobs, nil
}
