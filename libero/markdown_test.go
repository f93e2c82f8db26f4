package libero

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite docs/libero.md's generated tables")

const beginMark, endMark = "<!-- knowledge:begin -->\n", "<!-- knowledge:end -->"

// TestDocsKnowledgeTables keeps docs/libero.md's tables equal to the
// embedded knowledge table; -update rewrites them.
func TestDocsKnowledgeTables(t *testing.T) {
	path := filepath.Join("..", "docs", "libero.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i, j := strings.Index(doc, beginMark), strings.Index(doc, endMark)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", path, beginMark, endMark)
	}
	want := KnowledgeMarkdown()
	if got := doc[i+len(beginMark) : j]; got != want {
		if *update {
			if err := os.WriteFile(path, []byte(doc[:i+len(beginMark)]+want+doc[j:]), 0o644); err != nil {
				t.Fatal(err)
			}
			return
		}
		t.Errorf("%s's knowledge tables are stale; run go test ./libero -run TestDocsKnowledgeTables -update", path)
	}
}

func TestKnowledgeFacts(t *testing.T) {
	// Spot checks against LIBERO's source, line by line.
	c, ok := LookupCategory("wooden_cabinet")
	if !ok || c.Joint.Open.Op != "<" || c.Joint.Open.Value != -0.14 || c.Joint.Close.Op != ">" || c.Joint.Close.Value != 0 {
		t.Errorf("wooden_cabinet thresholds: %+v", c.Joint)
	}
	if s, ok := c.Site("top_region"); !ok || len(s.Joints) != 1 || s.Joints[0] != "top_level" {
		t.Errorf("wooden_cabinet top_region: %+v", s)
	}
	st, _ := LookupCategory("flat_stove")
	if st.Joint.TurnOn.Op != ">=" || st.Joint.TurnOn.Value != 0.5 || st.Joint.TurnOff.Op != "<" || st.Joint.TurnOff.Value != 0 {
		t.Errorf("flat_stove thresholds: %+v %+v", st.Joint.TurnOn, st.Joint.TurnOff)
	}
	if _, ok := st.Site("cook_region"); !ok {
		t.Error("flat_stove has no cook_region")
	}
	mw, _ := LookupCategory("microwave")
	if mw.Joint.Open.Op != "<" || mw.Joint.Open.Value != -1.3 || mw.Joint.Close.Op != ">" || mw.Joint.Close.Value != -0.005 {
		t.Errorf("microwave thresholds: %+v %+v", mw.Joint.Open, mw.Joint.Close)
	}
	b, _ := LookupCategory("basket")
	if _, ok := b.Site("contain_region"); !ok {
		t.Error("basket has no contain_region")
	}
	if _, ok := LookupCategory("chefmate_8_frypan"); !ok {
		t.Error("register_object splits digits: chefmate_8_frypan missing")
	}
	if k, ok := Class("LIBERO_Kitchen_Tabletop_Manipulation"); !ok || k.Workspace != "kitchen_table" || k.Offset[2] != 0.9 {
		t.Errorf("kitchen class: %+v", k)
	}
	if p, ok := LookupPredicate("TurnOn"); !ok || p.Arity != 1 {
		t.Errorf("TurnOn: %+v", p)
	}
	if _, ok := LookupPredicate("ontop"); ok {
		t.Error("ontop is not a LIBERO predicate")
	}
}
