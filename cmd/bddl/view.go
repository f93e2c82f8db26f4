package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/termsafe"
	"github.com/openbddl/bddl/predicates"
)

func init() { subcommands = append(subcommands, newViewCmd) }

// maxViewFrames bounds the frames a page holds: a longer episode is
// shown every k-th step (and its last), so the page stays small.
const maxViewFrames = 600

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
finds it). An episode of more than ` + fmt.Sprint(maxViewFrames) + ` steps is shown at
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
	f.IntVar(&opts.frames, "frames", maxViewFrames, "most steps the page holds")
	opts.readFlags.add(f)
	return cmd
}

// viewData is what the page draws, as JSON inside it.
type viewData struct {
	Activity string    `json:"activity"`
	Episode  string    `json:"episode"`
	Objects  []viewObj `json:"objects"`
	// Furniture are scene objects the episode does not record, drawn
	// under its objects (from --scene-file, or the knowledge-base scene a
	// sample was laid out in).
	Furniture []viewShape `json:"furniture,omitempty"`
	// Rooms are the rooms' floor rectangles [x0, y0, x1, y1] when a
	// scene gives them; else the page draws each room around its objects.
	Rooms     []viewRoom    `json:"rooms,omitempty"`
	Frames    []viewFrame   `json:"frames"`
	Conjuncts []viewLiteral `json:"conjuncts"`
	Init      []viewLiteral `json:"init"`
	Report    string        `json:"report"`
	// Verdict is the report's first word; for a sampled scene it is the
	// truth of :init, which is what a sample promises.
	Verdict string `json:"verdict"`
	Sample  bool   `json:"sample,omitempty"`
	Steps   int    `json:"steps"`
}

// viewObj is one object the episode records. Role is agent, container,
// support, task (the definition's other objects) or scene (recorded but
// not in the definition).
type viewObj struct {
	Name string `json:"name"`
	Room string `json:"room,omitempty"`
	Role string `json:"role"`
}

// viewShape is a box drawn as is: 6 numbers (an axis-aligned box, min
// then max) or 24 (the 8 corners of an oriented box).
type viewShape struct {
	Name string    `json:"name"`
	Room string    `json:"room,omitempty"`
	Box  []float64 `json:"box"`
	// Wall marks a wall, left out of the side view, which it would hide.
	Wall bool `json:"wall,omitempty"`
}

type viewRoom struct {
	Name  string     `json:"name"`
	Floor [4]float64 `json:"floor"`
}

// viewLiteral is a literal of :init or a top-level conjunct of the goal,
// with the objects it names (indices into Objects; a quantified
// conjunct names every object of its types).
type viewLiteral struct {
	Text    string `json:"text"`
	Objects []int  `json:"objects"`
}

