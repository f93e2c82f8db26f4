package sampler_test

import (
	"fmt"

	"github.com/openbddl/bddl/activities"
	"github.com/openbddl/bddl/kb"
	"github.com/openbddl/bddl/predicates"
	"github.com/openbddl/bddl/sampler"
)

// Sample an embedded example activity in a scene of the embedded
// knowledge base: every instance gets a place, and :init holds.
func ExampleSampler_Sample() {
	s := sampler.New(kb.Default(), predicates.Options{})
	act, _ := activities.Examples().Find("cleaning_the_kitchen_counter")
	res, err := s.Sample(sampler.Request{Activity: act.Name, Problem: act.Problem, Scenes: []string{"Cozy_apartment_0"}, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("scene:", res.Scene)
	fmt.Println(":init holds:", res.Program.EvalInit(res.State))
	for _, o := range res.Objects {
		if o.SceneObject != "" {
			fmt.Printf("%s is %s in %s\n", o.Name, o.SceneObject, o.Room)
		}
	}
	// Output:
	// scene: Cozy_apartment_0
	// :init holds: true
	// sink.n.01_1 is sink_eqlhdw_0 in kitchen_0
	// countertop.n.01_1 is countertop_kzpbrq_1 in kitchen_0
	// countertop.n.01_2 is countertop_kzpbrq_0 in kitchen_0
	// floor.n.01_1 is floors_hqgbxe_0 in kitchen_0
}
