// Package sampler samples concrete configurations of activities: every
// instance's model, pose, box, room and states, such that the
// definition's :init (or its goal) holds, verified by package
// predicates before anything is returned.
//
// A Sampler holds a knowledge base and its scenes: the knowledge base's
// room object lists laid out by LayoutScene (rooms sized from their
// contents, furniture against the walls at its real height, doors
// clear), and simulator
// scene files added with AddScene(ReadTemplate(...)). Sample runs the
// phases of the reference's sampler without physics (SEMANTICS.md B §3.3):
// in-room instances are bound to scene objects by maximum bipartite
// matching in one room per room type (a scene file's own bindings first),
// wildcards expand to the matching objects of that room, every other
// instance gets a model with the meta links its literals need and its
// real size (the models and scales the scene files record the reference
// choosing, when it has read any), objects are placed parents
// first at free spots with random yaw — wholly inside a container's inner
// box (its floor, a shelf, or what lies inside), with 80 % of a rigid
// object's footprint on its support, every footprint in its room, never
// overlapping anything of the scene, neighbouring rooms included; a smaller
// model, then another container (scene object or model), then shrinking,
// when nothing fits — and the temperatures, joints,
// toggles, particle counts and cloth ratios are set from the reference's
// sampling ranges. A configuration that cannot be made is a *Failure of a
// Kind (no-scene, no-room, no-model, no-space, contradiction,
// unsupported) naming the literal and objects; a sampled state that the
// evaluator does not find true is an Internal failure, a bug.
//
// Sampling is deterministic: each configuration draws from its own
// generator seeded by (seed, activity, scene, index), so results do not
// depend on what else runs or in which order. A Result writes itself as
// an episode (WriteEpisode, WriteFile) that package episode reads and
// `bddl check` checks, and draws itself from above (WriteSVG).
package sampler