// viewFrame is one shown step: each object's box (null when it has none
// or does not exist), the goal's and each conjunct's truth.
type viewFrame struct {
	Step  int64       `json:"step"`
	Boxes [][]float64 `json:"boxes"`
	Truth []string    `json:"truth,omitempty"` // goal, then conjuncts
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
	inputs, err := batch.Expand([]string{path}, batch.ExpandOptions{What: "episodes", Match: batch.IsEpisodeFile,
		Describe: batch.EpisodeSuffixes(), Note: noter(opts.err)})
	if err != nil {
		return misuse("%v", err)
	}
	eps := batch.Episodes(ctx, inputs)
	if len(eps) != 1 || eps[0].Sub != "" {
		return misuse("%s: view shows one episode file (JSON Lines), not %d", path, len(eps))
	}
	// The page is drawn from what the episode records: read it first, so
	// that a file that is not an episode is refused before anything is
	// written.
	data, err := readViewFrames(path, opts.frames)
	if err != nil {
		return &exitError{code: exitFindings, err: err}
	}
	checker := &batch.Checker{Resolver: res, Options: episode.CheckOptions{Hold: 1, PerStep: true}}
	o := checker.Check(ctx, eps[0])
	if o.Result.Error != "" {
		return &exitError{code: exitFindings, err: fmt.Errorf("%s: %s (no page written)", path, o.Result.Error)}
	}
	var report bytes.Buffer
	if data.Sample {
		fmt.Fprintf(&report, "A sampled initial scene: :init is %s here, which is what a sample promises;\nthe goal is not expected to hold yet (`bddl check --init` checks samples).\n\n", o.Result.Init)
	}
	_ = o.Result.WriteText(&report)
	data.Activity, data.Episode, data.Report = o.Result.Activity, path, report.String()
	data.Verdict = o.Result.Verdict()
	if data.Sample {
		data.Verdict = "INIT " + strings.ToUpper(o.Result.Init.String())
	}
	var problem *bddl.Problem
	ref := opts.activity
	if ref == "" {
		ref = data.activityRef
	}
	if act, err := res.Resolve(ref, eps[0]); err == nil {
		problem = act.Problem
	}
	data.link(problem, o.Result.Conjuncts)
	truth := map[int64][]string{}
	for _, s := range o.Result.PerStep {
		t := []string{s.Goal.String()}
		for _, c := range s.Conjuncts {
			t = append(t, c.String())
		}
		truth[s.Step] = t
	}
	for i := range data.Frames {
		data.Frames[i].Truth = truth[data.Frames[i].Step]
	}
	if err := data.addScene(base, opts.sceneFile); err != nil {
		return misuse("--scene-file: %v", err)
	}
	page, err := renderView(&data.viewData)
	if err != nil {
		return err
	}
	if err := fsutil.WriteFileAtomic(opts.out, page); err != nil {
		return misuse("-o: %v", err)
	}
	drawn := 0
	for _, b := range data.Frames[0].Boxes {
		if b != nil {
			drawn++
		}
	}
	fmt.Fprintf(opts.err, "bddl: wrote %s (%d objects, %d with a box; %d scene objects; %d of %d steps shown)\n",
		opts.out, len(data.Objects), drawn, len(data.Furniture), len(data.Frames), data.Steps)
	if drawn == 0 && len(data.Furniture) == 0 {
		fmt.Fprintf(opts.err, "bddl: note: %s records no box (aabb or obb) for any object, so the page draws no object\n", path)
	}
	return nil
}

// viewLineLimit bounds one line of an episode read for the page.
const viewLineLimit = episode.MaxLineBytes

// viewRead is the page's data and what reading the episode learnt
// beside it.
type viewRead struct {
	viewData
	activityRef string
	scene       string // the knowledge-base scene a sample was laid out in
	boundScene  map[string]bool
}

