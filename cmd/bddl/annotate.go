package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/dora"
	"github.com/openbddl/bddl/episode/oopsie"
	"github.com/openbddl/bddl/episode/recording"
	"github.com/openbddl/bddl/episode/robolab"
	"github.com/openbddl/bddl/predicates"
)

func init() {
	subcommands = append(subcommands, newAnnotateCmd, newAnnotationsCmd)
}

type annotateOptions struct {
	episodeWriteOptions
	recordingFlags
	annotator string
	force     bool
	hold      int
	format    string
	// now is the annotations' timestamp (tests fix it).
	now func() time.Time
}

func newAnnotateCmd(g *globalOptions) *cobra.Command {
	opts := &annotateOptions{episodeWriteOptions: episodeWriteOptions{globalOptions: g}, now: time.Now}
	cmd := &cobra.Command{
		Use:   "annotate PATH... --activity ACTIVITY --annotator NAME",
		Short: "Write BDDL verdicts on robot recordings where annotation tools look",
		Long: `Annotate checks each Oopsie episode (*.h5, *.hdf5) and Dora-record episode
(a folder with metadata.json; sessions and trees are walked) against the
activity, joined with its object track as 'bddl check' does, and writes the
verdict as annotator NAME:

  Oopsie       episode_annotations/NAME/ in the episode file, with the
               attributes source ("bddl"), timestamp (ISO 8601), success (1.0
               or 0.0), failure_description, taxonomy and additional_notes
  Dora-record  NAME_annotation.json beside metadata.json, the same record

failure_description is the first goal literal that does not hold at the end,
in words; taxonomy is {"failure_category": "none" | "goal-not-reached" |
"init-not-satisfied" | "undetermined", "severity": 1 - the goal's score}.
A recording that cannot be read in full is annotated "undetermined".

An existing annotation by NAME is refused unless --force. Writes are atomic:
an Oopsie file is rewritten beside itself, read back and compared with the
original object by object through the reader before it replaces it, so a
failure leaves it untouched.

The exit status is 0 when every episode was annotated, 1 when one was not, 2
on misuse.`,
		Example: `  bddl annotate oopsie_session/ --activity putting_the_apple_on_the_table --annotator bddl
  bddl annotate dora-record/session_1/ --map robot.yaml --annotator bddl --force
  bddl annotations compare oopsie_session/ --annotator bddl --against human`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAnnotate(cmd.Context(), opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.activity, "activity", "", "the activity: a problem file or a name (default: the map's activity:)")
	f.StringVar(&opts.library, "activities", "", "a BEHAVIOR-1K activity_definitions directory to find the activity by name in")
	f.StringVar(&opts.annotator, "annotator", "bddl", "the annotator's name: the group (Oopsie) or file prefix (Dora-record) written")
	f.BoolVar(&opts.force, "force", false, "replace an existing annotation by the same annotator")
	f.IntVar(&opts.hold, "hold", 1, "the goal must hold for N consecutive steps")
	f.StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per episode, JSON Lines)")
	opts.recordingFlags.add(f, true)
	opts.readFlags.add(f)
	return cmd
}

func runAnnotate(ctx context.Context, opts *annotateOptions, paths []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	if err := opts.recordingFlags.validate(); err != nil {
		return err
	}
	if err := oopsie.ValidAnnotator(opts.annotator); err != nil {
		return misuse("--annotator: %v", err)
	}
	eps, err := findRecordings(paths)
	if err != nil {
		return misuse("%v", err)
	}
	if opts.objects != "" && len(eps) != 1 {
		return misuse("--objects names the track of a single episode; there are %d", len(eps))
	}
	prog, ref, m, err := opts.recordingActivity(&opts.recordingFlags)
	if err != nil {
		return err
	}
	ropts := opts.recordingFlags.options(ref, prog, m)
	failed := 0
	for _, ep := range eps {
		res := checkRecording(ctx, prog, ep, ropts, episode.CheckOptions{Hold: opts.hold})
		a := recording.Verdict(res, opts.annotator, opts.now())
		where, err := writeAnnotation(ep, &a, opts.force)
		if err != nil {
			failed++
			fmt.Fprintf(opts.err, "bddl: %v\n", err)
		}
		printAnnotation(opts.streams.out, opts.format, ep, &a, where, err)
	}
	if failed > 0 {
		return findings()
	}
	return nil
}

