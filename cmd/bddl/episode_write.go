package main

// What the commands that write episodes share: their options and the
// activity's source (internal/jobs/episodes).

import (
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/internal/jobs/episodes"
	"github.com/openbddl/bddl/predicates"
)

type episodeWriteOptions struct {
	*globalOptions
	readFlags
	out      string
	library  string
	kind     string
	steps    int
	seed     uint64
	activity string
}

// source is the activity the command names; the knowledge base is loaded
// when the job has checked its request.
func (o *episodeWriteOptions) source() *episodes.Source {
	return &episodes.Source{Activity: o.activity, Library: o.library, Stdin: o.in, Note: noter(o.err), Warn: warnText(o.err),
		Open: func() (*batch.Resolver, bddl.Options, error) {
			base, err := o.loadKB()
			if err != nil {
				return nil, bddl.Options{}, misuse("%v", err)
			}
			res := guardedResolver(base, predicates.Options{})
			parse, err := o.readFlags.options()
			return res, parse, err
		}}
}