// readViewFrames reads the objects' boxes at every step of an episode
// file (gzip-compressed when it ends in .gz) and keeps at most max
// frames, evenly spaced, and the last. An oriented box (obb) is kept as
// its corners, preferred to an axis-aligned one as the tighter.
func readViewFrames(path string, max int) (*viewRead, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		gz, err := gzip.NewReader(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		defer gz.Close()
		r = gz
	}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<16), viewLineLimit)
	type objFields struct {
		AABB   *[6]float64    `json:"aabb"`
		OBB    *[8][3]float64 `json:"obb"`
		Exists *bool          `json:"exists"`
		Room   *string        `json:"room"`
	}
	var header struct {
		Version  *int                  `json:"bddl_episode"`
		Format   string                `json:"format"`
		Activity string                `json:"activity"`
		Steps    int                   `json:"steps"`
		Objects  map[string]*objFields `json:"objects"`
		Meta     struct {
			Sampler *struct {
				Scene        string            `json:"scene"`
				Source       string            `json:"scene_source"`
				SceneObjects map[string]string `json:"scene_objects"`
			} `json:"sampler"`
		} `json:"meta"`
	}
	d := &viewRead{}
	index := map[string]int{}
	type objState struct {
		aabb, obb []float64
		gone      bool
	}
	var cur []objState
	line := 0
	apply := func(objs map[string]*objFields) {
		// Sorted, so the page is the same on every run.
		names := make([]string, 0, len(objs))
		for name := range objs {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			o := objs[name]
			i, ok := index[name]
			if !ok {
				i = len(d.Objects)
				index[name] = i
				d.Objects = append(d.Objects, viewObj{Name: name})
				cur = append(cur, objState{})
			}
			if o == nil {
				continue
			}
			if o.Room != nil && d.Objects[i].Room == "" {
				d.Objects[i].Room = *o.Room
			}
			if o.AABB != nil {
				cur[i].aabb = o.AABB[:]
			}
			if o.OBB != nil {
				c := make([]float64, 0, 24)
				for _, p := range o.OBB {
					c = append(c, p[:]...)
				}
				cur[i].obb = c
			}
			if o.Exists != nil {
				cur[i].gone = !*o.Exists
			}
		}
	}
	snapshot := func(step int64) viewFrame {
		fr := viewFrame{Step: step, Boxes: make([][]float64, len(cur))}
		for i, s := range cur {
			switch {
			case s.gone:
			case s.obb != nil:
				fr.Boxes[i] = s.obb
			case s.aabb != nil:
				fr.Boxes[i] = s.aabb
			}
		}
		return fr
	}
	var all []viewFrame
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		if line == 1 {
			if err := json.Unmarshal(b, &header); err != nil {
				return nil, fmt.Errorf("%s:1: not an episode: the header is not a JSON object of the episode format: %w", path, err)
			}
			if header.Format == "libero-episode" {
				return nil, fmt.Errorf("%s: a LIBERO episode records body poses, not boxes, so view cannot draw it (`bddl check` reads it)", path)
			}
			if header.Version == nil {
				return nil, fmt.Errorf("%s:1: not an episode: the header has no \"bddl_episode\" field (see docs/episode-format.md)", path)
			}
			d.activityRef = header.Activity
			if s := header.Meta.Sampler; s != nil {
				d.Sample = true
				if s.Source == "kb" {
					d.scene = s.Scene
				}
				d.boundScene = map[string]bool{}
				for _, v := range s.SceneObjects {
					d.boundScene[v] = true
				}
			}
			apply(header.Objects)
			continue
		}
		var step struct {
			Step    *int64                `json:"step"`
			Objects map[string]*objFields `json:"objects"`
		}
		if err := json.Unmarshal(b, &step); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		apply(step.Objects)
		n := int64(len(all))
		if step.Step != nil {
			n = *step.Step
		}
		all = append(all, snapshot(n))
		if len(all) > 4*max {
			all = thin(all, max)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, line+1, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("%s: not an episode: the file is empty", path)
	}
	if len(all) == 0 {
		all = append(all, snapshot(0))
	}
	d.Steps = int(all[len(all)-1].Step) + 1
	d.Frames = thin(all, max)
	// Objects that appeared later have no entry in earlier frames.
	for i := range d.Frames {
		for len(d.Frames[i].Boxes) < len(d.Objects) {
			d.Frames[i].Boxes = append(d.Frames[i].Boxes, nil)
		}
	}
	return d, nil
}

// thin keeps at most max frames, evenly spaced, always the first and
// the last.
func thin(fs []viewFrame, max int) []viewFrame {
	if len(fs) <= max {
		return fs
	}
	out := make([]viewFrame, 0, max)
	for k := 0; k < max; k++ {
		out = append(out, fs[k*(len(fs)-1)/(max-1)])
	}
	return out
}

//go:embed view.html.tmpl
var viewTemplate string

var viewPage = template.Must(template.New("view").Parse(viewTemplate))

// renderView fills the page template with the data, as JSON in a script
// element (html/template escapes it for that context).
func renderView(d *viewData) ([]byte, error) {
	var buf bytes.Buffer
	err := viewPage.Execute(&buf, struct {
		Title string
		Data  *viewData
	}{Title: termsafe.Text(d.Activity + ": " + filepath.Base(d.Episode)), Data: d})
	return buf.Bytes(), err
}
