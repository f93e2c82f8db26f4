package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/samplerun"
	"github.com/openbddl/bddl/sampler"
)

func init() { subcommands = append(subcommands, newSampleCmd) }

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

func runSample(opts *sampleOptions, args []string) error {
	r := samplerun.Request{Args: args, Library: opts.library, After: opts.after,
		Scene: opts.scene, SceneFiles: opts.files, Lists: opts.lists, Count: opts.count, Format: opts.format,
		Write:  sampler.WriteOptions{Seed: opts.seed, Goal: opts.goal, Out: opts.out, SVG: opts.svg, NoShrink: opts.noShrink},
		LoadKB: opts.loadKB, KBSource: opts.kbSource, Parse: opts.readFlags.options, Note: noter(opts.err),
		Pool:  func(n int) batch.Pool { return opts.pool(opts.progress(opts.err, n, 20, "sampling")) },
		Stdin: opts.in, Stdout: opts.globalOptions.out, Stderr: opts.err}
	if err := r.Check(); err != nil {
		return exitFor(err)
	}
	if err := opts.batchFlags.parse(); err != nil {
		return err
	}
	r.Shard = opts.shard
	return exitFor(samplerun.Sample(context.Background(), r))
}
