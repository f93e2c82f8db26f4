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
	"strings"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/batch"
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
	activity string
	library  string
	out      string
	frames   int
}

func newViewCmd(g *globalOptions) *cobra.Command {
	opts := &viewOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "view EPISODE -o FILE.html [--activity FILE|NAME]",
		Short: "Write one self-contained HTML page showing a sampled scene or an episode",
		Long: `View writes one HTML file, with everything inline (no network access, no
server), that shows an episode: a sampled scene (one step) or a recording.
The objects' boxes are drawn in their rooms from above (x, y) and from the
side (x, z), labelled on hover; a step slider moves through the recording
and lists which top-level goal conjuncts hold at each step (true, false or
unknown); the check report is beside it.

The activity is --activity, else the one the header names (found as check
finds it). An episode of more than ` + fmt.Sprint(maxViewFrames) + ` steps is shown at
evenly spaced steps (--frames sets how many) and always at its last.`,
		Example: `  bddl sample cleaning_shoes -o samples/ && bddl view samples/cleaning_shoes/*.jsonl -o scene.html
  bddl view --activity tidying_the_living_room activities/examples/tidying_the_living_room/episodes/poses.jsonl -o poses.html`,
		Args: exactArgs(1, "an episode file"),
		RunE: func(_ *cobra.Command, args []string) error { return runView(opts, args[0]) },
	}
	f := cmd.Flags()
	addOutputFlag(f, &opts.out, "", "the HTML file to write (required)")
	f.StringVar(&opts.activity, "activity", "", "activity definition: a problem file or a name (default: the one the header names)")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find the activity by name in")
	f.IntVar(&opts.frames, "frames", maxViewFrames, "most steps the page holds")
	opts.readFlags.add(f)
	return cmd
}

// viewData is what the page draws, as JSON inside it.
type viewData struct {
	Activity  string      `json:"activity"`
	Episode   string      `json:"episode"`
	Objects   []viewObj   `json:"objects"`
	Frames    []viewFrame `json:"frames"`
	Conjuncts []string    `json:"conjuncts"`
	Report    string      `json:"report"`
	Steps     int         `json:"steps"`
}

type viewObj struct {
	Name string `json:"name"`
	Room string `json:"room,omitempty"`
}

// viewFrame is one shown step: each object's box (null when it has none
// or does not exist), the goal's and each conjunct's truth.
type viewFrame struct {
	Step  int64        `json:"step"`
	Boxes [][6]float64 `json:"boxes"`
	Has   []bool       `json:"has"`
	Truth []string     `json:"truth,omitempty"` // goal, then conjuncts
	_     struct{}     `json:"-"`
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
	checker := &batch.Checker{Resolver: res, Options: episode.CheckOptions{Hold: 1, PerStep: true}}
	o := checker.Check(ctx, eps[0])
	var report bytes.Buffer
	_ = o.Result.WriteText(&report)

	data, err := readViewFrames(path, opts.frames)
	if err != nil {
		return misuse("%v", err)
	}
	data.Activity, data.Episode, data.Report = o.Result.Activity, path, report.String()
	data.Conjuncts = o.Result.Conjuncts
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
	page, err := renderView(data)
	if err != nil {
		return err
	}
	if err := fsutil.WriteFileAtomic(opts.out, page); err != nil {
		return misuse("-o: %v", err)
	}
	fmt.Fprintf(opts.err, "bddl: wrote %s (%d objects, %d of %d steps shown)\n", opts.out, len(data.Objects), len(data.Frames), data.Steps)
	if o.Result.Error != "" {
		return findings()
	}
	return nil
}

// viewLineLimit bounds one line of an episode read for the page.
const viewLineLimit = episode.MaxLineBytes

// readViewFrames reads the objects' boxes at every step of an episode
// file (gzip-compressed when it ends in .gz) and keeps at most max
// frames, evenly spaced, and the last.
func readViewFrames(path string, max int) (*viewData, error) {
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
		AABB   *[6]float64 `json:"aabb"`
		Exists *bool       `json:"exists"`
		Room   *string     `json:"room"`
	}
	var header struct {
		Steps   int                   `json:"steps"`
		Objects map[string]*objFields `json:"objects"`
	}
	d := &viewData{}
	index := map[string]int{}
	var cur viewFrame
	line := 0
	apply := func(objs map[string]*objFields) {
		for name, o := range objs {
			i, ok := index[name]
			if !ok {
				i = len(d.Objects)
				index[name] = i
				d.Objects = append(d.Objects, viewObj{Name: name})
				cur.Boxes = append(cur.Boxes, [6]float64{})
				cur.Has = append(cur.Has, false)
			}
			if o == nil {
				continue
			}
			if o.Room != nil && d.Objects[i].Room == "" {
				d.Objects[i].Room = *o.Room
			}
			if o.AABB != nil {
				cur.Boxes[i], cur.Has[i] = *o.AABB, true
			}
			if o.Exists != nil && !*o.Exists {
				cur.Has[i] = false
			}
		}
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
				return nil, fmt.Errorf("%s:1: header: %w", path, err)
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
		cur.Step = int64(len(all))
		if step.Step != nil {
			cur.Step = *step.Step
		}
		all = append(all, viewFrame{Step: cur.Step, Boxes: append([][6]float64(nil), cur.Boxes...), Has: append([]bool(nil), cur.Has...)})
		if len(all) > 4*max {
			all = thin(all, max)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", path, line+1, err)
	}
	if len(all) == 0 {
		all = append(all, viewFrame{Boxes: cur.Boxes, Has: cur.Has})
	}
	d.Steps = int(all[len(all)-1].Step) + 1
	d.Frames = thin(all, max)
	// Objects that appeared later have no entry in earlier frames.
	for i := range d.Frames {
		for len(d.Frames[i].Boxes) < len(d.Objects) {
			d.Frames[i].Boxes = append(d.Frames[i].Boxes, [6]float64{})
			d.Frames[i].Has = append(d.Frames[i].Has, false)
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
