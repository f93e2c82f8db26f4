package activities

import (
	"slices"
	"testing"

	"github.com/openbddl/bddl/bddl"
)

func TestMatchRoom(t *testing.T) {
	for _, tc := range []struct {
		name      string
		cand      [][]int
		capacity  []int
		unmatched int
	}{
		{"none", nil, nil, 0},
		{"direct", [][]int{{0}, {1}}, []int{1, 1}, 0},
		{"capacity", [][]int{{0}, {0}, {0}}, []int{2}, 1},
		// The first instance takes group 0, then must move to group 1 for
		// the second, which fits only group 0.
		{"augmenting", [][]int{{0, 1}, {0}}, []int{1, 1}, 0},
		{"augmenting chain", [][]int{{0, 1}, {1, 2}, {0}}, []int{1, 1, 1}, 0},
		{"no candidates", [][]int{{}, {0}}, []int{1}, 1},
		{"short", [][]int{{0}, {0}, {1}}, []int{1, 1}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := matchRoom(tc.cand, tc.capacity); len(got) != tc.unmatched {
				t.Errorf("matchRoom(%v, %v) left %v unmatched, want %d", tc.cand, tc.capacity, got, tc.unmatched)
			}
		})
	}
}

func feasibilityOf(t *testing.T, src string) *Feasibility {
	t.Helper()
	p, diags := bddl.ParseProblem("test.bddl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	rep := Analyze(p, mustTestKB(t), OnlyRules("no-scene"))
	if rep.Scenes == nil {
		t.Fatal("Analyze gave no feasibility")
	}
	return rep.Scenes
}

func TestFeasibility(t *testing.T) {
	f := feasibilityOf(t, `(define (problem x-0) (:domain omnigibson)
	(:objects oven.n.01_1 - oven.n.01 sink.n.01_1 - sink.n.01 table.n.02_1 - table.n.02 floor.n.01_1 - floor.n.01)
	(:init (inroom oven.n.01_1 kitchen) (inroom sink.n.01_1 kitchen) (inroom table.n.02_1 kitchen) (inroom floor.n.01_1 kitchen))
	(:goal (open ?oven.n.01_1)))`)
	if len(f.Needs) != 1 || f.Needs[0].Type != "kitchen" || len(f.Needs[0].Instances) != 4 {
		t.Errorf("Needs = %+v", f.Needs)
	}
	var ok []string
	for _, s := range f.Compatible() {
		ok = append(ok, s.Summary())
	}
	// table.n.02 is matched by breakfast_table (a descendant). Studio_0's
	// kitchen_1 has the oven, kitchen_0 the sink: not one room.
	if want := []string{"House_0: kitchen_0"}; !slices.Equal(ok, want) {
		t.Errorf("compatible = %q, want %q", ok, want)
	}
	for _, s := range f.Scenes {
		if s.Scene == "Studio_0" {
			if want := "Studio_0: kitchen_0 lacks 1 oven.n.01, 1 table.n.02"; s.OK || s.Rooms[0].Missing != 2 || s.Summary() != want {
				t.Errorf("Studio_0 = %+v, want %q", s, want)
			}
		}
		if s.Scene == "Garden_0" && s.Summary() != "Garden_0: no kitchen" {
			t.Errorf("Garden_0 summary = %q", s.Summary())
		}
	}
}
