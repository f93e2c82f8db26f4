package predicates

import (
	"os"
	"strings"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

// TestDocsListEveryPredicate keeps the rule tables of the package
// documentation and of the README in step with the registry.
func TestDocsListEveryPredicate(t *testing.T) {
	t.Parallel()
	for _, file := range []string{"doc.go", "../docs/evaluation.md"} {
		text, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, info := range Predicates() {
			if !strings.Contains(string(text), info.Name) {
				t.Errorf("%s does not document predicate %s", file, info.Name)
			}
		}
	}
	if len(Predicates()) != numPreds-1 {
		t.Errorf("Predicates() lists %d, registry has %d", len(Predicates()), numPreds-1)
	}
	for _, name := range []string{"cooked", "frozen", "open", "folded", "unfolded", "toggled_on", "hot", "on_fire", "future", "real", "broken",
		"saturated", "covered", "filled", "contains", "ontop", "nextto", "under", "touching", "inside", "overlaid", "attached", "draped",
		"insource", "inroom", "grasped", "onfloor", "burnt", "dusty", "stained", "soaked", "sliced", "perished", "screwed", "timeset",
		"closed", "empty"} {
		if _, ok := PredByName(name); !ok {
			t.Errorf("predicate %s is not registered", name)
		}
	}
}

// TestDomainsRegistered: every predicate the embedded domain files
// declare has an implementation with the declared arity.
func TestDomainsRegistered(t *testing.T) {
	t.Parallel()
	for _, name := range bddl.EmbeddedDomainNames() {
		d, ok := bddl.EmbeddedDomain(name)
		if !ok {
			t.Fatalf("no embedded domain %s", name)
		}
		for _, decl := range d.Predicates {
			id, ok := PredByName(decl.Name.Key())
			if !ok {
				t.Errorf("domain %s: predicate %s is not registered", name, decl.Name.Name)
				continue
			}
			if id.Arity() != len(decl.Params) {
				t.Errorf("domain %s: %s has arity %d, registered %d", name, decl.Name.Name, len(decl.Params), id.Arity())
			}
		}
	}
}
