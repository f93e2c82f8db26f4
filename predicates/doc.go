// Package predicates evaluates BDDL activity definitions on recorded
// object states: the goal checker of the engine.
//
// # Pipeline
//
//	prob, diags := bddl.ParseProblem(name, src)
//	prog, err := predicates.Compile(prob, base, predicates.Options{})
//	s := prog.NewState()            // once per recording
//	s.SetExists(id, true); s.SetAABB(id, box); s.SetFact(pred, a, b, predicates.True) ...
//	v := prog.Eval(s)               // per step: no allocation, no map lookup
//
// Compile resolves every instance to a dense ObjectID (the :objects in
// order, wildcards replaced by their expansion, then the constants such as
// room types), every predicate to a PredID, every quantifier domain to an
// id slice (the instances declared under exactly that synset, as the
// reference does), folds what does not depend on the state (insource,
// connectives over constants, quantifiers over empty domains), and lowers
// :goal and :init to a flat pre-order node array. Eval walks it over a
// frame of variable slots kept in the State, returning on the deciding
// child (Options.Exhaustive visits every child; the value is the same).
//
// # Three-valued logic (SEMANTICS.md A1)
//
// Truth is Kleene's strong logic with Unknown as the zero value, so
// anything never computed is never success. and is False if a child is
// False, True if all are True, else Unknown; or dually; not swaps True and
// False; (imply a b) is (or (not a) b); forall and exists fold the same
// way. forn N is True iff exactly N children are True and the others
// False, False iff more than N are True or fewer than N could be, else
// Unknown. forpairs and fornpairs use the reference's row/column cover
// test (at least L rows and L columns with a True entry, L = min(rows,
// columns) or N; columns counted by position in rows that leave out the
// row's own object, as the reference builds them), or with
// Options.StrictPairs a one-to-one matching of L pairs of distinct objects
// (for forpairs, L is the most such pairs the domains allow). Learning a missing
// value can settle an Unknown result, never flip a known one.
//
// # Deciding an atom (SEMANTICS.md A2, A3)
//
// In order: an argument that does not exist makes the atom False (so its
// negation is True), except future and real, which read existence; a
// kinematic relation of an object with itself is False; a recorded fact
// decides; else the predicate's rule computes it from recorded quantities,
// then from box geometry; else it is Unknown, or False in a closed-world
// state. An argument whose existence is unknown turns a True into Unknown.
// Thresholds come from the knowledge base per synset, read once at
// compile time, with the reference defaults. Geometric decisions are
// approximations (SEMANTICS.md B §5.2) and are counted as such by
// EvalStats and marked in traces.
//
//	predicate    rule (after existence and recorded facts)                           default thresholds
//	cooked       max_temperature ≥ cook_temperature                                  70 °C
//	burnt        max_temperature ≥ burn_temperature                                  200 °C
//	frozen       temperature ≤ freeze_temperature                                    0 °C
//	hot          temperature ≥ heat_temperature                                      40 °C
//	on_fire      temperature ≥ ignition_temperature                                  250 °C
//	open         a joint strictly past its threshold toward its open end (both       5 % of the range
//	             directions when openable both sides); else open_fraction > 5 %
//	closed       not open on an existing object (strict partner of open)             5 % of the range
//	toggled_on   the recorded flag                                                   -
//	folded       smoothness ≥ 0.5 ∧ area_ratio < 0.75 ∧ diagonal_ratio < 0.85        as listed
//	unfolded     smoothness ≥ 0.5 ∧ area_ratio ≥ 0.9 ∧ diagonal_ratio ≥ 0.9          as listed
//	broken       the recorded flag (not implemented in the reference)                -
//	sliced       the recorded flag (legacy)                                          -
//	future       the object does not exist                                           -
//	real         the object exists                                                   -
//	contains     inside count > 0, else fill_fraction > 0                            > 0 particles
//	empty        not contains on an existing object (strict partner of filled)       -
//	filled       fill_fraction > 0.2; an inside count of 0 is not filled             0.2, strict
//	covered      covering count ≥ 1                                                  1 particle
//	saturated    absorbed ≥ limit: recorded, else particle removers 200 (visual)     200 / 400 / 1e6
//	             or 400 (physical), other objects 1e6
//	insource     always True, as in the reference (folded at compile time)           -
//	touching     a recorded contact either way; else box separation ≤ 1 cm ~         TouchTolerance 0.01 m
//	ontop        touching ∧ B below A ∧ ¬(B above A) ~                               VerticalRange 5 m
//	under        B above A ∧ ¬(B below A) ∧ ¬(A above B) ~                           VerticalRange 5 m
//	nextto       box gap ≤ (sum of six extents)/18 ∧ a horizontal ray from either    NextToRatio 1/18,
//	             centre meets the other box ~                                        16 rays, 5 m
//	inside       A's centre inside B's box (oriented when recorded) ~                -
//	overlaid     touching ∧ footprint overlap / B's footprint > 0.5 ~                OverlapFraction 0.5
//	draped       touching ∧ A's centre below the top of B's box ~                    -
//	onfloor      touching ∧ in the same recorded room (legacy)                       -
//	attached     A's recorded attachment parent is B                                 -
//	grasped      A is recorded as grasped by B (not implemented in the reference)    -
//	inroom       A's recorded room instance has room type B (kitchen_0: kitchen)     -
//	dusty, stained, soaked, perished, screwed, timeset
//	             recorded facts only (legacy; no quantity defines them)              -
//
// ~ marks box geometry. "B below A" means the vertical ray down from the
// centre of A's box meets B's box within VerticalRange; "above" likewise
// upward. The reference states the nextto limit as L/6 with L the mean
// over x, y, z of the two boxes' extents, which is the sum of the six
// extents divided by 18. inroom is evaluated from recorded rooms wherever
// it appears (the reference only uses it to sample :init).
//
// # Negation (SEMANTICS.md A6)
//
// Reference negation (the default) is Kleene NOT, so scores match
// published results. Strict negation rewrites the definition to negation
// normal form at compile time (De Morgan through and, or, imply, forall,
// exists; forn and the pair quantifiers keep a negation on top) and reads
// a negated member of a pair as its strict partner: not open → closed, not
// filled → empty, not folded → unfolded, and back.
//
// # Explanations
//
// Explain evaluates exhaustively and records every node per binding as a
// tree mapped to source ranges; Trace.Reasons lists the ground literals
// responsible for a goal that is not True, e.g.
//
//	unsatisfied: (cooked ?sugar_cookie.n.01) for sugar_cookie.n.01_3: max_temperature 41.0 < 70 (cook_temperature of sugar_cookie.n.01)
//
// # Scores (SEMANTICS.md A7)
//
// Scores gives the library score (the best, over the goal's ground
// options, fraction of the option's literals that are True now) and the
// challenge score (counting only literals that were False at the first
// step and are True now, over the option's length, as OmniGibson's task
// metric does); success gives 1 for both. The ground options are the
// reference's (bddl get_ground_options: and and forall multiply, or and
// exists add, imply is (or (not a) b), not takes one literal from each
// option, forn chooses N children, the pair quantifiers choose matchings;
// options holding a literal and its negation are dropped). They are never
// listed: Dinkelbach's parametric iteration turns the best ratio into a
// sequence of exact integer maximisations that decompose over the tree
// (sums, maxima, top-N, assignment problems), and a branch and bound over
// atoms that occur with both polarities drops the inconsistent options.
// GroundOptionCount counts them exactly as a big integer and
// GroundOptions lists them lazily.
//
// # States
//
// A State is sized for one program and updated in place; every setter
// validates its ids and returns an error instead of panicking, and none
// allocates once each kind of record has been written once. Its fields
// follow the recording format one to one: exists, pos, quat, aabb, obb (8
// corners), temperature, max_temperature, joints or open_fraction,
// toggled_on, sliced, broken, contacts, attached_to, grasped_by, room,
// particles per substance (inside, fill_fraction, covering, absorbed,
// absorb_limit), cloth ratios, and recorded facts; Clear forgets a field
// (a null in the recording) and NaN clears a number.
//
// A Program is immutable and safe for concurrent use; a State belongs to
// one goroutine.
package predicates
