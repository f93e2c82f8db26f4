package viewrun

import (
	"context"
	"fmt"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/view"
)

// Options are a view run's.
type Options struct {
	Base      *kb.Base
	Resolver  *batch.Resolver // with --activity and --activities set
	Activity  string          // --activity, else the header's
	SceneFile string          // --scene-file
	Frames    int             // most steps the page holds
	Note      func(string)
}

// UsageError is an error of the command line: misuse.
type UsageError struct{ Err error }

func (e *UsageError) Error() string { return e.Err.Error() }

// Episode is the data of one episode file's page (view.Render draws it).
// An episode that cannot be drawn or checked is an error (findings, no
// page written); a bad --scene-file or a path that is not one episode
// file is a *UsageError.
func Episode(ctx context.Context, path string, o Options) (*view.Episode, error) {
	inputs, err := batch.Expand([]string{path}, batch.ExpandOptions{What: "episodes", Match: batch.IsEpisodeFile,
		Describe: batch.EpisodeSuffixes(), Note: o.Note})
	if err != nil {
		return nil, &UsageError{err}
	}
	eps := batch.Episodes(ctx, inputs)
	if len(eps) != 1 || eps[0].Sub != "" {
		return nil, &UsageError{fmt.Errorf("%s: view shows one episode file (JSON Lines), not %d", path, len(eps))}
	}
	// The page is drawn from what the episode records: read it first, so
	// that a file that is not an episode is refused before anything is
	// written.
	data, err := view.ReadEpisode(path, o.Frames)
	if err != nil {
		return nil, err
	}
	checker := &batch.Checker{Resolver: o.Resolver, Options: episode.CheckOptions{Hold: 1, PerStep: true}}
	out := checker.Check(ctx, eps[0])
	if out.Result.Error != "" {
		return nil, fmt.Errorf("%s: %s (no page written)", path, out.Result.Error)
	}
	data.SetResult(path, out.Result)
	var problem *bddl.Problem
	ref := o.Activity
	if ref == "" {
		ref = data.ActivityRef()
	}
	if act, err := o.Resolver.Resolve(ref, eps[0]); err == nil {
		problem = act.Problem
	}
	data.Link(problem, out.Result.Conjuncts)
	if err := data.AddScene(o.Base, o.SceneFile); err != nil {
		return nil, &UsageError{fmt.Errorf("--scene-file: %v", err)}
	}
	return data, nil
}