// checkRecording checks one recording; an error is a result that is
// not a success, saying why.
func checkRecording(ctx context.Context, prog *predicates.Program, ep recEpisode, o recording.Options, copts episode.CheckOptions) *episode.Result {
	fail := func(err error) *episode.Result {
		return &episode.Result{Activity: o.Activity, Episode: ep.path, Error: err.Error(), Reason: err.Error(), Hold: max(copts.Hold, 1)}
	}
	j, err := ep.open(o)
	if err != nil {
		return fail(err)
	}
	defer j.close()
	r, err := episode.NewReader(j, ep.path)
	if err != nil {
		return fail(err)
	}
	res := episode.Check(ctx, prog, r, copts)
	if err := j.Err(); err != nil {
		robolab.Spoil(res, err)
	}
	return res
}

func writeAnnotation(ep recEpisode, a *recording.Annotation, force bool) (string, error) {
	if ep.layout == "dora" {
		return dora.AnnotationPath(ep.path, a.Annotator), dora.Annotate(ep.path, a, force)
	}
	return ep.path + "#" + oopsie.AnnotationsGroup + "/" + a.Annotator, oopsie.Annotate(ep.path, a, force)
}

func printAnnotation(w io.Writer, format string, ep recEpisode, a *recording.Annotation, where string, err error) {
	tax := recording.ParseTaxonomy(a.Taxonomy)
	if format == "json" {
		rec := map[string]any{"episode": ep.path, "layout": ep.layoutName(), "annotator": a.Annotator, "success": a.Success,
			"failure_description": a.FailureDescription, "taxonomy": tax, "timestamp": a.Timestamp, "written": where}
		if err != nil {
			rec["error"] = err.Error()
			delete(rec, "written")
		}
		line, _ := json.Marshal(rec)
		fmt.Fprintf(w, "%s\n", line)
		return
	}
	if err != nil {
		return
	}
	verdict := "success"
	if !a.Succeeded() {
		verdict = "failure (" + tax.FailureCategory + "): " + a.FailureDescription
	}
	fmt.Fprintf(w, "%s: %s; wrote %s\n", ep.path, verdict, where)
}

func newAnnotationsCmd(g *globalOptions) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "annotations",
		Short: "Compare the annotations of robot recordings",
		Long: `Tools for the annotations of robot recordings: Oopsie's episode_annotations
groups and Dora-record's <annotator>_annotation.json files.`,
		Example: `  bddl annotations compare oopsie_session/ --against human`,
	}
	cmd.AddCommand(newAnnotationsCompareCmd(g))
	return asGroup(cmd)
}

type compareOptions struct {
	*globalOptions
	annotator, against, format string
}

