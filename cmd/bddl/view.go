package main

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/viewrun"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/view"
)

func init() { subcommands = append(subcommands, newViewCmd) }

type viewOptions struct {
	*globalOptions
	readFlags
	activity  string
	library   string
	out       string
	sceneFile string
	frames    int
}

func newViewCmd(g *globalOptions) *cobra.Command {
	opts := &viewOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "view EPISODE -o FILE.html [--activity FILE|NAME]",
		Short: "Write one self-contained HTML page showing a sampled scene or an episode",
		Long: `View writes one HTML file, with everything inline (no network access, no
server), that shows an episode: a sampled scene (one step) or a recording.
The objects are drawn in their rooms from above (x, y) and from the side
(x, z), axis-aligned boxes as rectangles and oriented boxes as their rotated
footprints, coloured by role (task object, container, support, agent) with a
legend and labelled where a label fits. Scene furniture is drawn in grey:
that of --scene-file, else that of the knowledge-base scene a sample was
laid out in. A step slider moves through the recording and lists which
top-level goal conjuncts hold at each step (true, false or unknown); those
and the :init literals light up the objects they name on hover, and the
other way round; the check report is below them.

The activity is --activity, else the one the header names (found as check
finds it). An episode of more than ` + fmt.Sprint(view.MaxFrames) + ` steps is shown at
evenly spaced steps (--frames sets how many) and always at its last. A file
that cannot be drawn (a LIBERO episode, which records no boxes; a file that
is not an episode) is an error (exit 1) and no page is written.`,
		Example: `  bddl sample cleaning_shoes -o samples/ && bddl view samples/cleaning_shoes/*.jsonl -o scene.html
  bddl view --activity tidying_the_living_room activities/examples/tidying_the_living_room/episodes/poses.jsonl -o poses.html
  bddl view cook_bacon/house_single_floor_task_cook_bacon_0_0_template-tro_state.jsonl --scene-file sampled_task/cook_bacon/house_single_floor_task_cook_bacon_0_0_template.json -o instance.html`,
		Args: exactArgs(1, "an episode file"),
		RunE: func(_ *cobra.Command, args []string) error { return runView(opts, args[0]) },
	}
	f := cmd.Flags()
	addOutputFlag(f, &opts.out, "", "the HTML file to write (required)")
	f.StringVar(&opts.activity, "activity", "", "activity definition: a problem file or a name (default: the one the header names)")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find the activity by name in")
	f.StringVar(&opts.sceneFile, "scene-file", "", "an OmniGibson *_template.json or *_template-partial_rooms.json scene file whose furniture to draw")
	f.IntVar(&opts.frames, "frames", view.MaxFrames, "most steps the page holds")
	opts.readFlags.add(f)
	return cmd
}

func runView(opts *viewOptions, path string) error {
	if opts.out == "" {
		return misuse("view needs -o FILE.html, the page to write")
	}
	if !strings.HasSuffix(strings.ToLower(opts.out), ".html") {
		return misuse("-o %s: the page must end in .html", opts.out)
	}
	if opts.frames < 2 {
		return misuse("--frames must be at least 2, not %d", opts.frames)
	}
	// As check: the definition copied beside the episode names where it
	// was read, which tells the knowledge base.
	opts.hints = append(opts.hints, copySources([]string{path})...)
	base, err := opts.loadKB()
	if err != nil {
		return misuse("%v", err)
	}
	parse, err := opts.readFlags.options()
	if err != nil {
		return err
	}
	res := guardedResolver(base, predicates.Options{})
	res.SetParse(parse, warnText(opts.err))
	if opts.library != "" {
		if err := res.AddLibrary(opts.library, noter(opts.err)); err != nil {
			return misuse("--activities %v", err)
		}
	}
	ctx := context.Background()
	if opts.activity != "" {
		if err := res.SetActivity(ctx, opts.activity, opts.in, noter(opts.err)); err != nil {
			return misuse("--activity %v", err)
		}
	}
	data, err := viewrun.Episode(ctx, path, viewrun.Options{Base: base, Resolver: res, Activity: opts.activity,
		SceneFile: opts.sceneFile, Frames: opts.frames, Note: noter(opts.err)})
	if ue := (*viewrun.UsageError)(nil); errors.As(err, &ue) {
		return misuse("%v", ue)
	} else if err != nil {
		return &exitError{code: exitFindings, err: err}
	}
	page, err := view.Render(&data.Data)
	if err != nil {
		return err
	}
	if err := fsutil.WriteFileAtomic(opts.out, page); err != nil {
		return misuse("-o: %v", err)
	}
	drawn := data.Drawn()
	fmt.Fprintf(opts.err, "bddl: wrote %s (%d objects, %d with a box; %d scene objects; %d of %d steps shown)\n",
		opts.out, len(data.Objects), drawn, len(data.Furniture), len(data.Frames), data.Steps)
	if drawn == 0 && len(data.Furniture) == 0 {
		fmt.Fprintf(opts.err, "bddl: note: %s records no box (aabb or obb) for any object, so the page draws no object\n", path)
	}
	return nil
}
