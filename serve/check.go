package serve

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/transitions"
)

// bddl serve's check: episodes in files, or held in memory, checked as
// bddl check checks them, one record each.

func init() { serveMethods["check"] = serveCheck }

type checkParams struct {
	evalParams
	// Episode is a file, directory or glob, as bddl check --episode
	// takes; Lines an episode's lines (header first), each a JSON object
	// or a string holding one.
	Episode  string            `json:"episode"`
	Lines    []json.RawMessage `json:"lines"`
	Name     string            `json:"name"`
	Activity string            `json:"activity"`
}

func serveCheck(s *server, raw json.RawMessage) (any, *serveError) {
	var p checkParams
	if e := decodeParams(raw, &p); e != nil {
		return nil, e
	}
	if (p.Episode == "") == (len(p.Lines) == 0) {
		return nil, errorf(codeInvalidParams, "check needs an episode path or its lines, not both")
	}
	o, serr := p.evalParams.checkOptions(s.opts)
	if serr != nil {
		return nil, serr
	}
	res, _, _, serr := s.state.resolver(&p.evalParams, o)
	if serr != nil {
		return nil, serr
	}
	ctx := context.Background()
	if p.Activity != "" {
		// A fixed activity is a property of the resolver: this request
		// gets its own.
		fixed := s.state.newResolver(res.Base(), o.Compile)
		fixed.SetParse(o.Parse, nil)
		if p.Activities != "" {
			if err := fixed.AddLibrary(p.Activities, nil); err != nil {
				return nil, errorf(codeNotFound, "activities %v", err)
			}
		}
		if err := fixed.SetActivity(ctx, p.Activity, bytes.NewReader(nil), nil); err != nil {
			return nil, asServeError(err, codeNotFound)
		}
		res = fixed
	}
	c := &batch.Checker{Resolver: res, Options: o.Episode, Negation: o.negation}
	if p.Transitions {
		ec := transitions.NewEpisodeChecker(res.Base())
		c.Evaluate = func(ctx context.Context, t *batch.Task) *episode.Result {
			return ec.Check(ctx, t.Program, t.Reader, t.Options)
		}
	}
	var eps []batch.Episode
	if len(p.Lines) > 0 {
		var buf bytes.Buffer
		for i, l := range p.Lines {
			l = bytes.TrimSpace(l)
			if len(l) > 0 && l[0] == '"' {
				var str string
				if err := json.Unmarshal(l, &str); err != nil {
					return nil, errorf(codeInvalidParams, "lines[%d]: %v", i, err)
				}
				l = []byte(str)
			}
			buf.Write(l)
			buf.WriteByte('\n')
		}
		c.Open.Stdin = &buf
		name := p.Name
		if name == "" {
			name = batch.Stdin
		}
		eps = []batch.Episode{{Input: batch.Input{Path: batch.Stdin, Arg: batch.Stdin, Rel: name}, Format: batch.JSONLines}}
	} else {
		inputs, err := batch.Expand([]string{p.Episode}, batch.ExpandOptions{What: "episodes", Match: batch.IsEpisodeFile,
			Describe: batch.EpisodeSuffixes()})
		if err != nil {
			return nil, errorf(codeNotFound, "episode: %v", err)
		}
		eps = batch.Episodes(ctx, inputs)
	}
	records := make([]json.RawMessage, 0, len(eps))
	for _, ep := range eps {
		out := c.Check(ctx, ep)
		if !o.perStep {
			out.PerStep, out.Conjuncts = nil, nil
		}
		if len(p.Lines) > 0 && p.Name != "" {
			out.Episode = p.Name
		}
		b, err := batch.MarshalLine(out)
		if err != nil {
			return nil, errorf(codeInternal, "marshalling the result: %v", err)
		}
		records = append(records, bytes.TrimRight(b, "\n"))
	}
	return map[string]any{"records": records}, nil
}
