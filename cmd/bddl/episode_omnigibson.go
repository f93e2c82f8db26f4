package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/internal/b1klayout"
	"github.com/openbddl/bddl/internal/jobs/ogconvert"
)

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

func runFromOmniGibson(o *fromOGOptions, paths []string) error {
	plan := o.plan()
	plan.Robot, plan.Template = o.robot, o.template
	return exitFor(ogconvert.Convert(context.Background(), paths, plan, ogconvert.Request{Out: o.out, Format: o.format,
		Jobs: o.jobs, NoProgress: o.noProgress, Offsets: o.offsets, DatasetPath: o.dataset,
		LoadKB: o.loadKB, KBSource: o.kbSource, Stdout: o.streams.out, Stderr: o.err}))
}

// plan is how definitions are found and read: --activity, --activities,
// the knowledge base's package.
func (o *fromOGOptions) plan() ogconvert.Options {
	p := ogconvert.Options{Activity: o.activity, Library: o.library, Diagnostics: o.err, DefinitionCopy: activities.DefinitionCopy}
	if k := o.resolveKB(); k.value != "" {
		p.KBActivities = b1klayout.Recognise(k.value).Activities
	}
	return p
}

// definitionPath and readDefinition are check --init's way to the
// definitions, as from-omnigibson finds and reads them.
func (o *fromOGOptions) definitionPath(task *omnigibson.Task) (string, error) {
	p := o.plan()
	path, err := p.DefinitionPath(task)
	return path, ogMisuse(err)
}

func (o *fromOGOptions) readDefinition(path string) (*bddl.Problem, []byte, error) {
	p := o.plan()
	problem, src, err := p.ReadDefinition(path)
	return problem, src, ogMisuse(err)
}

func ogMisuse(err error) error {
	if err != nil {
		return misuse("%v", err)
	}
	return nil
}
