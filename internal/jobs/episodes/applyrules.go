package episodes

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/transitions"
)

// ApplyRules is one run of 'bddl episode apply-rules'.
type ApplyRules struct {
	Episode  string // the recording, made with rules off
	Out      string // -o
	Activity string // --activity, "" for the header's
	Library  string
	Options  string // --transition-options
	// Open loads the knowledge base and returns the resolver on it.
	Open   func() (*batch.Resolver, error)
	Note   func(string)
	Stdin  io.Reader
	Stderr io.Writer
}

// Apply writes the episode with each rule's outcome added to the step it
// fired at, listing the firings on Stderr. No firing is a finding (the
// output is written all the same); so is a bad recording.
func Apply(a ApplyRules) error {
	if a.Out == "" {
		return batch.Usage("-o OUT is required")
	}
	if batch.PathKey(a.Out) == batch.PathKey(a.Episode) {
		return batch.Usage("-o %s: write the outcome to another file than the episode", a.Out)
	}
	res, err := a.Open()
	if err != nil {
		return err
	}
	path := a.Episode
	bound, err := episode.Open(path)
	if err != nil {
		return batch.Usage("%v", err)
	}
	defer bound.Close()
	values, err := episode.Open(path)
	if err != nil {
		return batch.Usage("%v", err)
	}
	defer values.Close()
	if a.Library != "" {
		if err := res.AddLibrary(a.Library, a.Note); err != nil {
			return batch.Usage("--activities %v", err)
		}
	}
	if a.Activity != "" {
		if err := res.SetActivity(context.Background(), a.Activity, a.Stdin, a.Note); err != nil {
			return batch.Usage("--activity %v", err)
		}
	}
	ep := batch.Episode{Input: batch.Input{Path: path, Arg: path, Root: filepath.Dir(path), Rel: filepath.Base(path)}}
	act, err := res.Resolve(bound.Header().Activity, ep)
	if err != nil {
		return batch.Usage("%v", err)
	}
	prog, err := res.Program(act, episode.Wildcards(act.Problem, bound.Header()))
	if err != nil {
		return batch.Usage("activity %s: %v", act.Name, err)
	}
	topts, err := transitions.ParseOptions(a.Options)
	if err != nil {
		return batch.Usage("--transition-options: %v", err)
	}
	eng, err := transitions.CompileWith(prog, res.Base(), topts)
	if err != nil {
		return err
	}
	// A bad recording is a finding (exit 1), as check reports it; the
	// error names the file, line, step and field.
	bad := func(err error) error {
		var re *transitions.RecordingError
		if errors.As(err, &re) {
			return batch.Findings(err)
		}
		return err
	}
	ap, err := transitions.NewApplier(eng, prog, path, bound, values)
	if err != nil {
		return bad(err)
	}
	tmp, err := fsutil.CreateTempBeside(a.Out)
	if err != nil {
		return batch.Usage("-o: %v", err)
	}
	fired, err := ap.WriteFile(tmp, a.Out, func(r episode.RuleFiring) {
		fmt.Fprintf(a.Stderr, "step %d: %s %s in %s: %s → %s\n", r.Step, r.Family, r.Rule, r.Container,
			strings.Join(r.Consumed, ", "), strings.Join(r.Produced, ", "))
	})
	if err != nil {
		return bad(err)
	}
	if fired == 0 {
		fmt.Fprintf(a.Stderr, "bddl: no transition rule fired in %s; wrote it unchanged to %s\n", path, a.Out)
		return batch.Findings(nil)
	}
	s := "s"
	if fired == 1 {
		s = ""
	}
	fmt.Fprintf(a.Stderr, "%d rule firing%s written to %s\n", fired, s, a.Out)
	return nil
}
