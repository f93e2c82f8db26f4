package transitions_test

import (
	"fmt"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/transitions"
)

const smoothieSrc = `(define (problem smoothie-0) (:domain omnigibson)
  (:objects strawberry.n.01_1 strawberry.n.01_2 - strawberry.n.01 whole_milk.n.01_1 - whole_milk.n.01
            blender.n.01_1 - blender.n.01 smoothie.n.02_1 - smoothie.n.02)
  (:init (inside strawberry.n.01_1 blender.n.01_1) (inside strawberry.n.01_2 blender.n.01_1)
         (filled blender.n.01_1 whole_milk.n.01_1) (future smoothie.n.02_1))
  (:goal (filled blender.n.01_1 smoothie.n.02_1)))`

func Example() {
	base := kb.Default()
	prob, _ := bddl.ParseProblem("smoothie.bddl", []byte(smoothieSrc))
	prog, _ := predicates.Compile(prob, base, predicates.Options{})
	eng, _ := transitions.Compile(prog, base)

	// The :init as a symbolic state, then the blender switched on.
	s := prog.InitState()
	_ = s.SetFact(mustPred("contains"), mustID(prog, "blender.n.01_1"), mustID(prog, "whole_milk.n.01_1"), predicates.True)
	eng.Step(s) // off: nothing fires
	_ = s.SetFact(mustPred("toggled_on"), mustID(prog, "blender.n.01_1"), predicates.NoObject, predicates.True)
	out := eng.Step(s)
	for _, f := range out.Firings {
		fmt.Printf("%s %s: %d objects and %d substance consumed, made %s\n", f.Family, f.Rule, len(f.Consumed), len(f.ConsumedSubstances), f.Produced[0].Name)
	}
	fmt.Println("goal:", prog.Eval(s))
	// Output:
	// single_toggleable_machine strawberry_smoothie: 2 objects and 1 substance consumed, made smoothie.n.02_1
	// goal: true
}

func mustPred(name string) predicates.PredID {
	id, _ := predicates.PredByName(name)
	return id
}

func mustID(p *predicates.Program, name string) predicates.ObjectID {
	id, _ := p.ObjectID(name)
	return id
}
