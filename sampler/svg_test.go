package sampler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// TestWriteSVG draws sampled examples: the drawing names every placed
// task object and the rooms in view, has the legend, a scale bar and the
// side view of the tallest support, and marks a shrunk object with its
// factor.
func TestWriteSVG(t *testing.T) {
	s := New(kb.Default(), predicates.Options{})
	dir := t.TempDir()
	for _, name := range []string{"tidying_the_living_room", "cleaning_the_kitchen_counter"} {
		a, ok := activities.Examples().Find(name)
		if !ok {
			t.Fatalf("no example %s", name)
		}
		res, err := s.Sample(Request{Activity: a.Name, Problem: a.Problem, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Objects) > 0 {
			res.Objects[len(res.Objects)-1].Scale = 0.7 // as if shrunk
		}
		path := filepath.Join(dir, name+".svg")
		if err := res.WriteSVG(path); err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		svg := string(b)
		want := []string{"task object placed", "the agent", "shrunk to fit", " m</text>", "side view of"}
		for _, o := range res.Objects {
			if o.Placed && o.SceneObject == "" {
				want = append(want, ">"+shortName(o.Name))
			}
		}
		if last := res.Objects[len(res.Objects)-1]; last.Placed && last.SceneObject == "" {
			want = append(want, shortName(last.Name)+" ×0.7")
		}
		for _, w := range want {
			if !strings.Contains(svg, w) {
				t.Errorf("%s: the drawing lacks %q", name, w)
			}
		}
	}
}

func TestShortName(t *testing.T) {
	for in, want := range map[string]string{"plate.n.04_1": "plate_1", "agent.n.01_1": "agent_1", "countertop_xyz_0": "countertop_xyz_0"} {
		if got := shortName(in); got != want {
			t.Errorf("shortName(%q) = %q, want %q", in, got, want)
		}
	}
}
