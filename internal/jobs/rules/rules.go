package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/internal/jobs/batch"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/transitions"
)

// KB is the knowledge base a job reads, loaded once the request is
// checked, and its name in messages.
type KB struct {
	Load   func() (*kb.Base, error)
	Source func() string
}

func (k KB) load() (*kb.Base, error) {
	base, err := k.Load()
	if err != nil {
		return nil, batch.Usage("%v", err)
	}
	return base, nil
}

// Find returns the rule named name, or a usage error with a did-you-mean.
func (k KB) Find(base *kb.Base, name string) (transitions.Rule, error) {
	r, ok := transitions.FindRule(base, name)
	if ok {
		return r, nil
	}
	return r, batch.Usage("no transition rule %q in %s%s", name, k.Source(), transitions.RuleHint(base, name))
}

// List writes the rules of family (or every family) that mention synset
// ("" for any), one line or JSON object each, in the order rules apply.
func List(k KB, family, synset string, asJSON bool, stdout, stderr io.Writer) error {
	if family != "" && !transitions.IsFamily(family) {
		return batch.Usage("--family %q: use one of %s", family, transitions.FamilyNames())
	}
	base, err := k.load()
	if err != nil {
		return err
	}
	syn := kb.NoSynset
	if synset != "" {
		id, ok := transitions.LookupSynset(base, synset)
		if !ok {
			return batch.Usage("--synset: %s", base.UnknownSynsetMessage(synset))
		}
		syn = id
	}
	n := 0
	enc := json.NewEncoder(stdout)
	enc.SetEscapeHTML(false)
	for _, r := range transitions.Rules(base) {
		if family != "" && string(r.Family) != family || syn != kb.NoSynset && !r.Mentions(base, syn) {
			continue
		}
		n++
		if asJSON {
			if err := enc.Encode(r.Record()); err != nil {
				return err
			}
			continue
		}
		fmt.Fprintln(stdout, r.Describe())
	}
	if n == 0 {
		fmt.Fprintln(stderr, "bddl: no transition rule matches in", k.Source())
		return batch.Findings(nil)
	}
	return nil
}

// Explain writes what the rule needs and makes, and which activities of
// library (a BEHAVIOR-1K activity_definitions directory; "" for the
// embedded examples) declare a future instance one of its outputs can
// bind to.
func Explain(k KB, name, library string, asJSON bool, stdout io.Writer) error {
	base, err := k.load()
	if err != nil {
		return err
	}
	r, err := k.Find(base, name)
	if err != nil {
		return err
	}
	lib := activities.Examples()
	where := "the embedded examples"
	if library != "" {
		// Read as the reference reads, so official activities with a
		// defect it passes over are searched too.
		if lib, err = activities.LoadDirWith(library, bddl.Options{Mode: bddl.Reference}); err != nil {
			return batch.Usage("--activities %s: %v", library, err)
		}
		where = library
	}
	var needed []string
	for _, a := range lib.Activities {
		if a.Problem != nil && !a.Diagnostics.HasErrors() && transitions.Needs(base, r, a.Problem) {
			needed = append(needed, a.ID())
		}
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		return enc.Encode(transitions.NewExplainRecord(base, r, needed))
	}
	fmt.Fprint(stdout, transitions.Explain(base, r))
	transitions.WriteNeededBy(stdout, r, needed, where)
	return nil
}

// SampleRequest is one run of 'bddl transition sample'.
type SampleRequest struct {
	Rule     string
	Variant  string // positive, or a negative case
	Seed     uint64
	OutDir   string // "": the episode on stdout
	RulesOff bool
	Stdout   io.Writer
	Stderr   io.Writer
}

// Sample writes the smallest scene in which the rule fires (or, for a
// negative variant, must not), as an episode on stdout or a definition
// and an episode in OutDir.
func Sample(k KB, s SampleRequest) error {
	variant, ok := transitions.ParseVariant(s.Variant)
	if !ok {
		return batch.Usage("--variant %q: use positive or one of %s", s.Variant, transitions.VariantNames())
	}
	base, err := k.load()
	if err != nil {
		return err
	}
	r, err := k.Find(base, s.Rule)
	if err != nil {
		return err
	}
	sopts := transitions.SampleOptions{Seed: s.Seed, Variant: variant}
	res, err := transitions.Sample(base, r, sopts)
	switch {
	case errors.Is(err, transitions.ErrNotApplicable):
		return batch.Usage("--variant %s does not apply to %s %s", variant, r.Family, r.Name)
	case errors.Is(err, transitions.ErrNeverFires):
		fmt.Fprintf(s.Stderr, "bddl: %s %s never fires: there is no scene to sample\n", r.Family, r.Name)
		return batch.Findings(nil)
	case err != nil:
		return err
	}
	var done error
	if variant == transitions.Positive && !res.Outcome.Fired() {
		// An earlier recipe of the file with the same inputs fires first;
		// show this one alone, and say so.
		fmt.Fprintf(s.Stderr, "bddl: %s %s does not fire in its sample: an earlier recipe of the file takes the same inputs; showing it alone\n", r.Family, r.Name)
		done = batch.Findings(nil)
		if res, err = transitions.Sample(base, r, transitions.SampleOptions{Seed: s.Seed, Alone: true}); err != nil {
			return err
		}
	}
	activity := res.Program.Problem().Name.Name
	if s.OutDir != "" {
		activity = "problem0.bddl"
	}
	var buf bytes.Buffer
	if err := transitions.WriteSampleEpisode(&buf, r, res, activity, sopts, s.RulesOff); err != nil {
		return err
	}
	if s.OutDir == "" {
		if _, err := s.Stdout.Write(buf.Bytes()); err != nil {
			return err
		}
		return done
	}
	if err := os.MkdirAll(s.OutDir, 0o755); err != nil {
		return batch.Usage("-o %s: %v", s.OutDir, err)
	}
	def, ep, err := transitions.WriteSampleFiles(s.OutDir, res.Definition, buf.Bytes())
	if err != nil {
		return err
	}
	fmt.Fprintf(s.Stderr, "wrote %s and %s\n", def, ep)
	return done
}
