package robolab

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/predicates"
)

// Result is the outcome of checking one demo: a result line of the
// episode package with RoboLab's field names added (env_name, env_id,
// run, dt; episode, success, score, reason, episode_step and duration are
// the episode package's), and, when RoboLab's results file has the
// episode, RoboLab's verdict beside ours and how they agree.
type Result struct {
	*episode.Result
	EnvName string   `json:"env_name"`
	EnvID   int      `json:"env_id"`
	Run     *int     `json:"run"`
	DT      *float64 `json:"dt"`

	RoboLabSuccess *bool `json:"robolab_success,omitempty"`
	// RoboLabSuccessStep is RoboLab's episode_step when it judged success
	// (the step its environment stopped at); our first_success_step is the
	// row of the recording at which the goal first held.
	RoboLabSuccessStep *int64     `json:"robolab_success_step,omitempty"`
	RoboLabScore       *float64   `json:"robolab_score,omitempty"`
	RoboLabReason      *string    `json:"robolab_reason,omitempty"`
	RoboLabEpisodeStep *int64     `json:"robolab_episode_step,omitempty"`
	RoboLabEpisode     *int       `json:"robolab_episode,omitempty"`
	Agreement          *Agreement `json:"agreement,omitempty"`
}

// Check reads a demo as an episode and checks it against prog (whose
// instances opts.Instances should list). An error, however early, is a
// result that is not a success; the steps read before a bad step are
// still checked, and the result says what they showed.
func Check(ctx context.Context, prog *predicates.Program, r *Run, d Demo, opts Options, copts episode.CheckOptions) *Result {
	res := r.newResult(d)
	s, err := r.Stream(d, opts)
	if err != nil {
		res.fail(opts.Activity, r.EpisodeName(d), err, copts)
		return res
	}
	rd, err := episode.NewReader(s, s.Name())
	if err != nil {
		res.fail(opts.Activity, s.Name(), err, copts)
		return res
	}
	res.Result = episode.Check(ctx, prog, rd, copts)
	res.Warnings = append(res.Warnings, s.Warnings()...)
	if serr := s.Err(); serr != nil {
		Spoil(res.Result, serr)
	}
	return res
}

// Spoil marks a result whose recording could not be read in full: not a
// success, with the error, and the reason says what the steps read showed.
func Spoil(res *episode.Result, err error) {
	msg := err.Error()
	switch {
	case res.Steps == 0:
		res.Error, res.Reason = msg, msg
	case res.Error != "":
		res.Error = msg + "; " + res.Error
		res.Reason = res.Error
	default:
		res.Reason = fmt.Sprintf("%s; over the %d %s read: %s", msg, res.Steps, plural(res.Steps, "step", "steps"), res.Reason)
		res.Error = msg
	}
	res.Success = false
}

// NewResult wraps the episode result of a demo with RoboLab's fields.
func NewResult(r *Run, d Demo, er *episode.Result) *Result {
	res := r.newResult(d)
	res.Result = er
	return res
}

// Extra are the fields a Result adds to its episode result, by JSON name.
func (res *Result) Extra() map[string]any {
	out := map[string]any{"env_name": res.EnvName, "env_id": res.EnvID, "run": res.Run, "dt": res.DT}
	add := func(k string, v any, ok bool) {
		if ok {
			out[k] = v
		}
	}
	add("robolab_success", res.RoboLabSuccess, res.RoboLabSuccess != nil)
	add("robolab_success_step", res.RoboLabSuccessStep, res.RoboLabSuccessStep != nil)
	add("robolab_score", res.RoboLabScore, res.RoboLabScore != nil)
	add("robolab_reason", res.RoboLabReason, res.RoboLabReason != nil)
	add("robolab_episode_step", res.RoboLabEpisodeStep, res.RoboLabEpisodeStep != nil)
	add("robolab_episode", res.RoboLabEpisode, res.RoboLabEpisode != nil)
	add("agreement", res.Agreement, res.Agreement != nil)
	return out
}

