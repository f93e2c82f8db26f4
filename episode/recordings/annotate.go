package recordings

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/openbddl/bddl/episode/dora"
	"github.com/openbddl/bddl/episode/oopsie"
	"github.com/openbddl/bddl/episode/recording"
)

// Annotate writes an annotation where the recording's layout keeps them
// (an Oopsie file's episode_annotations group, a Dora folder's
// NAME_annotation.json) and returns where, refusing to replace one by
// the same annotator unless force.
func Annotate(ep Episode, a *recording.Annotation, force bool) (string, error) {
	if ep.Layout == Dora {
		return dora.AnnotationPath(ep.Path, a.Annotator), dora.Annotate(ep.Path, a, force)
	}
	return ep.Path + "#" + oopsie.AnnotationsGroup + "/" + a.Annotator, oopsie.Annotate(ep.Path, a, force)
}

// WriteAnnotated reports an annotation written (at where) or not (err):
// annotate's record with JSON, else a line for people (nothing for an
// error, which is printed on its own).
func WriteAnnotated(w io.Writer, asJSON bool, ep Episode, a *recording.Annotation, where string, err error) {
	tax := recording.ParseTaxonomy(a.Taxonomy)
	if asJSON {
		rec := map[string]any{"record": "annotation", "episode": ep.Path, "layout": ep.LayoutName(), "annotator": a.Annotator, "success": a.Success,
			"failure_description": a.FailureDescription, "taxonomy": tax, "timestamp": a.Timestamp, "written": where}
		if err != nil {
			rec["error"] = err.Error()
			delete(rec, "written")
		}
		writeJSONLine(w, rec)
		return
	}
	if err != nil {
		return
	}
	verdict := "success"
	if !a.Succeeded() {
		verdict = "failure (" + tax.FailureCategory + "): " + a.FailureDescription
	}
	fmt.Fprintf(w, "%s: %s; wrote %s\n", ep.Path, verdict, where)
}

func writeJSONLine(w io.Writer, v any) {
	line, _ := json.Marshal(v)
	fmt.Fprintf(w, "%s\n", line)
}

// ReadAnnotations reads the annotations of every recording.
func ReadAnnotations(eps []Episode) ([]recording.Annotated, error) {
	out := make([]recording.Annotated, 0, len(eps))
	for _, ep := range eps {
		var as []*recording.Annotation
		if ep.Layout == Dora {
			var err error
			if as, err = dora.Annotations(ep.Path); err != nil {
				return nil, err
			}
		} else {
			e, err := oopsie.Open(ep.Path)
			if err != nil {
				return nil, err
			}
			as = e.Annotations
			e.Close()
		}
		out = append(out, recording.Annotated{Episode: ep.Path, Annotations: as})
	}
	return out, nil
}

// WriteAgreement prints how two annotators agree, for people: the
// confusion matrix, raw agreement, Cohen's kappa and the disagreements.
func WriteAgreement(w io.Writer, g *recording.Agreement) {
	episodes := "episodes"
	if g.Episodes == 1 {
		episodes = "episode"
	}
	fmt.Fprintf(w, "%s vs %s: %d %s\n", g.A, g.B, g.Episodes, episodes)
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
