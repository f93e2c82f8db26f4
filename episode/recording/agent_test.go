package recording

import (
	"math"
	"testing"

	"github.com/openbddl/bddl/predicates"
)

func TestAgentBox(t *testing.T) {
	t.Parallel()
	a := Agent{Footprint: [3]float64{2, 1, 1.5}}
	b := a.Box(10, 20, math.Pi/2) // heading along +y: length along y
	lo, hi := b[0], b[0]
	for _, c := range b {
		for i := range 3 {
			lo[i], hi[i] = min(lo[i], c[i]), max(hi[i], c[i])
		}
	}
	want := [2][3]float64{{9.5, 19, 0}, {10.5, 21, 1.5}}
	for i := range 3 {
		if math.Abs(lo[i]-want[0][i]) > 1e-9 || math.Abs(hi[i]-want[1][i]) > 1e-9 {
			t.Fatalf("box bounds %v–%v, want %v–%v", lo, hi, want[0], want[1])
		}
	}
	if err := predicates.CheckOBB(&b); err != nil {
		t.Fatalf("not a valid oriented box: %v", err)
	}
}

func TestAgentFacts(t *testing.T) {
	t.Parallel()
	a := DefaultAgentConfig()
	a.Rooms = []Room{{Name: "kitchen_0", Min: [2]float64{0, 0}, Max: [2]float64{5, 5}}, {Name: "corridor_0", Min: [2]float64{5, 0}, Max: [2]float64{8, 2}}}
	// base moves from the kitchen (x 1…) through the corridor out of both;
	// gripper opens, closes, opens.
	xs := []float64{1, 1, 6, 6, 9}
	gs := []float64{0, 0.9, 0.9, 0.2, 0.2}
	base := &sliceSource{name: "base"}
	grip := &sliceSource{name: "grip"}
	for i := range xs {
		base.t, grip.t = append(base.t, float64(i)), append(grip.t, float64(i))
		base.v, grip.v = append(base.v, []float64{xs[i], 1, 0}), append(grip.v, []float64{gs[i]})
	}
	_, steps, err := joinAll(t, JoinOptions{Name: "e", Activity: "a", Agent: &a, Base: base, Gripper: grip, MaxGap: 2})
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		room      string // "-" when not written
		grasp     string // "open", "null", "-"
		positions bool
	}
	wants := []want{{"kitchen_0", "open", true}, {"-", "null", false}, {"corridor_0", "-", true}, {"-", "open", false}, {"", "-", true}}
	for k, w := range wants {
		o := steps[k].Objects[DefaultAgent]
		if o == nil {
			t.Fatalf("step %d: agent not written", k)
		}
		if got := o.Has(predicates.FieldPosition); got != w.positions {
			t.Errorf("step %d: position written %v, want %v", k, got, w.positions)
		}
		room := "-"
		if o.Has(predicates.FieldRoom) {
			room = o.Room
		}
		if room != w.room {
			t.Errorf("step %d: room %q, want %q", k, room, w.room)
		}
		g := "-"
		switch {
		case o.Has(predicates.FieldGraspedBy) && o.GraspedBy == "":
			g = "open"
		case o.Null&predicates.FieldGraspedBy != 0:
			g = "null"
		}
		if g != w.grasp {
			t.Errorf("step %d: grasped_by %s, want %s", k, g, w.grasp)
		}
	}
}
