package show

import (
	"bytes"
	"strings"
	"testing"

	"github.com/openbddl/bddl/kb"
)

// TestSearch: text and properties narrow the synsets; an unknown
// property is an error with a did-you-mean; JSON is one summary a line.
func TestSearch(t *testing.T) {
	t.Parallel()
	b := kb.Default()
	found, err := Search(b, "apple", nil)
	if err != nil || len(found) == 0 {
		t.Fatalf("Search(apple) = %v, %v", found, err)
	}
	var text, js bytes.Buffer
	if err := WriteSearch(&text, b, found, false); err != nil || !strings.Contains(text.String(), "apple.n.01\n") {
		t.Errorf("WriteSearch text = %q, %v", text.String(), err)
	}
	if err := WriteSearch(&js, b, found[:1], true); err != nil || !strings.HasPrefix(js.String(), `{"name":"`) || strings.Count(js.String(), "\n") != 1 {
		t.Errorf("WriteSearch json = %q, %v", js.String(), err)
	}
	if _, err := Search(b, "", []string{"cookabl"}); err == nil || !strings.Contains(err.Error(), `unknown property "cookabl" (did you mean cookable?)`) {
		t.Errorf("Search(--property cookabl) error = %v", err)
	}
}

// TestLookupAndNames: names and instance names resolve, unknown ones
// come back with a did-you-mean; Names completes by prefix, sorted.
func TestLookupAndNames(t *testing.T) {
	t.Parallel()
	b := kb.Default()
	ids, unknown := Lookup(b, []string{"apple.n.01", "apple.n.01_1", "appel.n.01"})
	if len(ids) != 2 || len(unknown) != 1 || !strings.Contains(unknown[0], "appel.n.01") {
		t.Errorf("Lookup = %v, %q", ids, unknown)
	}
	names := Names(b, "apple")
	if len(names) == 0 || names[0] != "apple.n.01" {
		t.Errorf("Names(apple) = %v", names)
	}
}
