package predicates_test

import (
	"fmt"

	"github.com/openbddl/bddl/bddl"
	"github.com/openbddl/bddl/predicates"
)

const exampleSrc = `(define (problem baking-0)
    (:domain omnigibson)
    (:objects
        sugar_cookie.n.01_1 sugar_cookie.n.01_2 - sugar_cookie.n.01
        cookie_sheet.n.01_1 - cookie_sheet.n.01
        agent.n.01_1 - agent.n.01
    )
    (:init (future sugar_cookie.n.01_1) (future sugar_cookie.n.01_2))
    (:goal
        (forall (?sugar_cookie.n.01 - sugar_cookie.n.01)
            (and (cooked ?sugar_cookie.n.01)
                 (ontop ?sugar_cookie.n.01 ?cookie_sheet.n.01_1))))
)`

func Example() {
	prob, diags := bddl.ParseProblem("baking.bddl", []byte(exampleSrc))
	if diags.HasErrors() {
		panic(diags)
	}
	// A nil knowledge base gives every synset the reference thresholds.
	prog, err := predicates.Compile(prob, nil, predicates.Options{})
	if err != nil {
		panic(err)
	}

	// Name lookups happen once, when a recording starts.
	c1, _ := prog.ObjectID("sugar_cookie.n.01_1")
	c2, _ := prog.ObjectID("sugar_cookie.n.01_2")
	sheet, _ := prog.ObjectID("cookie_sheet.n.01_1")

	s := prog.NewState()
	s.SetAllExist(true)
	_ = s.SetAABB(sheet, predicates.Box{Min: [3]float64{0, 0, 0.90}, Max: [3]float64{0.4, 0.3, 0.91}})
	_ = s.SetAABB(c1, predicates.Box{Min: [3]float64{0.1, 0.1, 0.91}, Max: [3]float64{0.15, 0.15, 0.92}})
	_ = s.SetAABB(c2, predicates.Box{Min: [3]float64{0.2, 0.1, 0.91}, Max: [3]float64{0.25, 0.15, 0.92}})
	_ = s.SetMaxTemperature(c1, 85)
	_ = s.SetMaxTemperature(c2, 41)

	fmt.Println("goal:", prog.Eval(s))
	for _, r := range prog.Explain(s).Reasons() {
		fmt.Println(r)
	}

	// Step on: the second cookie bakes.
	_ = s.SetMaxTemperature(c2, 90)
	v, stats := prog.EvalStats(s)
	fmt.Println("goal:", v, "approximate decisions:", stats.Approximate)
	// Output:
	// goal: false
	// unsatisfied: (cooked ?sugar_cookie.n.01) for sugar_cookie.n.01_2: max_temperature 41.0 < 70 (default cook_temperature)
	// goal: true approximate decisions: 2
}
