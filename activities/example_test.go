package activities_test

import (
	"fmt"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
)

func ExampleValidate() {
	base, _ := kb.LoadYAML("example.yaml", []byte(`
room_types: [kitchen]
synsets:
  entity.n.01: {}
  agent.n.01: {parents: [entity.n.01], type: rigidBody}
  floor.n.01: {parents: [entity.n.01], type: rigidBody, properties: [sceneObject]}
  apple.n.01: {parents: [entity.n.01], type: rigidBody, properties: [cookable]}
  bowl.n.01: {parents: [entity.n.01], type: rigidBody, properties: [fillable]}
`))
	src := `(define (problem snack-0)
    (:domain omnigibson)
    (:objects apple.n.01_1 - apple.n.01 bowl.n.01_1 - bowl.n.01 floor.n.01_1 - floor.n.01 agent.n.01_1 - agent.n.01)
    (:init (inside apple.n.01_1 bowl.n.01_1) (inroom floor.n.01_1 kitchen) (ontop agent.n.01_1 floor.n.01_1))
    (:goal (and (cooked ?apple.n.01_1) (cooked ?bowl.n.01_1))))`
	p, _ := bddl.ParseProblem("snack/problem0.bddl", []byte(src))
	for _, f := range activities.Validate(p, base) {
		fmt.Printf("%s:%s %s (%s rule)\n  fix: %s\n", f.Filename(), f.Subject.Start, f.Code, f.Rule, f.Detail)
	}
	// Output:
	// snack/problem0.bddl:3:41 unplaced (placement rule)
	//   fix: place it, e.g. (ontop bowl.n.01_1 floor.n.01_1)
	// snack/problem0.bddl:5:48 inapplicable (alignment rule)
	//   fix: only cookable objects cook; a cooked substance is its own synset (cooked__rice.n.01)
}
