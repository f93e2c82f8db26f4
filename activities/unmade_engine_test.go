package activities

import (
	"testing"

	"github.com/openbddl/bddl/internal/corpus"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/transitions"
)

// TestUnmadeFutureAgreesWithEngine checks, over the corpus, that the
// strict search behind unmade-future calls a future synset makeable
// exactly when the transitions engine compiles a rule for the activity
// that outputs it (or a descendant): the warning names what
// `check --transitions` cannot make, no more, no less. Substances a
// particle source of the activity emits are left out (no rule makes them).
func TestUnmadeFutureAgreesWithEngine(t *testing.T) {
	base, err := kb.Load(corpus.KBDir(t))
	if err != nil {
		t.Fatal(err)
	}
	lib, err := LoadDir(corpus.ActivitiesDir(t))
	if err != nil {
		t.Fatal(err)
	}
	rules := transitions.Rules(base)
	checked := 0
	for _, a := range lib.Activities {
		if a.Problem == nil || a.Diagnostics.HasErrors() {
			continue
		}
		c := newContext(a.Problem, base, &config{})
		s := c.strictReach()
		if s == nil {
			continue
		}
		prog, err := predicates.Compile(a.Problem, base, predicates.Options{})
		if err != nil {
			continue
		}
		eng, err := transitions.Compile(prog, base)
		if err != nil {
			t.Fatal(err)
		}
		for _, tgt := range s.targets {
			if s.sourced(tgt) {
				continue
			}
			engine := false
			for _, i := range eng.ActiveRules() {
				for _, o := range rules[i].Outputs {
					engine = engine || base.IsA(o.Synset, tgt)
				}
			}
			checked++
			if v := s.makeable(tgt); v != engine {
				t.Errorf("%s: %s: unmade-future's search says makeable=%v, the engine compiles a rule making it=%v",
					a.Path, base.Name(tgt), v, engine)
			}
		}
	}
	if checked == 0 || corpus.Recorded(t) && checked < 100 {
		t.Errorf("only %d future synsets checked", checked)
	}
	t.Logf("%d future synsets checked", checked)
}
