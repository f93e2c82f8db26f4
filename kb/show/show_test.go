package show

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/kb"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if got != string(want) {
		t.Errorf("%s: got\n%s\nwant\n%s", name, got, want)
	}
}

func lookup(t *testing.T, b *kb.Base, name string) kb.SynsetID {
	t.Helper()
	id, ok := b.Lookup(name)
	if !ok {
		t.Fatalf("%s is not in the embedded knowledge base", name)
	}
	return id
}

// TestSynset: a synset's record for people and as JSON, whose lists are
// never null.
func TestSynset(t *testing.T) {
	t.Parallel()
	b := kb.Default()
	for _, name := range []string{"apple.n.01", "food.n.02"} {
		id := lookup(t, b, name)
		r := Synset(b, id)
		var text bytes.Buffer
		WriteText(&text, b, id, r, false)
		golden(t, "show-"+name, text.String())
		js, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		for _, field := range []string{"parents", "children", "ancestors", "categories", "models", "rooms"} {
			if bytes.Contains(js, []byte(`"`+field+`":null`)) {
				t.Errorf("%s: %s is null in %s", name, field, js)
			}
		}
	}
}

// TestTree: the hierarchy as text and JSON Lines, one record per line of
// text, cut off at the depth asked for.
func TestTree(t *testing.T) {
	t.Parallel()
	b := kb.Default()
	root := Tree(b, lookup(t, b, "food.n.02"), 1)
	var text, js bytes.Buffer
	if err := WriteTree(&text, root, "text"); err != nil {
		t.Fatal(err)
	}
	if err := WriteTree(&js, root, "json"); err != nil {
		t.Fatal(err)
	}
	golden(t, "tree-food.n.02-depth1", text.String()+"\n"+js.String())
	if strings.Count(text.String(), "\n") != strings.Count(js.String(), "\n") {
		t.Errorf("%d text lines, %d JSON records", strings.Count(text.String(), "\n"), strings.Count(js.String(), "\n"))
	}
	full := Tree(b, lookup(t, b, "food.n.02"), 0)
	var deep func(n *Node) int
	deep = func(n *Node) int {
		d := n.Depth
		for _, c := range n.Children {
			d = max(d, deep(c))
		}
		return d
	}
	if d := deep(full); d < 2 || d > MaxDepth {
		t.Errorf("the full tree is %d deep", d)
	}
}
