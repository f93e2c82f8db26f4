package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/fsutil"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// The embedded example knowledge base serves the embedded examples and
// definitions whose every synset it knows. Used by default for anything
// else it gives thousands of bogus unknown-synset findings and wrong
// verdicts (its parameters are not BEHAVIOR-1K's), so a definition it
// cannot serve is refused before any finding or verdict, with what to
// give instead.

// maxGuardFiles bounds the definitions guardEmbedded reads under one
// input folder: past it the rest are checked as they are used.
const maxGuardFiles = 20000

// guardEmbedded refuses the run when it uses the embedded knowledge base
// because nothing named another, and a definition among the inputs
// declares a synset it does not know.
func (g *globalOptions) guardEmbedded(base *kb.Base) error {
	if g.resolveKB().value != "" {
		return nil
	}
	for _, h := range g.hints {
		info, err := os.Stat(h)
		if err != nil {
			continue
		}
		if !info.IsDir() {
			if isDefinitionFile(h) && info.Mode().IsRegular() {
				if err := g.refuseUnknown(h, readGuarded(h), base); err != nil {
					return err
				}
			}
			continue
		}
		n := 0
		walkErr := filepath.WalkDir(h, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !isDefinitionFile(d.Name()) || !d.Type().IsRegular() {
				return nil
			}
			if n++; n > maxGuardFiles {
				return filepath.SkipAll
			}
			return g.refuseUnknown(p, readGuarded(p), base)
		})
		if walkErr != nil {
			return walkErr
		}
	}
	return nil
}

// readGuarded parses a definition as the consuming commands read it; nil
// when it cannot be read or is no problem (a domain file, a syntax error
// the command itself reports).
func readGuarded(path string) *bddl.Problem {
	src, err := fsutil.ReadFile(path, maxDefinitionBytes)
	if err != nil {
		return nil
	}
	p, _ := bddl.Options{Mode: bddl.Reference}.ParseProblem(path, src)
	return p
}

// refuseUnknown is the refusal of one definition the embedded knowledge
// base cannot serve, nil when it can.
func (g *globalOptions) refuseUnknown(path string, p *bddl.Problem, base *kb.Base) error {
	unknown := activities.UnknownSynsets(p, base)
	if len(unknown) == 0 || g.resolveKB().value != "" {
		return nil
	}
	return misuse("%s", embeddedRefusal(path, unknown))
}

// embeddedRefusal is the message of a refused definition.
func embeddedRefusal(path string, unknown []string) string {
	shown := unknown
	more := ""
	if len(shown) > 4 {
		shown, more = shown[:4], fmt.Sprintf(", … %d in all", len(unknown))
	}
	return fmt.Sprintf("%s declares synsets the embedded example knowledge base does not know (%s%s), and no other knowledge base "+
		"was found around the inputs: give --kb with the BEHAVIOR-1K knowledge base (its generated_data/ folder, the bddl package folder "+
		"holding it, or the checkout's root), or set $%s or kb in %s",
		path, strings.Join(shown, ", "), more, kb.EnvVar, projectFileName)
}

// guardedResolver is batch.NewResolver guarded as guardEmbedded guards
// the inputs: when base is the embedded default, definitions found later
// (named by an episode's header, beside it, sent to the server) are
// refused as well when it cannot serve them.
func guardedResolver(base *kb.Base, opts predicates.Options) *batch.Resolver {
	r := batch.NewResolver(base, opts)
	if base == kb.Default() {
		r.Guard = func(path string, p *bddl.Problem) error {
			if u := activities.UnknownSynsets(p, base); len(u) > 0 {
				return errors.New(embeddedRefusal(path, u))
			}
			return nil
		}
	}
	return r
}
