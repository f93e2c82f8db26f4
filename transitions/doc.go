// Package transitions applies the BEHAVIOR-1K transition rules to
// recorded states: it decides which rules fire on a predicates.State,
// removes their inputs, creates their outputs (bound to the activity's
// future instances) and reports every firing, deterministically and
// without allocating on a step where nothing fires.
//
// Compile once per activity and knowledge base, then call Step after each
// recorded step, before evaluating the goal:
//
//	eng, err := transitions.Compile(prog, base)
//	...
//	for each step { decode into s; out := eng.Step(s); prog.Eval(s) }
//
// # What a rule sees
//
// A rule sees exactly what a goal check sees: every condition (contact,
// "in the container", an input state such as (cooked x) = false, a heat
// source's toggled_on and open) is one ground atom evaluated by
// predicates.Program.Atom on the same state, and only True counts (an
// Unknown condition does not fire a rule). Only the activity's instances
// (and the engine's anonymous objects) are in a state, so only rules whose
// equipment the activity declares, and whose inputs it declares or its
// rules make, can fire; Compile keeps those (a fixed point).
//
// "In the container" is SEMANTICS.md A9: (inside x c) or (ontop x c).
// A heat source affects a container when (inside c h) for sources that
// require inside, else when (ontop c h) or the container's box centre is
// within the source's distance_threshold of the source's box.
//
// # Step semantics
//
// docs/transitions.md gives each family's firing conditions with the
// reference function it follows. In short:
//
//   - Every family is evaluated on the state as recorded, in the fixed
//     order of Families (the reference iterates a set: its order is
//     unspecified); within a family, candidates in id order and recipes in
//     the knowledge base's order, the first executable recipe of a
//     container firing. A container fires at most one recipe per step and
//     an object is consumed at most once: a later firing that needs an
//     object an earlier one consumed is dropped.
//   - Then all removals happen, then all additions, in firing order.
//     Created objects exist at once; their output states and their place
//     on the container (and the states the parts of a sliced object
//     inherit) land at the start of the next Step, as in the reference
//     (Options.SameStep lands them at once; Flush lands them on demand).
//   - Edge-triggered conditions (a machine switched on, a washer or dryer
//     switched on while closed, a mixing tool starting to touch a
//     container) compare with the previous Step; heat_cook recipes count
//     consecutive executable steps per recipe and fire when the count
//     reaches timesteps; a slicer that touched a sliceable object is
//     inactive until it has touched none for 2 s (SetDT; one step when dt
//     is unknown).
//   - Fixed-base objects (by default the scene objects an inroom literal
//     places; Options.FixedBase) are never containers or machines.
//
// # What a firing writes
//
// Removed objects stop existing. Created objects bind to the first
// instance of the activity, in :objects order, that does not exist now and
// whose synset is the output's synset or an ancestor of it (SEMANTICS.md
// §3.4). An output with no such instance that some compiled rule can take
// becomes a bounded anonymous object (anonymous.go) that later rules
// consume, so chains through undeclared intermediates (dough, halves)
// complete; any other gets a stable generated name (half__apple.n.01_gen1)
// and is reported as unbound. A bound object exists at once and, a
// step later, gets its output states as recorded facts ((cooked x) true)
// and a box on top of the container (or, for slices, at once the halves of
// the sliced object's box, and a step later its temperatures and cooked
// state); when the container has no box, the fact (ontop x c).
// Substances in containers are written as facts: (contains c s) false for
// what a recipe consumed, true (and filled when the inputs filled it) for
// what it made. Every change is also listed in the Outcome (in the Outcome
// of the step it lands on), so a recording can be rewritten with the rule
// outcomes as ordinary recorded fields. Applier.WriteFile writes that
// rewritten recording over a file atomically (episode apply-rules), and
// WriteSampleFiles a rule's sample beside its definition (transition
// sample -o).
//
// The package imports bddl, kb, predicates, episode and the ground
// utilities (internal/fsutil); sampler and the commands import it.
package transitions
