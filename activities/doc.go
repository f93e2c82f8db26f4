// Package activities validates BDDL activity definitions and keeps
// libraries of them.
//
// Validate runs, on one parsed problem, the language checker (bddl.Check
// with the knowledge base as schema) and every activity rule of the
// registry (Rules): objects and :init agree, every instance is placed,
// :init can be sampled, future objects are produced by the goal, synsets
// and predicates fit each other, liquids come from somewhere, wildcards are
// used as the reference expects, plus goal reachability through the
// knowledge base's transition rules and scene feasibility (which scenes
// can host the activity). Each finding carries the file, range, a stable
// code, the reason and a fix, so the bddl renderer prints it with a source
// snippet.
//
// Rules are cheap: a Context is built once per problem (instances resolved
// to synset ids, :init literals and :goal atoms with typed arguments) and
// every rule reads it. Knowledge-base indexes the rules need (scene rooms,
// the transition-rule graph) are built once per *kb.Base and shared.
//
// CheckKB checks the knowledge base's transition rules themselves.
//
// Library loads sets of definitions: the embedded examples (Examples) and
// directories in the BEHAVIOR-1K layout <activity>/problem<N>.bddl
// (LoadDir).
package activities
