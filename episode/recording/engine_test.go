package recording

import (
	"context"
	"testing"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/episode"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
)

// The agent's facts as the engine decides them: its box beside the
// table's (nextto, touching), its room (inroom), its open gripper
// (grasped is false).
func TestAgentFactsInTheEngine(t *testing.T) {
	t.Parallel()
	src := `(define (problem agent-0) (:domain omnigibson)
 (:objects table.n.02_1 - table.n.02 apple.n.01_1 - apple.n.01 floor.n.01_1 - floor.n.01 agent.n.01_1 - agent.n.01)
 (:init (inroom floor.n.01_1 kitchen))
 (:goal (and (nextto ?agent.n.01_1 ?table.n.02_1) (touching ?agent.n.01_1 ?table.n.02_1) (inroom ?agent.n.01_1 kitchen)
   (not (grasped ?agent.n.01_1 ?apple.n.01_1)))))`
	prob, diags := bddl.ParseProblem("agent.bddl", []byte(src))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	prog, err := predicates.Compile(prob, kb.Default(), predicates.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := ParseMap("m.yaml", []byte(`agent:
  footprint: [0.6, 0.6, 1.2]
rooms:
  kitchen_0: [0, -2, 5, 2]
  corridor_0: [-5, -2, 0, 2]
static:
  table.n.02_1: {aabb: [2, -0.5, 0, 3, 0.5, 0.8]}
  apple.n.01_1: {aabb: [2.4, -0.05, 0.8, 2.5, 0.05, 0.9]}
`))
	if err != nil {
		t.Fatal(err)
	}
	// the base drives from the corridor (x = -2) up to the table's side
	// (its box's front at x = 2), the gripper open throughout
	base := regular("base", 0, 10, 38, func(i int) []float64 { return []float64{-2 + 0.1*float64(i), 0, 0} })
	grip := regular("grip", 0, 10, 38, func(int) []float64 { return []float64{0.1} })
	o := Options{Activity: "agent-0", Map: m, Instances: []string{"table.n.02_1", "apple.n.01_1", "floor.n.01_1", "agent.n.01_1"}}
	s, err := Join(o.Join("e", base, grip, map[string]any{}))
	if err != nil {
		t.Fatal(err)
	}
	rd, err := episode.NewReader(s, "e")
	if err != nil {
		t.Fatal(err)
	}
	res := episode.Check(context.Background(), prog, rd, episode.CheckOptions{})
	if res.Error != "" || !res.Success || res.FirstSuccessStep == nil {
		t.Fatalf("result: %+v", res)
	}
	// the box's front (x + 0.3) reaches the table (x = 2) at step 37
	// (touching tolerates 1 cm: at step 36 the gap is 10 cm)
	if *res.FirstSuccessStep != 37 {
		t.Fatalf("the goal first held at step %d, want 37", *res.FirstSuccessStep)
	}
}
