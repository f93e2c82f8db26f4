package recording

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestKappa(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		m          [2][2]int
		raw, kappa float64
	}{
		{[2][2]int{{4, 1}, {1, 4}}, 0.8, 0.6},
		{[2][2]int{{20, 5}, {10, 15}}, 0.7, 0.4},
		{[2][2]int{{45, 15}, {25, 15}}, 0.6, 0.13043478260869565}, // Wikipedia's second example
		{[2][2]int{{3, 0}, {0, 0}}, 1, math.NaN()},
		{[2][2]int{{0, 2}, {2, 0}}, 0, -1},
	} {
		raw, kappa := Kappa(tc.m)
		if math.Abs(raw-tc.raw) > 1e-12 || !(math.Abs(kappa-tc.kappa) < 1e-12 || math.IsNaN(kappa) && math.IsNaN(tc.kappa)) {
			t.Errorf("Kappa(%v) = %v, %v; want %v, %v", tc.m, raw, kappa, tc.raw, tc.kappa)
		}
	}
}

func TestAgree(t *testing.T) {
	t.Parallel()
	// 10 episodes: bddl and alice agree on 8 (4 successes, 4 failures):
	// kappa 0.6; bob judged only the first 4, all successes.
	var eps []Annotated
	bddl := []float64{1, 1, 1, 1, 0, 0, 0, 0, 1, 0}
	alice := []float64{1, 1, 1, 1, 0, 0, 0, 0, 0, 1}
	for i := range bddl {
		e := Annotated{Episode: fmt.Sprintf("ep%d.h5", i)}
		e.Annotations = append(e.Annotations, &Annotation{Annotator: "bddl", Source: "bddl", Success: bddl[i], FailureDescription: "ours"},
			&Annotation{Annotator: "alice", Source: "human", Success: alice[i], FailureDescription: "hers"})
		if i < 4 {
			e.Annotations = append(e.Annotations, &Annotation{Annotator: "bob", Source: "human", Success: 1})
		}
		eps = append(eps, e)
	}
	pairs := Pairs(eps, "bddl", "human")
	if len(pairs) != 2 || pairs[0][1] != "alice" || pairs[1][1] != "bob" {
		t.Fatalf("pairs %v", pairs)
	}
	g := Agree(eps, "bddl", "alice")
	if g.Episodes != 10 || g.Matrix != [2][2]int{{4, 1}, {1, 4}} || math.Abs(g.Raw-0.8) > 1e-12 || math.Abs(g.Kappa-0.6) > 1e-12 {
		t.Fatalf("bddl vs alice: %+v", g)
	}
	if len(g.Disagreements) != 2 || g.Disagreements[0].Episode != "ep8.h5" || !g.Disagreements[0].ASuccess || g.Disagreements[0].BDesc != "hers" {
		t.Fatalf("disagreements %+v", g.Disagreements)
	}
	b := Agree(eps, "bddl", "bob")
	if b.Episodes != 4 || !math.IsNaN(b.Kappa) || b.Raw != 1 {
		t.Fatalf("bddl vs bob: %+v", b)
	}
	j, _ := json.Marshal(b)
	if !strings.Contains(string(j), `"kappa":null`) || !strings.Contains(string(j), `"against":"bob"`) {
		t.Fatalf("JSON %s", j)
	}
	if p := Pairs(eps, "bddl", "bob"); len(p) != 1 {
		t.Fatalf("--against bob: %v", p)
	}
	if !IsHuman(&Annotation{Annotator: "human"}) || IsHuman(&Annotation{Annotator: "human", Source: "bddl"}) || IsHuman(&Annotation{Annotator: "bddl"}) {
		t.Fatal("IsHuman")
	}
}
