package bddl

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// jsonKinds collects the "kind" of every formula object in a decoded JSON
// tree, in document order.
func jsonKinds(v any, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		if k, ok := v["kind"].(string); ok {
			if _, isNode := v["id"]; isNode {
				*out = append(*out, k)
			}
		}
		// Visit fields in a fixed order so the result does not depend on
		// map iteration.
		for _, key := range []string{"x", "xs", "if", "then", "body"} {
			if c, ok := v[key]; ok {
				jsonKinds(c, out)
			}
		}
	case []any:
		for _, c := range v {
			jsonKinds(c, out)
		}
	}
}

func isRange(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	for _, end := range []string{"start", "end"} {
		p, ok := m[end].(map[string]any)
		if !ok {
			return false
		}
		for _, f := range []string{"offset", "line", "col"} {
			if _, ok := p[f].(float64); !ok {
				return false
			}
		}
	}
	return true
}

// TestProblemJSON checks that the AST marshals with a "kind" on every
// formula node, ids and ranges on nodes, names with ranges, and term kinds
// by name.
func TestProblemJSON(t *testing.T) {
	t.Parallel()
	goal := "(and (not (p ?a.n.01_1)) (or (q b) (imply (r c) (s d))) (forall (?x - t.n.01) (u ?x kitchen)) " +
		"(exists (?x - t.n.01) (u ?x)) (forn (2) (?x - t.n.01) (u ?x)) (forpairs (?x - t.n.01) (?y - t.n.01) (v ?x ?y)) " +
		"(fornpairs (1) (?x - t.n.01) (?y - t.n.01) (v ?x ?y)))"
	p, _ := parseGoal(t, goal)
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("json.Marshal(problem): %v", err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("json.Unmarshal: %v\n%s", err, b)
	}
	var kinds []string
	jsonKinds(doc["goal"], &kinds)
	want := []string{"and", "not", "atom", "or", "atom", "imply", "atom", "atom", "forall", "atom",
		"exists", "atom", "forn", "atom", "forpairs", "atom", "fornpairs", "atom"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("goal kinds (-want +got):\n%s", diff)
	}
	if !isRange(doc["range"]) {
		t.Errorf("problem range = %v, want {start, end} with offset, line, col", doc["range"])
	}
	name, _ := doc["name"].(map[string]any)
	if name["name"] != "p-0" || !isRange(name["range"]) {
		t.Errorf("problem name = %v, want p-0 with a range", name)
	}
	g := doc["goal"].(map[string]any)
	if g["id"] != 0.0 || !isRange(g["range"]) {
		t.Errorf("goal node id = %v range = %v, want 0 and a range", g["id"], g["range"])
	}
	forall := g["xs"].([]any)[2].(map[string]any)
	atom := forall["body"].(map[string]any)
	args := atom["args"].([]any)
	wantArgs := []any{
		map[string]any{"name": "x", "question": true, "kind": "variable"},
		map[string]any{"name": "kitchen", "kind": "constant"},
	}
	for i, a := range args {
		m := a.(map[string]any)
		if !isRange(m["range"]) {
			t.Errorf("arg %d has no range: %v", i, m)
		}
		delete(m, "range")
	}
	if diff := cmp.Diff(wantArgs, args); diff != "" {
		t.Errorf("forall body args (-want +got):\n%s", diff)
	}
	vars := forall["vars"].([]any)
	v := vars[0].(map[string]any)
	if v["var"].(map[string]any)["name"] != "x" || v["type"].(map[string]any)["name"] != "t.n.01" {
		t.Errorf("forall vars = %v, want ?x - t.n.01", vars)
	}
	forn := g["xs"].([]any)[4].(map[string]any)
	if forn["n"] != 2.0 || !isRange(forn["n_range"]) {
		t.Errorf("forn n = %v n_range = %v, want 2 and a range", forn["n"], forn["n_range"])
	}
	pred := g["xs"].([]any)[0].(map[string]any)["x"].(map[string]any)["pred"].(map[string]any)
	if pred["name"] != "p" || !isRange(pred["range"]) {
		t.Errorf("atom pred = %v, want p with a range", pred)
	}
	if doc["num_nodes"] != float64(p.NumNodes) {
		t.Errorf("num_nodes = %v, want %d", doc["num_nodes"], p.NumNodes)
	}
}

func TestProblemJSONSections(t *testing.T) {
	t.Parallel()
	f, _ := ParseFile("j.bddl", readT(t, "testdata/parse/comments.bddl"))
	b, err := json.Marshal(f.Problem)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Objects []struct {
			Instances []struct{ Name string } `json:"instances"`
			Type      struct{ Name string }   `json:"type"`
			Range     Range                   `json:"range"`
		} `json:"objects"`
		Init     []map[string]any `json:"init"`
		Sections []struct {
			Keyword struct{ Name string } `json:"keyword"`
			Range   Range                 `json:"range"`
		} `json:"sections"`
		Comments []Comment `json:"comments"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("json.Unmarshal: %v", err)
	}
	if len(doc.Objects) != 1 || len(doc.Objects[0].Instances) != 2 || doc.Objects[0].Type.Name != "apple.n.01" || !doc.Objects[0].Range.Start.IsValid() {
		t.Errorf("objects = %+v, want one line of two apples with a range", doc.Objects)
	}
	if len(doc.Init) != 1 || doc.Init[0]["kind"] != "atom" {
		t.Errorf("init = %v, want one atom", doc.Init)
	}
	var kws []string
	for _, s := range doc.Sections {
		kws = append(kws, s.Keyword.Name)
		if !s.Range.Start.IsValid() || s.Range.End.Offset <= s.Range.Start.Offset {
			t.Errorf("section %s range %+v is not a valid range", s.Keyword.Name, s.Range)
		}
	}
	if diff := cmp.Diff([]string{":domain", ":objects", ":init", ":goal"}, kws); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(f.Problem.Comments, doc.Comments); diff != "" {
		t.Errorf("comments do not survive JSON (-want +got):\n%s", diff)
	}
}

func TestDomainJSON(t *testing.T) {
	t.Parallel()
	d, _ := ParseDomain("d.bddl", []byte("(define (domain d) (:requirements :strips) (:predicates (ontop ?a ?b)))"))
	b, err := json.Marshal(d)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Name         Ident   `json:"name"`
		Requirements []Ident `json:"requirements"`
		Predicates   []struct {
			Name   Ident   `json:"name"`
			Params []Ident `json:"params"`
			Range  Range   `json:"range"`
		} `json:"predicates"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatalf("json.Unmarshal(%s): %v", b, err)
	}
	if doc.Name.Name != "d" || len(doc.Requirements) != 1 || len(doc.Predicates) != 1 {
		t.Fatalf("domain JSON = %s", b)
	}
	pr := doc.Predicates[0]
	if pr.Name.Name != "ontop" || len(pr.Params) != 2 || pr.Params[1].Name != "b" || pr.Range.Start.Col != 57 {
		t.Errorf("predicate = %+v, want ontop ?a ?b at column 57", pr)
	}
}
