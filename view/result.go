package view

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/openbddl/bddl/episode"
)

// SetResult puts the check's result on the page: its report (after a
// note on what a sample promises, for a sampled scene), its verdict
// (for a sample, the truth of :init) and the goal's and each conjunct's
// truth at every shown step. path is the episode as the page names it.
func (d *Episode) SetResult(path string, r *episode.Result) {
	var report bytes.Buffer
	if d.Sample {
		fmt.Fprintf(&report, "A sampled initial scene: :init is %s here, which is what a sample promises;\nthe goal is not expected to hold yet (`bddl check --init` checks samples).\n\n", r.Init)
	}
	_ = r.WriteText(&report)
	d.Activity, d.Episode, d.Report = r.Activity, path, report.String()
	d.Verdict = r.Verdict()
	if d.Sample {
		d.Verdict = "INIT " + strings.ToUpper(r.Init.String())
	}
	truth := map[int64][]string{}
	for _, s := range r.PerStep {
		t := []string{s.Goal.String()}
		for _, c := range s.Conjuncts {
			t = append(t, c.String())
		}
		truth[s.Step] = t
	}
	for i := range d.Frames {
		d.Frames[i].Truth = truth[d.Frames[i].Step]
	}
}
