package kbresolve

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/config"
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

// maxGuardFiles bounds the definitions Guard reads under one input
// folder: past it the rest are checked as they are used.
const maxGuardFiles = 20000

// maxDefinitionBytes bounds the read of one definition, as the
// consuming commands bound it.
const maxDefinitionBytes = 16 << 20

// A Refusal is Guard's error: a definition among the inputs declares
// synsets the embedded default does not know.
type Refusal struct {
	Path    string
	Unknown []string
}

func (r *Refusal) Error() string {
	shown := r.Unknown
	more := ""
	if len(shown) > 4 {
		shown, more = shown[:4], fmt.Sprintf(", … %d in all", len(r.Unknown))
	}
	return fmt.Sprintf("%s declares synsets the embedded example knowledge base does not know (%s%s), and no other knowledge base "+
		"was found around the inputs: give --kb with the BEHAVIOR-1K knowledge base (its generated_data/ folder, the bddl package folder "+
		"holding it, or the checkout's root), or set $%s or kb in %s",
		r.Path, strings.Join(shown, ", "), more, kb.EnvVar, config.FileName)
}

// Guard refuses the run when it uses the embedded knowledge base because
// nothing named another, and a definition among the inputs declares a
// synset it does not know.
func Guard(in Inputs, base *kb.Base) error {
	if in.KB().Value != "" {
		return nil
	}
	for _, h := range in.Hints {
		info, err := os.Stat(h)
		if err != nil {
			continue
		}
		if !info.IsDir() {
			if isDefinition(h) && info.Mode().IsRegular() {
				if err := refuseUnknown(h, readGuarded(h), base); err != nil {
					return err
				}
			}
			continue
		}
		n := 0
		walkErr := filepath.WalkDir(h, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !isDefinition(d.Name()) || !d.Type().IsRegular() {
				return nil
			}
			if n++; n > maxGuardFiles {
				return filepath.SkipAll
			}
			return refuseUnknown(p, readGuarded(p), base)
		})
		if walkErr != nil {
			return walkErr
		}
	}
	return nil
}

func isDefinition(name string) bool { return strings.HasSuffix(name, ".bddl") }

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
func refuseUnknown(path string, p *bddl.Problem, base *kb.Base) error {
	if unknown := activities.UnknownSynsets(p, base); len(unknown) > 0 {
		return &Refusal{Path: path, Unknown: unknown}
	}
	return nil
}

// GuardedResolver is batch.NewResolver guarded as Guard guards the
// inputs: when base is the embedded default, definitions found later
// (named by an episode's header, beside it, sent to the server) are
// refused as well when it cannot serve them.
func GuardedResolver(base *kb.Base, opts predicates.Options) *batch.Resolver {
	r := batch.NewResolver(base, opts)
	if base == kb.Default() {
		r.Guard = func(path string, p *bddl.Problem) error {
			if u := activities.UnknownSynsets(p, base); len(u) > 0 {
				return errors.New((&Refusal{Path: path, Unknown: u}).Error())
			}
			return nil
		}
	}
	return r
}
