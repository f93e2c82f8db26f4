package kb

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestDefaultCheck(t *testing.T) {
	t.Parallel()
	b := Default()
	if n := b.NumSynsets(); n < 200 {
		t.Errorf("the default knowledge base has %d synsets, want a few hundred", n)
	}
	for _, f := range b.Check() {
		if f.Severity != SeverityInfo {
			t.Errorf("Check: %v", f)
		}
	}
	if len(b.Scenes()) < 2 || len(b.RoomTypes()) == 0 {
		t.Errorf("default: %d scenes, room types %v", len(b.Scenes()), b.RoomTypes())
	}
	kinds := map[RuleKind]bool{}
	for _, r := range b.Rules() {
		kinds[r.Kind] = true
	}
	for _, k := range []RuleKind{RuleHeatCook, RuleToggleableMachine, RuleMixingStick, RuleSubstanceCooking, RuleWasher, RuleSlicing, RuleDicing, RuleMelting} {
		if !kinds[k] {
			t.Errorf("the default knowledge base has no %s rule", k)
		}
	}
	// Every leaf has one object type, every non-substance leaf a model.
	for i := 0; i < b.NumSynsets(); i++ {
		id := SynsetID(i)
		if !b.IsLeaf(id) {
			continue
		}
		if b.Has(id, NonSubstance) && len(b.ModelsOf(id)) == 0 {
			t.Errorf("leaf %s has no object model", b.Name(id))
		}
		if b.Has(id, Substance) && len(b.SystemsOf(id)) == 0 {
			t.Errorf("substance %s has no particle system", b.Name(id))
		}
	}
}

func TestDefaultIsShared(t *testing.T) {
	t.Parallel()
	if a, b := Default(), Default(); a != b {
		t.Error("Default() loads more than once")
	}
	if o := Default().Origin(); o.Format != "yaml" || o.Path != "(embedded)" {
		t.Errorf("Default().Origin() = %+v", o)
	}
}

// exampleFiles lists the example activities shipped with the repository.
func exampleFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("..", "activities", "examples", "*", "problem*.bddl"))
	if err != nil || len(files) < 5 {
		t.Fatalf("found %d example activities (%v), want at least 5", len(files), err)
	}
	return files
}

var synsetInText = regexp.MustCompile(`[a-z][a-z0-9_\-']*\.n\.[0-9]+`)

// TestExamplesUseKnownSynsets lists, without parsing, every synset the
// example activities mention and checks the default knowledge base knows it.
func TestExamplesUseKnownSynsets(t *testing.T) {
	t.Parallel()
	b := Default()
	for _, f := range exampleFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, name := range synsetInText.FindAllString(string(data), -1) {
			if seen[name] {
				continue
			}
			seen[name] = true
			if _, ok := b.Lookup(name); !ok {
				t.Errorf("%s: synset %s is not in the default knowledge base (%s)", f, name, b.UnknownSynsetMessage(name))
			}
		}
		if len(seen) < 5 {
			t.Errorf("%s mentions only %d synsets", f, len(seen))
		}
	}
}

var domainInText = regexp.MustCompile(`\(:domain\s+([a-z0-9_\-]+)\s*\)`)

var atomInText = regexp.MustCompile(`\(([a-z_]+)((?:\s+\??[a-z0-9_.\-*']+)+)\s*\)`)

// TestExamplesApplicable checks every atom of the examples against the
// applicability rules, and that each inroom object can be found in some
// scene room of that type.
func TestExamplesApplicable(t *testing.T) {
	t.Parallel()
	b := Default()
	for _, f := range exampleFiles(t) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		domain := DomainOmniGibson
		if m := domainInText.FindStringSubmatch(string(data)); m != nil {
			if d, ok := ParseDomain(m[1]); ok {
				domain = d
			}
		}
		atoms := 0
		for _, m := range atomInText.FindAllStringSubmatch(string(data), -1) {
			pred, args := m[1], strings.Fields(m[2])
			if _, ok := LookupPredicate(domain, pred); !ok {
				continue // define, problem, domain, ...
			}
			atoms++
			for _, v := range b.CheckAtom(domain, pred, args) {
				t.Errorf("%s: (%s %s): %s", filepath.Base(filepath.Dir(f)), pred, strings.Join(args, " "), v.Message)
			}
			if pred == "inroom" && len(args) == 2 && !sceneHas(b, SynsetOfTerm(args[0]), args[1]) {
				t.Errorf("%s: no scene has a %s with a %s", filepath.Base(filepath.Dir(f)), args[1], args[0])
			}
		}
		if atoms < 10 {
			t.Errorf("%s: only %d atoms found", f, atoms)
		}
	}
}

func sceneHas(b *Base, synset, roomType string) bool {
	id, ok := b.Lookup(synset)
	if !ok {
		return false
	}
	for _, use := range b.RoomsWith(id) {
		if use.Type == roomType {
			return true
		}
	}
	return false
}
