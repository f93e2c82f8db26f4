package initcheck

import (
	"compress/gzip"
	"fmt"
	"io"
	"strings"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/episode/omnigibson"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/predicates"
)

// Eval converts (or reads) the job's state and evaluates :init. A
// state that cannot be read or converted is a Result with its Error and
// :init unknown.
func (j *Job) Eval() Result {
	if j.Own != nil {
		return j.Own()
	}
	res := Result{Record: "init", Episode: j.Path, Activity: j.Activity}
	var lits []omnigibson.InitLiteral
	var rep *omnigibson.Report
	var err error
	switch {
	case j.conv != nil:
		var h *episode.Header
		if j.template {
			h, rep, err = j.conv.ConvertTemplate()
		} else {
			var in *omnigibson.Instance
			if in, err = omnigibson.ReadInstance(j.Path); err == nil {
				h, rep, err = j.conv.Convert(in)
			}
		}
		if err == nil {
			lits, err = j.eval.Eval(h)
		}
	default:
		var r *episode.Reader
		var c io.Closer
		if r, c, err = openEpisode(j.Path); err == nil {
			// An episode converted from OmniGibson says which of its
			// records are approximate, as the conversion knew.
			rep = omnigibson.ReportFromMeta(r.Header().Meta)
			lits, err = j.eval.EvalReader(r)
			c.Close()
		}
	}
	if err != nil {
		res.Init, res.Error = "unknown", err.Error()
		return res
	}
	res.Literals = len(lits)
	verdict := predicates.True
	for i := range lits {
		l := &lits[i]
		verdict = verdict.And(l.Value)
		switch l.Value {
		case predicates.True:
			continue
		case predicates.False:
			res.False++
		default:
			res.Unknown++
		}
		f := Failure{Literal: l.Literal, Value: l.Value.String(), Detail: l.Detail,
			Approximate: rep != nil && rep.IsApproximate(l.Pred, l.Args)}
		res.Failing = append(res.Failing, f)
		res.NotTrue++
		if f.Approximate {
			res.Approximate++
		}
	}
	res.Init = verdict.String()
	return res
}

// openEpisode opens an episode file, gzip-compressed or not.
func openEpisode(path string) (*episode.Reader, io.Closer, error) {
	f, err := fsutil.OpenRegular(path)
	if err != nil {
		return nil, nil, err
	}
	var r io.Reader = f
	if strings.HasSuffix(path, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			f.Close()
			return nil, nil, fmt.Errorf("%s: %v", path, err)
		}
		r = zr
	}
	er, err := episode.NewReader(r, path)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return er, f, nil
}

func episodeHeader(path string) (*episode.Header, error) {
	r, c, err := openEpisode(path)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	return r.Header(), nil
}
