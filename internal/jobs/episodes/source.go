package episodes

import (
	"context"
	"io"
	"strings"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/predicates"
)

// Source is the activity a command names and how to compile it.
type Source struct {
	Activity string // a problem file or a name
	Library  string // --activities: where names are looked up first
	Stdin    io.Reader
	// Open loads the knowledge base and returns the resolver on it and
	// the reading policy; it is called once the request is checked.
	Open func() (*batch.Resolver, bddl.Options, error)
	Note func(string)
	Warn func(bddl.Diagnostics)
}

// Compile resolves and compiles the activity; ref is how an episode's
// header names it: a name found in a library as the name, a file as
// given.
func (s *Source) Compile() (prog *predicates.Program, ref string, err error) {
	res, parse, err := s.Open()
	if err != nil {
		return nil, "", err
	}
	res.SetParse(parse, s.Warn)
	if s.Library != "" {
		if err := res.AddLibrary(s.Library, s.Note); err != nil {
			return nil, "", batch.Usage("--activities %v", err)
		}
	}
	if err := res.SetActivity(context.Background(), s.Activity, s.Stdin, s.Note); err != nil {
		return nil, "", batch.Usage("%v", err)
	}
	act, err := res.Resolve("", batch.Episode{})
	if err != nil {
		return nil, "", batch.Usage("%v", err)
	}
	if prog, err = res.Program(act, nil); err != nil {
		return nil, "", batch.Usage("activity %s: %v", s.Activity, err)
	}
	ref = act.Name
	if strings.HasPrefix(act.Key, "file:") {
		ref = s.Activity
	}
	return prog, ref, nil
}

// CompileNamed is Compile with the activity's canonical name as its
// reference (as sample and convert name it): the episodes' header and
// the definition copy beside them, <name>.bddl.
func (s *Source) CompileNamed() (*predicates.Program, string, error) {
	prog, _, err := s.Compile()
	if err != nil {
		return nil, "", err
	}
	return prog, activities.CanonicalName(activities.PathOf(s.Activity), prog.Problem()), nil
}

// WriteDefinition writes the definition beside the episodes in dir, as
// from-omnigibson writes it, so that 'bddl check --episode DIR' finds it
// with no --activity (batch.Resolver).
func (s *Source) WriteDefinition(dir, ref string, prog *predicates.Program) error {
	def := batch.DefinitionFile(ref)
	return writeAtomic(dir, def, activities.DefinitionCopy(activities.PathOf(s.Activity), bddl.FormatProblem(prog.Problem())))
}