func (r *Run) newResult(d Demo) *Result {
	res := &Result{EnvName: r.EnvName, EnvID: d.EnvID}
	if r.HasIndex {
		k := r.Index
		res.Run = &k
	}
	if d.DT > 0 {
		dt := d.DT
		res.DT = &dt
	}
	return res
}

func (res *Result) fail(activity, name string, err error, copts episode.CheckOptions) {
	res.Result = &episode.Result{Activity: activity, Episode: name, Reason: err.Error(), Error: err.Error(),
		Hold: max(copts.Hold, 1)}
}

// FileResult is the result of a run file that could not be opened at all.
func FileResult(path, activity string, err error, copts episode.CheckOptions) *Result {
	res := &Result{}
	res.fail(activity, path, err, copts)
	return res
}

// Judge attaches RoboLab's verdict on the result's demo, when rs has one.
func (res *Result) Judge(v *Verdict) {
	if v == nil {
		return
	}
	res.RoboLabSuccess = v.Success
	res.RoboLabScore = v.Score
	res.RoboLabReason = v.Reason
	res.RoboLabEpisodeStep = v.EpisodeStep
	res.RoboLabEpisode = v.Episode
	if *v.Success {
		res.RoboLabSuccessStep = v.EpisodeStep
	}
	a := Agree(res.Success, *v.Success)
	if res.Result != nil && res.Result.Error != "" {
		a = NotCompared
	}
	res.Agreement = &a
}

// CheckRun checks every demo of a run file, attaching RoboLab's verdicts
// from rs (nil: none).
func CheckRun(ctx context.Context, prog *predicates.Program, path string, opts Options, copts episode.CheckOptions, rs *Results) []*Result {
	r, err := Open(path)
	if err != nil {
		return []*Result{FileResult(path, opts.Activity, err, copts)}
	}
	defer r.Close()
	var out []*Result
	for _, d := range r.Demos() {
		res := Check(ctx, prog, r, d, opts, copts)
		res.Judge(rs.Find(r, d))
		out = append(out, res)
	}
	return out
}

// WriteAgreement prints how our verdicts agree with RoboLab's: the count
// of each agreement, then every episode with RoboLab's verdict, with the
// step at which each side judged success.
func WriteAgreement(w io.Writer, results []*Result) error {
	counts := map[Agreement]int{}
	judged := 0
	for _, r := range results {
		if r.Agreement != nil {
			counts[*r.Agreement]++
			judged++
		}
	}
	if judged == 0 {
		_, err := fmt.Fprintln(w, "RoboLab: no verdict found for these episodes (no episode_results.jsonl beside the run files or in their parent directory; give --robolab-results FILE)")
		return err
	}
	compared := judged - counts[NotCompared]
	fmt.Fprintf(w, "RoboLab agreement over %d %s: %d both succeed, %d both fail, %d only RoboLab, %d only BDDL",
		compared, plural(compared, "episode", "episodes"), counts[BothSucceed], counts[BothFail], counts[OnlyRoboLab], counts[OnlyBDDL])
	if n := counts[NotCompared]; n > 0 {
		fmt.Fprintf(w, "; %d not compared (BDDL error)", n)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "EPISODE\tBDDL\tROBOLAB\tAGREEMENT")
	for _, r := range results {
		if r.Agreement == nil {
			continue
		}
		ours := verdictText(r.Success, r.FirstSuccessStep)
		if r.Error != "" {
			ours = "error"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.Episode, ours, verdictText(*r.RoboLabSuccess, r.RoboLabSuccessStep), r.Agreement.Text())
	}
	return tw.Flush()
}

func verdictText(success bool, step *int64) string {
	var b strings.Builder
	if success {
		b.WriteString("success")
		if step != nil {
			fmt.Fprintf(&b, " at step %d", *step)
		}
	} else {
		b.WriteString("failure")
		if step != nil { // the goal held, but not as the options require
			fmt.Fprintf(&b, " (held at step %d)", *step)
		}
	}
	return b.String()
}