func newAnnotationsCompareCmd(g *globalOptions) *cobra.Command {
	opts := &compareOptions{globalOptions: g}
	cmd := &cobra.Command{
		Use:   "compare PATH... [--annotator NAME] [--against NAME|human]",
		Short: "Measure how an annotator agrees with the others (Cohen's kappa)",
		Long: `Compare reads the annotations of every Oopsie episode and Dora-record
episode under the paths and, for each pair of --annotator (default bddl) and
another annotator (--against NAME; "human": every annotator whose source is
human; default: every other), over the episodes both judged: the confusion
matrix of their verdicts (success = success ≥ 0.5), the raw agreement, Cohen's
kappa ((po - pe) / (1 - pe); null when both gave a single verdict throughout)
and the episodes where they disagree, with both descriptions.

The exit status is 0 when a pair was compared, 1 when no episode has
annotations by both annotators of any pair, 2 on misuse.`,
		Example: `  bddl annotations compare oopsie_session/ --annotator bddl --against human
  bddl annotations compare dora-record/ --against human --format json`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runAnnotationsCompare(opts, args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.annotator, "annotator", "bddl", "the annotator compared with the others")
	f.StringVar(&opts.against, "against", "", `the annotator to compare with, or "human" for every human one (default: every other)`)
	f.StringVar(&opts.format, "format", "text", "output format: text or json (one JSON object per pair, JSON Lines)")
	return cmd
}

// readAnnotations reads the annotations of every recording.
func readAnnotations(eps []recEpisode) ([]recording.Annotated, error) {
	out := make([]recording.Annotated, 0, len(eps))
	for _, ep := range eps {
		var as []*recording.Annotation
		if ep.layout == "dora" {
			var err error
			if as, err = dora.Annotations(ep.path); err != nil {
				return nil, err
			}
		} else {
			e, err := oopsie.Open(ep.path)
			if err != nil {
				return nil, err
			}
			as = e.Annotations
			e.Close()
		}
		out = append(out, recording.Annotated{Episode: ep.path, Annotations: as})
	}
	return out, nil
}

func runAnnotationsCompare(opts *compareOptions, paths []string) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	eps, err := findRecordings(paths)
	if err != nil {
		return misuse("%v", err)
	}
	ann, err := readAnnotations(eps)
	if err != nil {
		fmt.Fprintf(opts.err, "bddl: %v\n", err)
		return findings()
	}
	pairs := recording.Pairs(ann, opts.annotator, opts.against)
	compared := 0
	for _, p := range pairs {
		g := recording.Agree(ann, p[0], p[1])
		if g.Episodes == 0 {
			continue // nothing both judged: no figures (kappa of nothing)
		}
		compared++
		if opts.format == "json" {
			line, _ := json.Marshal(g)
			fmt.Fprintf(opts.streams.out, "%s\n", line)
			continue
		}
		writeAgreement(opts.streams.out, g)
	}
	if compared == 0 {
		against := "another annotator"
		if opts.against != "" {
			against = opts.against
		}
		fmt.Fprintf(opts.err, "bddl: no episode among %d is annotated by both %s and %s\n", len(eps), opts.annotator, against)
		return findings()
	}
	return nil
}

func writeAgreement(w io.Writer, g *recording.Agreement) {
	fmt.Fprintf(w, "%s vs %s: %d %s\n", g.A, g.B, g.Episodes, plural(g.Episodes, "episode", "episodes"))
	pad := strings.Repeat(" ", len(g.A))
	fmt.Fprintf(w, "  %s           %s\n", pad, g.B)
	fmt.Fprintf(w, "  %s           success  failure\n", pad)
	fmt.Fprintf(w, "  %s  success  %7d  %7d\n", g.A, g.Matrix[0][0], g.Matrix[0][1])
	fmt.Fprintf(w, "  %s  failure  %7d  %7d\n", pad, g.Matrix[1][0], g.Matrix[1][1])
	kappa := "undefined (a single verdict throughout)"
	if k := g.Kappa; k == k {
		kappa = fmt.Sprintf("%.3f", k)
	}
	fmt.Fprintf(w, "  raw agreement %.3f, Cohen's kappa %s\n", g.Raw, kappa)
	if len(g.Disagreements) == 0 {
		fmt.Fprintln(w, "  no disagreement")
	}
	for _, d := range g.Disagreements {
		fmt.Fprintf(w, "  %s: %s %s%s; %s %s%s\n", d.Episode, g.A, verdictWord(d.ASuccess), quoted(d.ADesc), g.B, verdictWord(d.BSuccess), quoted(d.BDesc))
	}
	fmt.Fprintln(w)
}

func verdictWord(ok bool) string {
	if ok {
		return "success"
	}
	return "failure"
}

func quoted(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return fmt.Sprintf(" (%q)", s)
}
